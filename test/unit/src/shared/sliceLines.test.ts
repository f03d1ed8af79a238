import * as assert from 'node:assert/strict';
import { sliceLines } from '../../../../src/shared/text/lines';

describe('editor text line ranges (fs/read_text_file of unsaved files)', () => {
  it('matches the disk reader: 1-based line, limit in lines, terminators kept', () => {
    const text = 'one\r\ntwo\nthree';
    assert.equal(sliceLines(text), text);
    assert.equal(sliceLines(text, 2, 1), 'two\n');
    assert.equal(sliceLines(text, 1, 2), 'one\r\ntwo\n');
    assert.equal(sliceLines(text, 3), 'three');
    assert.equal(sliceLines(text, 9), '');
    assert.equal(sliceLines(text, 1, 0), '');
    assert.equal(sliceLines(text, 0, 1), 'one\r\n');
  });
});
