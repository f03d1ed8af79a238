/**
 * The bridge's framing of an agent's stdout: bytes in, lines out, with the
 * byte limit and the text-frame payload.
 */
import * as assert from 'node:assert/strict';
import { isBlank, LineSplitter } from '../../../../src-node/bridge/lineSplitter';

function split(chunks: (string | Buffer)[], max = 1024): { lines: string[]; tooLong: number } {
  const out = { lines: [] as string[], tooLong: 0 };
  const splitter = new LineSplitter(
    max,
    (line) => out.lines.push(line.toString('utf8')),
    () => out.tooLong++,
  );
  for (const chunk of chunks) splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return out;
}

describe('bridge line splitter', () => {
  it('splits lines across chunk boundaries and keeps a trailing \\r', () => {
    assert.deepEqual(split(['{"a":1}\n{"b"', ':2}\r\n{"c":', '3', '}\n{"unfinished"']).lines, [
      '{"a":1}',
      '{"b":2}\r',
      '{"c":3}',
    ]);
  });

  it('skips lines that are only whitespace, as trim() sees it', () => {
    assert.deepEqual(split(['\n  \t\n\r\n', '\u00a0\u2028\n', 'x\n', ' \u00e9 \n']).lines, ['x', ' \u00e9 ']);
    // Control characters below tab are not whitespace to trim(): such a line is relayed.
    assert.deepEqual(split(['\u0001\n', ' \u0008 \n', '\u000b\u000c\n']).lines, ['\u0001', ' \u0008 ']);
  });

  it('keeps a character whose bytes arrive in two chunks whole', () => {
    const bytes = Buffer.from('{"t":"\u20ac\u{1f600}"}\n');
    assert.deepEqual(split([bytes.subarray(0, 8), bytes.subarray(8, 11), bytes.subarray(11)]).lines, [
      '{"t":"\u20ac\u{1f600}"}',
    ]);
  });

  it('relays a line of exactly the limit, counted in bytes', () => {
    const line = '\u00e9'.repeat(8); // 16 bytes
    assert.deepEqual(split([`${line}\n`], 16), { lines: [line], tooLong: 0 });
    assert.deepEqual(split([`${line}x\n`], 16), { lines: [], tooLong: 1 });
    // The same when the line's bytes wait for their newline in the next chunk.
    assert.deepEqual(split([line, '\n'], 16), { lines: [line], tooLong: 0 });
    assert.deepEqual(split([line, 'x', '\n'], 16), { lines: [], tooLong: 1 });
  });

  it('relays nothing from later chunks once a line was over the limit', () => {
    assert.deepEqual(split(['x'.repeat(20), 'y\n', '{"a":1}\n'], 16), { lines: [], tooLong: 1 });
  });

  it('reports a line over the limit once, whether it completes or not, and relays nothing after it', () => {
    assert.deepEqual(split(['ok\n', 'x'.repeat(10), 'x'.repeat(10), '\nlater\n', 'more\n'], 16), {
      lines: ['ok'],
      tooLong: 1,
    });
    assert.deepEqual(split(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(10)], 16), { lines: [], tooLong: 1 });
    assert.deepEqual(split([`${'x'.repeat(17)}\nlater\n`], 16), { lines: [], tooLong: 1 });
    // Nor what waits for its newline in a later chunk.
    assert.deepEqual(split(['x'.repeat(17), 'abc', '\nmore\n'], 16), { lines: [], tooLong: 1 });
  });

  it('blank is what trim() says', () => {
    for (const text of ['', ' ', '\t\r', '\u00a0', '\ufeff \u3000']) {
      assert.equal(isBlank(Buffer.from(text)), true, JSON.stringify(text));
    }
    for (const text of ['{', ' x', '\u00e9', '\u200b']) {
      assert.equal(isBlank(Buffer.from(text)), text.trim() === '', JSON.stringify(text));
    }
  });
});
