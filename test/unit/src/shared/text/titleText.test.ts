import * as assert from 'node:assert/strict';
import { MAX_TITLE_CHARS, titleText } from '../../../../../src/shared/text/titleText';
import { emptyThread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';

describe('titles from an agent', () => {
  it('lose what would make them read differently than they are: bidi overrides, controls, zero-width characters', () => {
    // "Fix the \u202Etxt.exe\u202C bug" shows as "Fix the exe.txt bug" in a bidi-aware renderer.
    assert.equal(titleText('Fix the \u202etxt.exe\u202c bug'), 'Fix the txt.exe bug');
    assert.equal(titleText('a\u0000b\u0007c\u200bd\u2066e\u2069f\ufeffg'), 'abcdefg');
    assert.equal(titleText('  two\n\nlines\tand   spaces  '), 'two lines and spaces');
    assert.equal(titleText('lone \ud800 surrogate'), 'lone surrogate');
    assert.equal(titleText('emoji 😀 stays'), 'emoji 😀 stays');
  });

  it('are cut with an ellipsis, never inside a character', () => {
    const long = 'x'.repeat(MAX_TITLE_CHARS - 2) + '😀😀';
    const cut = titleText(long);
    assert.ok(cut.length <= MAX_TITLE_CHARS, String(cut.length));
    assert.ok(cut.endsWith('…'));
    assert.ok(!/[\ud800-\udbff]…$/.test(cut), 'no half surrogate pair');
    assert.equal(titleText('y'.repeat(10_000_000)).length, MAX_TITLE_CHARS);
  });

  it('reach the thread cleaned (session_info_update)', () => {
    const thread = reduceThread(emptyThread, {
      type: 'update',
      id: 'u',
      update: { sessionUpdate: 'session_info_update', title: 'Refactor\u202e the parser\n' },
    });
    assert.equal(thread.title, 'Refactor the parser');
  });
});
