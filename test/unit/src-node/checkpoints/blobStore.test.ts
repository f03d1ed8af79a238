/**
 * The copies' store (src-node/checkpoints/blobStore.ts): a copy put is readable at once, byte for byte, and on disk a
 * moment later (a pass a prompt waits for does not wait for the disk); one swept before it was written never is; a
 * new store over the same folder (the next window) finds what was written.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BlobStore, hashOf } from '../../../../src-node/checkpoints/blobStore';

describe('checkpoints: the store of copies', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-blobs-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const onDisk = (hash: string) => path.join(dir, hash.slice(0, 2), hash.slice(2));

  it('reads a copy back at once, writes it when flushed or a moment after the last put, and the next store finds it', async () => {
    const store = new BlobStore(dir, 1024 * 1024);
    const bytes = Buffer.from('the version from before\n');
    const hash = store.put(bytes)!;
    assert.equal(hash, hashOf(bytes));
    assert.deepEqual(store.get(hash), bytes, 'readable before it is written');
    await store.flush();
    assert.deepEqual(fs.readFileSync(onDisk(hash)), bytes);
    assert.deepEqual(new BlobStore(dir, 1024 * 1024).get(hash), bytes, 'the next window reads it from disk');
    assert.deepEqual(
      fs.readdirSync(path.join(dir, hash.slice(0, 2))).filter((n) => n.endsWith('.partial')),
      [],
      'nothing left beside it',
    );
    // Not asked to: written a moment after the last put all the same.
    const later = store.put(Buffer.from('put, then left alone'))!;
    for (let i = 0; i < 100 && !fs.existsSync(onDisk(later)); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(fs.readFileSync(onDisk(later), 'utf8'), 'put, then left alone');
  });

  it('never writes a copy swept before it was written, and counts its room once', async () => {
    const store = new BlobStore(dir, 100);
    const kept = store.put(Buffer.from('kept'))!;
    const swept = store.put(Buffer.from('swept'))!;
    assert.equal(store.bytes, 9);
    assert.equal(store.put(Buffer.alloc(95)), undefined, 'no room past the limit, written or not');
    store.sweep(new Set([kept]));
    await store.flush();
    assert.equal(fs.existsSync(onDisk(swept)), false);
    assert.throws(() => store.get(swept), /not kept any more/);
    assert.equal(store.bytes, 4);
  });
});
