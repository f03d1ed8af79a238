import * as assert from 'node:assert/strict';
import {
  applyEntriesPatch,
  diffEntries,
  FLUSH_INTERVAL_MS,
  nextFlushAt,
} from '../../../../../src/shared/page/entryPatches';
import { hostMessageSchema } from '../../../../../src/shared/page/protocol';
import { emptyThread, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';

const chunk = (id: string, text: string) => ({
  type: 'update' as const,
  id,
  update: { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text } },
});

describe('entry patches', () => {
  it('sends a streamed chunk as an append of only the new text', () => {
    const a = reduceThread(reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' }), chunk('m', 'Hello'));
    const b = reduceThread(a, chunk('n', ', world'));
    const patch = diffEntries(a.entries, b.entries);
    assert.deepEqual(patch, { length: 2, ops: [{ op: 'append', index: 1, text: ', world' }] });
  });

  it('an append spanning many chunks carries exactly the text added since the last post, in order', () => {
    let thread = reduceThread(reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' }), chunk('m', 'start'));
    let sent = thread.entries;
    let view = applyEntriesPatch([], diffEntries([], sent)!);
    for (let post = 0; post < 20; post++) {
      for (let i = 0; i < 7; i++) thread = reduceThread(thread, chunk(`c${post}-${i}`, ` ${post}.${i}`));
      const patch = diffEntries(sent, thread.entries)!;
      assert.equal(patch.ops.length, 1);
      assert.equal(patch.ops[0].op, 'append');
      view = applyEntriesPatch(view, patch);
      sent = thread.entries;
    }
    assert.deepEqual(view, thread.entries);
  });

  it('an entry that did not grow from what was sent by appends is still patched right', () => {
    const a = reduceThread(reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' }), chunk('m', 'Hello'));
    // The same entry rebuilt elsewhere (no recorded growth): the tail is sliced off instead.
    const rebuilt = [a.entries[0], { ...a.entries[1], text: 'Hello there' }];
    assert.deepEqual(diffEntries(a.entries, rebuilt), { length: 2, ops: [{ op: 'append', index: 1, text: ' there' }] });
  });

  it('sends nothing when nothing changed', () => {
    const a = reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' });
    assert.equal(diffEntries(a.entries, a.entries), undefined);
  });

  it('rebuilds the same entries on the view side, through the wire schema', () => {
    let thread: Thread = emptyThread;
    let view: ReturnType<typeof applyEntriesPatch> = [];
    const actions = [
      { type: 'prompt' as const, id: 'p', text: 'q' },
      chunk('a', 'one '),
      chunk('b', 'two'),
      {
        type: 'update' as const,
        id: 't',
        update: { sessionUpdate: 'tool_call' as const, toolCallId: 'x', title: 'Run', status: 'pending' as const },
      },
      {
        type: 'update' as const,
        id: 'u',
        update: { sessionUpdate: 'tool_call_update' as const, toolCallId: 'x', status: 'completed' as const },
      },
      chunk('c', 'three'),
      { type: 'turnEnded' as const, id: 'z', stopReason: 'cancelled' as const },
    ];
    for (const action of actions) {
      const next = reduceThread(thread, action);
      const patch = diffEntries(thread.entries, next.entries);
      if (patch) {
        const wire = hostMessageSchema.parse(JSON.parse(JSON.stringify({ type: 'entries', ...patch })));
        assert.equal(wire.type, 'entries');
        if (wire.type === 'entries') view = applyEntriesPatch(view, wire);
      }
      thread = next;
    }
    assert.deepEqual(view, thread.entries);
  });

  it('gives the view at most the limit of a message, and its whole length once it is longer', () => {
    const limit = 100;
    let thread = reduceThread(
      reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' }),
      chunk('m', 'x'.repeat(60)),
    );
    let sent = thread.entries;
    let view = applyEntriesPatch([], diffEntries([], sent, limit)!);
    const post = (text: string) => {
      thread = reduceThread(thread, chunk(`c${text.length}`, text));
      const patch = hostMessageSchema.parse(
        JSON.parse(JSON.stringify({ type: 'entries', ...diffEntries(sent, thread.entries, limit)! })),
      );
      sent = thread.entries;
      if (patch.type === 'entries') view = applyEntriesPatch(view, patch);
      return patch;
    };
    post('y'.repeat(30));
    assert.deepEqual(view[1], { kind: 'assistant', id: 'm', text: 'x'.repeat(60) + 'y'.repeat(30) });
    // Crossing the limit: the part that fits, and the whole length.
    post('z'.repeat(8 * 1024 * 1024));
    assert.deepEqual(view[1], {
      kind: 'assistant',
      id: 'm',
      text: 'x'.repeat(60) + 'y'.repeat(30) + 'z'.repeat(10),
      fullLength: 90 + 8 * 1024 * 1024,
    });
    // Past it, only the length travels.
    const patch = post('w'.repeat(1000));
    assert.deepEqual(patch.type === 'entries' && patch.ops, [
      { op: 'append', index: 1, text: '', fullLength: 91 + 8 * 1024 * 1024 + 999 },
    ]);
    assert.equal((view[1] as { text: string }).text.length, limit);
    // A view that starts over (hidden and shown) gets the same.
    assert.deepEqual(applyEntriesPatch([], diffEntries([], thread.entries, limit)!)[1], view[1]);
    // The model keeps it all.
    assert.equal((thread.entries[1] as { text: string }).text.length, 90 + 8 * 1024 * 1024 + 1000);
  });

  it('never cuts a surrogate pair in half', () => {
    const a = reduceThread(reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' }), chunk('m', 'ab😀cd'));
    const [, shown] = applyEntriesPatch([], diffEntries([], a.entries, 3)!);
    assert.deepEqual(shown, { kind: 'assistant', id: 'm', text: 'ab', fullLength: 6 });
  });

  it('truncates when the thread was cleared', () => {
    const a = reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'q' });
    const patch = diffEntries(a.entries, []);
    assert.deepEqual(patch, { length: 0, ops: [] });
    assert.deepEqual(applyEntriesPatch(a.entries, patch!), []);
  });

  it('posts the first change after a pause at once, then at most once an interval', () => {
    assert.equal(nextFlushAt(1000, -Infinity), 1000, 'nothing posted yet');
    assert.equal(nextFlushAt(1000, 1000 - FLUSH_INTERVAL_MS - 5), 1000, 'nothing posted for more than an interval');
    assert.equal(
      nextFlushAt(1003, 1000),
      1000 + FLUSH_INTERVAL_MS,
      'posted 3 ms ago: waits for the rest of the interval',
    );
    assert.equal(nextFlushAt(1000 + FLUSH_INTERVAL_MS, 1000), 1000 + FLUSH_INTERVAL_MS);
  });
});
