/** The lines each file of the Changes bar added and removed: counted by a diff that gives up rather than freeze. */
import * as assert from 'node:assert/strict';
import { countLines } from '../../../../src/changes/lineCounts';

const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`).join('');

describe('line counts of a changed file', () => {
  it('counts the lines added and removed', () => {
    assert.deepEqual(countLines('a\nb\nc\n', 'a\nB\nc\nd\n'), [2, 1]);
    assert.deepEqual(countLines('', 'x'), [1, 0]);
    assert.deepEqual(countLines('x\ny', ''), [0, 2]);
  });

  it('counts a rewrite of 8,000 lines as all changed, at once (the whole diff took 11 s)', () => {
    const start = performance.now();
    assert.deepEqual(countLines(numbered('a', 8_000), numbered('b', 8_000)), [8_000, 8_000]);
    const ms = performance.now() - start;
    assert.ok(ms < 1_000, `${Math.round(ms)} ms`);
  });
});
