/**
 * The bridge's copy of an agent's stderr: batched writes, in order, and the
 * last line for the close reason.
 */
import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { tapStderr } from '../../../../src-node/bridge/agentStderr';

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

function tapped() {
  const stream = new PassThrough();
  const writes: string[] = [];
  const tap = tapStderr(stream, (bytes) => writes.push(bytes.toString('utf8')));
  return { stream, writes, tap };
}

describe('bridge agent stderr', () => {
  it('copies lines that come close together in one write (two if a batch ends between them), in order', async () => {
    const { stream, writes } = tapped();
    for (let i = 0; i < 5; i++) {
      stream.write(`log ${i}\n`);
      await new Promise(setImmediate); // each line its own chunk
    }
    await tick(40);
    assert.ok(writes.length >= 1 && writes.length <= 2, `${writes.length} writes`);
    assert.equal(writes.join(''), 'log 0\nlog 1\nlog 2\nlog 3\nlog 4\n');
  });

  it('writes at once on flush, on a full batch and at the end of the stream', async () => {
    const { stream, writes, tap } = tapped();
    stream.write('before our own log line\n');
    await tick();
    tap.flush();
    assert.deepEqual(writes, ['before our own log line\n']);
    tap.flush(); // nothing waits: no write, not even an empty one
    assert.deepEqual(writes, ['before our own log line\n']);
    stream.write('x'.repeat(64 * 1024));
    await tick();
    assert.equal(writes.length, 2);
    stream.end('last words\n');
    await tick();
    assert.deepEqual(writes.slice(2), ['last words\n']);
  });

  it('keeps the last line that is not blank, across chunks and after much output', async () => {
    const { stream, tap } = tapped();
    assert.equal(tap.lastLine(), '');
    stream.write(`${'noise\n'.repeat(2000)}boom: sim`);
    stream.write('ulated crash\n\n  \n');
    await tick();
    assert.equal(tap.lastLine(), 'boom: simulated crash');
    tap.flush();
  });

  it('keeps only the last 4 KiB to find that line in, however long it is', async () => {
    const { stream, tap } = tapped();
    const text = `${'x'.repeat(10 * 1024 - 1)}\n`;
    for (let at = 0; at < text.length; at += 1024) {
      stream.write(text.slice(at, at + 1024)); // ten chunks of 1 KiB
      await new Promise(setImmediate);
    }
    assert.equal(tap.lastLine(), 'x'.repeat(4095));
    tap.flush();
  });
});
