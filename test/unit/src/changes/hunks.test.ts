/**
 * The agent's change hunk by hunk (src/changes/hunks.ts): Keep makes one hunk part of the baseline and leaves the
 * others; Undo puts back exactly one hunk's lines, also where the user edited elsewhere since; a hunk whose lines
 * (or edges) the user changed is found as such and has no Undo; line ends and a last line without one are kept.
 */
import * as assert from 'node:assert/strict';
import { hunksOf, keptBefore, undoneAfter, undoneAll, undoneNow } from '../../../../src/changes/hunks';

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');

describe('changes hunk by hunk', () => {
  const before = lines('a', 'b', 'c', 'd', 'e', 'f', 'g');
  const after = lines('a', 'B', 'c', 'd', 'e', 'F1', 'F2', 'g');

  it('finds each hunk of the agent, where it is now', () => {
    const hunks = hunksOf(before, after, after);
    assert.deepEqual(
      hunks.map((h) => [h.before, h.after, h.now]),
      [
        [
          { start: 1, count: 1 },
          { start: 1, count: 1 },
          { start: 1, count: 1 },
        ],
        [
          { start: 5, count: 1 },
          { start: 5, count: 2 },
          { start: 5, count: 2 },
        ],
      ],
    );
  });

  it('names each hunk so that it is found again after another is kept or undone (a lens clicked late)', () => {
    const keys = (b: string, a: string) => hunksOf(b, a, a).map((h) => h.key);
    const hunks = hunksOf(before, after, after);
    const [first, second] = hunks.map((h) => h.key);
    assert.notEqual(first, second);
    const kept = keptBefore(before, after, hunks[0]!);
    assert.deepEqual(keys(kept, after), [second]);
    const undone = undoneAfter(before, after, hunks[0]!);
    assert.deepEqual(keys(before, undone), [second]);
    // The same lines put back differently are another change.
    const other = lines('a', 'B', 'c', 'd', 'e', 'F1', 'F3', 'g');
    assert.notEqual(keys(before, other)[1], second);
  });

  it('Keep of one hunk moves the baseline for it only; the other stays a change', () => {
    const [first] = hunksOf(before, after, after);
    const kept = keptBefore(before, after, first!);
    assert.equal(kept, lines('a', 'B', 'c', 'd', 'e', 'f', 'g'));
    assert.equal(hunksOf(kept, after, after).length, 1);
    const [last] = hunksOf(kept, after, after);
    assert.equal(keptBefore(kept, after, last!), after, 'both kept: nothing left');
  });

  it('Undo of one hunk puts back its lines, in the file and in the agent version', () => {
    const [, second] = hunksOf(before, after, after);
    assert.equal(undoneNow(before, after, second!), lines('a', 'B', 'c', 'd', 'e', 'f', 'g'));
    assert.equal(undoneAfter(before, after, second!), lines('a', 'B', 'c', 'd', 'e', 'f', 'g'));
  });

  it('a user edit beside a hunk: the hunk is found below it, and its Undo keeps the user edit', () => {
    // The user added two lines at the top and changed "d" (between the hunks, not next to either).
    const now = lines('x', 'y', 'a', 'B', 'c', 'D', 'e', 'F1', 'F2', 'g');
    const [first, second] = hunksOf(before, after, now);
    assert.deepEqual(first!.now, { start: 3, count: 1 });
    assert.deepEqual(second!.now, { start: 7, count: 2 });
    assert.equal(undoneNow(before, now, second!), lines('x', 'y', 'a', 'B', 'c', 'D', 'e', 'f', 'g'));
    // The agent's version loses the hunk, not the user's lines: they stay the user's, not the agent's.
    assert.equal(undoneAfter(before, after, second!), lines('a', 'B', 'c', 'd', 'e', 'f', 'g'));
  });

  it('a user edit inside a hunk, or right at its edge: no Undo there', () => {
    const inside = lines('a', 'B', 'c', 'd', 'e', 'F1', 'mine', 'g');
    const [first, second] = hunksOf(before, after, inside);
    assert.ok(first!.now, 'the other hunk is untouched');
    assert.equal(second!.now, undefined);
    assert.equal(undoneNow(before, inside, second!), undefined);
    assert.deepEqual(second!.near, { start: 5, count: 2 }, 'still shown where it is');
    const edge = lines('a', 'B', 'mine', 'c', 'd', 'e', 'F1', 'F2', 'g');
    assert.equal(hunksOf(before, after, edge)[0]!.now, undefined, 'a line added right below the hunk');
  });

  it('keeps line ends as they are: CRLF, and a last line without one', () => {
    const b = 'one\r\ntwo\r\nmid\r\nthree';
    const a = 'one\r\nTWO\r\nmid\r\nthree\r\nfour';
    const hunks = hunksOf(b, a, a);
    assert.equal(hunks.length, 2);
    assert.equal(undoneNow(b, a, hunks[1]!), 'one\r\nTWO\r\nmid\r\nthree');
    assert.equal(undoneNow(b, a, hunks[0]!), 'one\r\ntwo\r\nmid\r\nthree\r\nfour');
    assert.equal(keptBefore(b, a, hunks[0]!), 'one\r\nTWO\r\nmid\r\nthree');
  });

  it('a file the agent created is one hunk; one it emptied too', () => {
    const [created] = hunksOf('', lines('new', 'file'), lines('new', 'file'));
    assert.deepEqual(
      [created!.before, created!.now],
      [
        { start: 0, count: 0 },
        { start: 0, count: 2 },
      ],
    );
    assert.equal(undoneNow('', lines('new', 'file'), created!), '');
    const [emptied] = hunksOf(before, '', '');
    assert.equal(undoneNow(before, '', emptied!), before);
  });

  it('what changed outside the turns becomes the baseline: every hunk still as the agent left it undone, the rest kept', () => {
    // Beside the hunks: the user's lines are the baseline's, the agent's hunks are not.
    const beside = lines('x', 'y', 'a', 'B', 'c', 'D', 'e', 'F1', 'F2', 'g');
    assert.equal(undoneAll(before, after, beside), lines('x', 'y', 'a', 'b', 'c', 'D', 'e', 'f', 'g'));
    // Inside a hunk: that hunk is the user's now (kept as the user has it), the other is undone.
    const inside = lines('a', 'B', 'c', 'd', 'e', 'F1', 'mine', 'g');
    assert.equal(undoneAll(before, after, inside), lines('a', 'b', 'c', 'd', 'e', 'F1', 'mine', 'g'));
    assert.equal(undoneAll(before, after, after), before, 'nothing changed outside: the baseline as it was');
    // A file the agent created that the user added to: all of it the user's.
    const made = lines('new', 'file');
    assert.equal(undoneAll('', made, `${made}mine\n`), `${made}mine\n`);
    assert.equal(undoneAll('one\r\ntwo', 'one\r\nTWO', 'zero\r\none\r\nTWO'), 'zero\r\none\r\ntwo', 'line ends kept');
  });

  it('a change too large to diff line by line is one hunk, not a long wait', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `line ${i}\n`);
    const b = many.join('');
    const a = many.map((l, i) => (i % 2 === 0 ? l.toUpperCase() : l)).join('');
    const started = Date.now();
    const hunks = hunksOf(b, a, a);
    assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms`);
    assert.ok(hunks.length >= 1);
    assert.equal(undoneNow(b, a, hunks[0]!) !== undefined, true);
  });
});
