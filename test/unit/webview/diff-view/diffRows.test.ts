/** A file edit as diff rows: a diff too big to compute quickly is shown by its size. */
import * as assert from 'node:assert/strict';
import { diffRows } from '../../../../webview/diff-view/diff-rows';

const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`).join('');

describe('diff rows', () => {
  it('shows the changed lines with their numbers', () => {
    const model = diffRows('a\nb\n', 'a\nc\n');
    assert.equal(model.kind, 'rows');
    assert.deepEqual(model.kind === 'rows' && [model.added, model.removed], [1, 1]);
  });

  it('gives up on 40,000 changed lines within a tenth of a second or so (it took 0.9 s)', () => {
    const start = performance.now();
    assert.deepEqual(diffRows(numbered('a', 40_000), numbered('b', 40_000)), {
      kind: 'tooLarge',
      oldLines: 40_000,
      newLines: 40_000,
    });
    const ms = performance.now() - start;
    assert.ok(ms < 400, `${Math.round(ms)} ms`);
  });
});
