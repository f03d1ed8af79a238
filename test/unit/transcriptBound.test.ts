import * as assert from 'node:assert/strict';
import { emptyThread, type Entry, type Thread } from '../../src/shared/thread';
import { MOVED_NOTICE_ID, splitOldest, transcriptSize } from '../../src/shared/transcriptBound';

const thread = (sizes: number[]): Thread => ({
  ...emptyThread,
  entries: sizes.map((size, i): Entry => ({ kind: 'assistant', id: `a${i}`, text: 'x'.repeat(size) })),
});

describe('the bound on a transcript', () => {
  it('leaves a transcript within the bound alone', () => {
    assert.equal(splitOldest(thread([10, 10, 10]), { entries: 0, chars: 0 }, 30, 20), undefined);
  });

  it('past the bound, moves the oldest entries out until the target remains, with a notice in their place', () => {
    const split = splitOldest(thread([10, 10, 10, 10]), { entries: 0, chars: 0 }, 30, 20);
    assert.deepEqual(split?.removed.map((e) => e.id), ['a0', 'a1']);
    assert.deepEqual(split?.thread.entries.map((e) => e.id), [MOVED_NOTICE_ID, 'a2', 'a3']);
    assert.deepEqual(split?.moved, { entries: 2, chars: 20 });
  });

  it('counts what was moved across trims, replaces its notice and never moves the notice itself', () => {
    const first = splitOldest(thread([10, 10, 10, 10]), { entries: 0, chars: 0 }, 30, 20)!;
    const grown: Thread = { ...first.thread, entries: [...first.thread.entries, { kind: 'assistant', id: 'a4', text: 'y'.repeat(15) }] };
    const second = splitOldest(grown, first.moved, 30, 20)!;
    assert.deepEqual(second.removed.map((e) => e.id), ['a2', 'a3']);
    assert.deepEqual(second.thread.entries.map((e) => e.id), [MOVED_NOTICE_ID, 'a4']);
    assert.deepEqual(second.moved, { entries: 4, chars: 40 });
    const notice = second.thread.entries[0];
    assert.match(notice?.kind === 'notice' ? notice.text : '', /^The 4 oldest entries of this chat \(0\.0 MiB\) were moved out of memory/);
  });

  it('keeps the newest entry whole, however large', () => {
    const split = splitOldest(thread([5, 100]), { entries: 0, chars: 0 }, 30, 20);
    assert.deepEqual(split?.thread.entries.map((e) => e.id), [MOVED_NOTICE_ID, 'a1']);
    assert.equal(transcriptSize(split!.thread) > 100, true);
  });
});
