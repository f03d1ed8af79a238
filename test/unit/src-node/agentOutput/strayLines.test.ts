import * as assert from 'node:assert/strict';
import { StrayLineDetector } from '../../../../src-node/agentOutput/strayLines';

function scan(chunks: string[], { ended = false } = {}): string[] {
  const found: string[] = [];
  const detector = new StrayLineDetector((line) => found.push(line));
  for (const c of chunks) detector.scan(new TextEncoder().encode(c));
  if (ended) detector.end();
  return found;
}

describe('stray stdout lines', () => {
  it('lets JSON-RPC lines through silently', () => {
    assert.deepEqual(scan(['{"jsonrpc":"2.0"}\n', '  {"a":1}\r\n', '\n\n{"b"', ':2}\n']), []);
  });

  it('reports lines that cannot be JSON-RPC, across chunk boundaries', () => {
    assert.deepEqual(scan(['{"a":1}\nnpm notice hello\n{"b":2}\n', 'W', 'ARN x\n']), ['npm notice hello', 'WARN x']);
  });

  it('reports a message cut short, wherever its line ends', () => {
    assert.deepEqual(scan(['{"jsonrpc":"2.0","method":\n{"a":1}\n']), ['{"jsonrpc":"2.0","method":']);
    assert.deepEqual(scan(['{"jsonrpc":"2.0",', '"method":"x"}  \r', '\n{"a":', '1}\r\n']), []);
    assert.deepEqual(
      scan(['{"a":1}', '\n{"b":"', 'x'.repeat(500), '\n']).map((l) => l.length),
      [200],
    );
  });

  it('reports the last line when the output ends without its newline', () => {
    assert.deepEqual(scan(['{"a":1}\n{"id":1,"res'], { ended: true }), ['{"id":1,"res']);
    assert.deepEqual(scan(['{"a":1}\n  \n'], { ended: true }), []);
  });

  it('reports a line longer than the limit once, across chunks, and not as stray output too', () => {
    const found: string[] = [];
    let tooLong = 0;
    const detector = new StrayLineDetector(
      (line) => found.push(line),
      100,
      () => tooLong++,
    );
    const bytes = (text: string) => new TextEncoder().encode(text);
    detector.scan(bytes(`{"a":1}\n{"b":"${'x'.repeat(60)}`));
    assert.equal(tooLong, 0, 'at 66 bytes');
    detector.scan(bytes('x'.repeat(40)));
    assert.equal(tooLong, 1, 'past 100 bytes');
    detector.scan(bytes(`${'x'.repeat(500)}"}\n{"c":"${'y'.repeat(200)}"}\n`));
    detector.end();
    assert.equal(tooLong, 1);
    assert.deepEqual(found, []);
  });

  it('cuts long garbage', () => {
    const [line] = scan(['x'.repeat(1000) + '\n']);
    assert.equal(line.length, 200);
  });
});
