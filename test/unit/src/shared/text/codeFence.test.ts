/** A code fence longer than any run of backticks in the text it fences. */
import * as assert from 'node:assert/strict';
import { fenceFor } from '../../../../../src/shared/text/codeFence';

describe('code fences', () => {
  it('is longer than the longest run of backticks, and at least as long as asked', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('a `b` ``c`` d'), '```');
    assert.equal(fenceFor('````x`'), '`````');
    assert.equal(fenceFor('`'), '```');
    assert.equal(fenceFor('', 5), '`````');
  });

  it('takes text with any number of runs (spreading 150,000 of them into Math.max threw)', () => {
    assert.equal(fenceFor('`a\n'.repeat(150_000)), '```');
  });
});
