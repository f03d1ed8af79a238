import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { LARGE_LINE_BYTES, LargeLineRelay, LineWorker } from '../../../../src-node/agentOutput/largeLines';
import { LEFT_OUT_KEY } from '../../../../src/shared/leftOut';
import { MAX_TOOL_ITEMS } from '../../../../src/shared/thread/toolCalls';
import { longestStall } from '../../../fixtures/longestStall';

// The unit bundle's folder holds lineWorker.js beside it (webpack.config.js, tests-node).
const worker = new LineWorker(path.join(__dirname, 'lineWorker.js'));
after(() => worker.end());

/** What the relay passes on of `chunks`, and the longest this thread stalled meanwhile. */
async function relay(chunks: Buffer[], max = 16 * 1024 * 1024, through = worker) {
  const { result: text, stallMs } = await longestStall(async () => {
    const out: Buffer[] = [];
    for await (const piece of Readable.from(chunks).pipe(new LargeLineRelay(max, through))) out.push(piece as Buffer);
    return Buffer.concat(out).toString('utf8');
  });
  return { text, stallMs };
}

/** `text` cut into pieces of `size` bytes, as a pipe hands it over. */
const pieces = (text: string, size: number) => {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};

const many = (count: number, make: (i: number) => object) => Array.from({ length: count }, (_, i) => make(i));

/** A tool call of 100,000 content items and as many locations: ~9 MB on one line. */
const hugeToolCall = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: 's',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'items',
        title: 'Many items',
        status: 'completed',
        content: many(100_000, (i) => ({ type: 'content', content: { type: 'text', text: `item ${i}` } })),
        locations: many(100_000, (i) => ({ path: `/nowhere/${i}` })),
      },
    },
  });

describe("an agent's long lines", function () {
  this.timeout(30_000);

  it('passes short lines on as they came, however the pipe cuts them', async () => {
    const text = '{"jsonrpc":"2.0","id":1}\n\nnot json\r\n{"a":"é"}\n{"last":true}';
    for (const size of [1, 3, 7, 64, text.length]) assert.equal((await relay(pieces(text, size))).text, text);
  });

  it('has a long message parsed by the worker and cut to the wire bounds, in order, this thread never waiting', async () => {
    const text = `{"id":1}\n${hugeToolCall()}\n{"id":2}\n`;
    const { text: out, stallMs } = await relay(pieces(text, 64 * 1024));
    const lines = out.split('\n');
    assert.equal(lines.length, 4);
    assert.equal(lines[0], '{"id":1}');
    assert.equal(lines[2], '{"id":2}');
    assert.equal(lines[3], '');
    assert.ok(lines[1].length < 100_000, `cut to ${lines[1].length} characters`);
    const update = JSON.parse(lines[1]).params.update;
    assert.equal(update.content.length, MAX_TOOL_ITEMS);
    assert.equal(update.locations.length, MAX_TOOL_ITEMS);
    assert.deepEqual(update._meta[LEFT_OUT_KEY], {
      content: 100_000 - MAX_TOOL_ITEMS,
      locations: 100_000 - MAX_TOOL_ITEMS,
    });
    // Parsed here, the same line held this thread 100 to 540 ms; through the worker, ~20 ms (the line's copies).
    assert.ok(stallMs < 60, `this thread stalled ${Math.round(stallMs)} ms`);
  });

  it('passes a backlog of short lines on a few at a time, this thread free between', async () => {
    const text = Array.from({ length: 10_000 }, (_, i) => `{"id":${i}}\n`).join('');
    const { result: count, stallMs } = await longestStall(async () => {
      let lines = 0;
      for await (const piece of Readable.from([Buffer.from(text)]).pipe(new LargeLineRelay(1 << 24, worker))) {
        // What handling a message costs (the SDK's parse, the chat's reducer): ~0.05 ms each, 500 ms in all.
        for (let n = (piece as Buffer).toString().split('\n').length - 1; n > 0; n--, lines++) {
          for (const end = performance.now() + 0.05; performance.now() < end;);
        }
      }
      return lines;
    });
    assert.equal(count, 10_000);
    assert.ok(stallMs < 60, `this thread stalled ${Math.round(stallMs)} ms`);
  });

  it('passes a long line with nothing to cut, or not JSON, on as it came', async () => {
    const longText = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { text: 'é'.repeat(LARGE_LINE_BYTES) } });
    const notJson = `{"cut short":"${'x'.repeat(LARGE_LINE_BYTES)}`;
    const text = `${longText}\n${notJson}\n{"id":3}`;
    assert.equal((await relay(pieces(text, 100_000))).text, text);
  });

  it('passes a line past the limit on as it comes, for the SDK to refuse', async () => {
    const text = `${'x'.repeat(5000)}\n{"id":4}\n`;
    const { text: out } = await relay(pieces(text, 1000), 2000);
    assert.equal(out, text);
  });

  it('passes every line on as it came when the worker cannot start', async () => {
    const missing = new LineWorker(path.join(__dirname, 'no-such-worker.js'));
    const huge = hugeToolCall();
    const text = `${huge}\n${huge}\n{"id":5}\n`;
    assert.equal((await relay(pieces(text, 1024 * 1024), undefined, missing)).text, text);
  });
});
