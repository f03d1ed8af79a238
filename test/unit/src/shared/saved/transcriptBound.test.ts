import * as assert from 'node:assert/strict';
import { emptyThread, type Entry, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';
import { MAX_ENTRY_CHARS } from '../../../../../src/shared/thread/messageEntries';
import {
  MAX_TRANSCRIPT_CHARS,
  MOVED_NOTICE_ID,
  splitOldest,
  transcriptSize,
} from '../../../../../src/shared/saved/transcriptBound';

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
    assert.deepEqual(
      split?.removed.map((e) => e.id),
      ['a0', 'a1'],
    );
    assert.deepEqual(
      split?.thread.entries.map((e) => e.id),
      [MOVED_NOTICE_ID, 'a2', 'a3'],
    );
    assert.deepEqual(split?.moved, { entries: 2, chars: 20 });
  });

  it('counts what was moved across trims, replaces its notice and never moves the notice itself', () => {
    const first = splitOldest(thread([10, 10, 10, 10]), { entries: 0, chars: 0 }, 30, 20)!;
    const grown: Thread = {
      ...first.thread,
      entries: [...first.thread.entries, { kind: 'assistant', id: 'a4', text: 'y'.repeat(15) }],
    };
    const second = splitOldest(grown, first.moved, 30, 20)!;
    assert.deepEqual(
      second.removed.map((e) => e.id),
      ['a2', 'a3'],
    );
    assert.deepEqual(
      second.thread.entries.map((e) => e.id),
      [MOVED_NOTICE_ID, 'a4'],
    );
    assert.deepEqual(second.moved, { entries: 4, chars: 40 });
    const notice = second.thread.entries[0];
    assert.match(
      notice?.kind === 'notice' ? notice.text : '',
      /^The 4 oldest entries of this chat \(0\.0 MiB\) were moved out of memory/,
    );
  });

  it('keeps the newest entry whole, however large', () => {
    const split = splitOldest(thread([5, 100]), { entries: 0, chars: 0 }, 30, 20);
    assert.deepEqual(
      split?.thread.entries.map((e) => e.id),
      [MOVED_NOTICE_ID, 'a1'],
    );
    assert.equal(transcriptSize(split!.thread) > 100, true);
  });

  it('bounds one message that never ends: past MAX_ENTRY_CHARS it continues in a new entry, which the bound can move out', () => {
    const MiB = 1024 * 1024;
    let t: Thread = reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'go' });
    let moved = { entries: 0, chars: 0 };
    let largest = 0;
    const piece = 'z'.repeat(4 * MiB);
    // 96 MiB of one message, in 4 MiB chunks, trimmed as the archive does.
    for (let i = 0; i < 24; i++) {
      t = reduceThread(t, {
        type: 'update',
        id: `c${i}`,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: piece } },
      });
      const split = splitOldest(t, moved);
      if (split) ({ thread: t, moved } = split);
      largest = Math.max(largest, transcriptSize(t));
    }
    const answers = t.entries.filter((e) => e.kind === 'assistant');
    assert.ok(
      answers.every((e) => e.kind === 'assistant' && e.text.length <= MAX_ENTRY_CHARS),
      'no entry grows past the limit',
    );
    assert.ok(largest <= MAX_TRANSCRIPT_CHARS + 4 * MiB + 1024, `kept at most the bound and a chunk (${largest})`);
    assert.equal(
      moved.chars + answers.reduce((n, e) => n + (e.kind === 'assistant' ? e.text.length : 0), 0),
      96 * MiB + 2,
      'every character is kept or moved out',
    );
  });
});
