import * as assert from 'node:assert/strict';
import { StrayLineDetector } from '../../src-node/strayLines';

function scan(chunks: string[]): string[] {
  const found: string[] = [];
  const detector = new StrayLineDetector((line) => found.push(line));
  for (const c of chunks) detector.scan(new TextEncoder().encode(c));
  return found;
}

describe('stray stdout lines', () => {
  it('lets JSON-RPC lines through silently', () => {
    assert.deepEqual(scan(['{"jsonrpc":"2.0"}\n', '  {"a":1}\r\n', '\n\n{"b"', ':2}\n']), []);
  });

  it('reports lines that cannot be JSON-RPC, across chunk boundaries', () => {
    assert.deepEqual(scan(['{"a":1}\nnpm notice hello\n{"b":2}\n', 'W', 'ARN x\n']), ['npm notice hello', 'W']);
  });

  it('cuts long garbage', () => {
    const [line] = scan(['x'.repeat(1000) + '\n']);
    assert.equal(line.length, 200);
  });
});
