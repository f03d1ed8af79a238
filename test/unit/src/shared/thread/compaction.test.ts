/**
 * Context compaction in the thread: one entry per compaction id, where its
 * first update came; later updates patch it (omitted leaves, null clears, a
 * value replaces), summary chunks append, and whatever the agent sends is
 * bounded and leaves a valid entry.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { MAX_SUMMARY_CHARS } from '../../../../../src/shared/thread/compaction';
import { emptyThread, entrySchema, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';
import { threadToMarkdown } from '../../../../../src/shared/threadMarkdown';

let n = 0;
function apply(thread: Thread, ...updates: unknown[]): Thread {
  return updates.reduce<Thread>(
    (t, update) => reduceThread(t, { type: 'update', id: `e${++n}`, update: update as SessionUpdate }),
    thread,
  );
}
const text = (t: string) => ({ type: 'text', text: t });
const compactions = (thread: Thread) => thread.entries.filter((e) => e.kind === 'compaction');

describe('thread reducer: context compaction', () => {
  it('stays where it began, and its later updates and chunks patch it in place', () => {
    let thread = apply(
      emptyThread,
      { sessionUpdate: 'agent_message_chunk', content: text('Before.') },
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
      { sessionUpdate: 'agent_message_chunk', content: text('Meanwhile.') },
    );
    thread = apply(
      thread,
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('We fixed ') },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text('the parser.') },
      { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
    );
    assert.deepEqual(
      thread.entries.map((e) => e.kind),
      ['assistant', 'compaction', 'assistant'],
    );
    assert.deepEqual(compactions(thread)[0], {
      kind: 'compaction',
      id: compactions(thread)[0]!.id,
      compactionId: 'c1',
      status: 'completed',
      summary: 'We fixed the parser.',
    });
    assert.match(
      threadToMarkdown(thread),
      /> Context compacted \(completed\)\n\n<summary>\nWe fixed the parser\.\n<\/summary>/,
    );
  });

  it('patches as the schema says: omitted leaves, null clears, a value replaces (an empty list clears)', () => {
    let thread = apply(emptyThread, {
      sessionUpdate: 'compaction_update',
      compactionId: 'c',
      status: 'failed',
      summary: [text('Old summary.')],
      error: 'too long',
    });
    assert.equal(compactions(thread)[0]!.summary, 'Old summary.');
    assert.equal(compactions(thread)[0]!.error, 'too long');
    thread = apply(thread, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'in_progress' });
    assert.equal(compactions(thread)[0]!.summary, 'Old summary.', 'omitted: left');
    assert.equal(compactions(thread)[0]!.error, 'too long', 'omitted: left');
    thread = apply(thread, {
      sessionUpdate: 'compaction_update',
      compactionId: 'c',
      status: 'completed',
      summary: [text('New.')],
      error: null,
    });
    assert.equal(compactions(thread)[0]!.summary, 'New.');
    assert.equal('error' in compactions(thread)[0]!, false, 'null: cleared');
    thread = apply(thread, { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: [] });
    assert.equal(compactions(thread)[0]!.summary, '');
    thread = apply(thread, {
      sessionUpdate: 'compaction_update',
      compactionId: 'c',
      status: 'completed',
      summary: null,
    });
    assert.equal(compactions(thread)[0]!.summary, '');
    assert.equal(compactions(thread).length, 1);
  });

  it('a first chunk of an unknown id starts a compaction in progress; ids keep compactions apart', () => {
    const thread = apply(
      emptyThread,
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'a', content: text('A') },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'b', content: text('B') },
      { sessionUpdate: 'compaction_summary_chunk', compactionId: 'a', content: text('A2') },
    );
    assert.deepEqual(
      compactions(thread).map((c) => [c.compactionId, c.status, c.summary]),
      [
        ['a', 'in_progress', 'AA2'],
        ['b', 'in_progress', 'B'],
      ],
    );
  });

  it('hostile updates: no id, a huge id or status, a flood of summary: bounded, and every entry stays valid', () => {
    const huge = 'x'.repeat(MAX_SUMMARY_CHARS);
    let thread = apply(
      emptyThread,
      { sessionUpdate: 'compaction_update', status: 'completed' },
      { sessionUpdate: 'compaction_update', compactionId: '', status: 'completed' },
      { sessionUpdate: 'compaction_update', compactionId: 'i'.repeat(201), status: 'completed' },
      { sessionUpdate: 'compaction_update', compactionId: 'c', status: `\u202e${'s'.repeat(500)}\n` },
      { sessionUpdate: 'compaction_update', compactionId: 'd', status: 7 },
    );
    for (let i = 0; i < 4; i++) {
      thread = apply(thread, { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text(huge) });
    }
    assert.deepEqual(
      compactions(thread).map((c) => c.compactionId),
      ['c', 'd'],
    );
    const [c, d] = compactions(thread);
    assert.ok(c!.status.length <= 41 && !c!.status.includes('\u202e') && !c!.status.includes('\n'), c!.status);
    assert.ok(c!.summary.length < MAX_SUMMARY_CHARS + 100, `${c!.summary.length}`);
    assert.equal(d!.status, 'in_progress', 'a status that is no string reads as in progress');
    for (const entry of thread.entries) assert.ok(entrySchema.safeParse(entry).success);
  });
});
