/**
 * A window's first pass reads and copies every file of a folder without Git (seconds on a large one): a prompt sent
 * meanwhile does not wait for all of it. Its mark is taken once the scan is done; a file the turn changes before
 * the pass has read it is still listed, as changed from a version not known ("not checkpointed yet"), never lost.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { WorkspaceCheckpoints } from '../../../../src-node/checkpoints/workspaceCheckpoints';
import { makeCheckpointSandbox } from './checkpoints.test';

const LIMITS = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxStoreBytes: 256 * 1024 * 1024 };
const FILES = 5000;

describe("checkpoints: a prompt during a folder's first pass", function () {
  if (process.platform !== 'linux') return;
  this.timeout(120_000);
  const s = makeCheckpointSandbox();
  after(() => s.cleanup());

  it('does not wait for every file to be read, and lists every file the turn changed, read yet or not', async () => {
    const body = (i: number) => `// file ${i}\n${'x'.repeat(2000 + (i % 7))}\n`;
    for (let i = 0; i < FILES; i++) s.write(`d${i % 40}/f${i}.ts`, body(i));
    const cp = new WorkspaceCheckpoints(s.store, LIMITS);
    const warm = cp.beforeTurn([s.root]); // the window's first pass, as when a chat connects
    const mark = await cp.beforeTurn([s.root], true);
    assert.equal(mark.unseen, true, 'the mark did not wait for the first pass to read every file');
    // The turn: edits files all over the folder, deletes one, creates one.
    const edited = [0, 1, 2, 1234, 2500, 3999, 4998].map((i) => `d${i % 40}/f${i}.ts`);
    for (const f of edited) s.write(f, 'the turn was here\n');
    fs.rmSync(s.file('d39/f4999.ts'));
    s.write('made.ts', 'new\n');
    const changes = await cp.afterTurn(mark);
    cp.release(await warm);
    const byPath = new Map(changes.map((c) => [c.path.slice(s.root.length + 1), c]));
    assert.deepEqual(
      [...byPath.keys()].sort(),
      [...edited, 'd39/f4999.ts', 'made.ts'].sort(),
      'nothing lost, nothing more',
    );
    let unseen = 0;
    for (const f of [...edited, 'd39/f4999.ts']) {
      const { before } = byPath.get(f)!;
      if (before?.missing === 'unseen') {
        unseen++;
        continue;
      }
      // Read before the turn changed it: its copy is the bytes from before.
      const i = Number(/f(\d+)\.ts$/.exec(f)![1]);
      assert.equal(Buffer.from(await cp.copy(before!.hash!)).toString(), body(i), f);
    }
    assert.ok(unseen > 0, 'some were changed before the first pass read them');
    assert.equal(byPath.get('made.ts')!.before, undefined, 'a file made in the turn is created');
    assert.equal(byPath.get('d39/f4999.ts')!.after, undefined, 'one deleted is deleted');
  });
});
