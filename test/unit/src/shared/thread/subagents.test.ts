/**
 * Subagents in the thread (Claude Code's Task and Agent tools): what a
 * subagent does goes inside the tool call that started it, whatever order and
 * shape its updates come in; the main agent's entries are left as they are.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { MAX_CHILDREN, MAX_CHILDREN_CHARS } from '../../../../../src/shared/thread/subagents';
import { emptyThread, entrySchema, type Thread, type ToolEntry } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';
import { threadToMarkdown } from '../../../../../src/shared/threadMarkdown';

let n = 0;
function apply(thread: Thread, ...updates: unknown[]): Thread {
  return updates.reduce<Thread>(
    (t, update) => reduceThread(t, { type: 'update', id: `e${++n}`, update: update as SessionUpdate }),
    thread,
  );
}
const of = (parent: string) => ({ _meta: { claudeCode: { parentToolUseId: parent } } });
const task = {
  sessionUpdate: 'tool_call',
  toolCallId: 'task-1',
  title: 'Explore the parser',
  kind: 'think',
  status: 'in_progress',
};
const running = reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'go' });
const tools = (thread: Thread) => thread.entries.filter((e): e is ToolEntry => e.kind === 'tool');
const shape = (thread: Thread) =>
  tools(thread).map((t) => [
    t.toolCallId,
    t.status,
    (t.children ?? []).map((c) => (c.kind === 'tool' ? `${c.toolCallId}:${c.status}` : `${c.kind}:${c.text}`)),
  ]);

describe('thread reducer: subagents', () => {
  it("puts a subagent's tool calls and text under the call that started it, in order", () => {
    const thread = apply(
      running,
      task,
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'read-1',
        title: 'Read parser.ts',
        kind: 'read',
        status: 'in_progress',
        ...of('task-1'),
      },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Looking ' }, ...of('task-1') },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'closer.' }, ...of('task-1') },
      { sessionUpdate: 'tool_call_update', toolCallId: 'read-1', status: 'completed' },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Found it.' }, ...of('task-1') },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'The main answer.' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 'task-1', status: 'completed' },
    );
    assert.deepEqual(
      thread.entries.map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    assert.deepEqual(shape(thread), [
      ['task-1', 'completed', ['read-1:completed', 'thought:Looking closer.', 'assistant:Found it.']],
    ]);
    assert.match(
      threadToMarkdown(thread),
      /> \*\*Subagent's tool call: Read parser\.ts\*\* \(read, completed\)\n> Looking closer\./,
    );
    for (const entry of thread.entries) assert.ok(entrySchema.safeParse(entry).success, JSON.stringify(entry));
  });

  it("a call shown before the agent said whose it is moves under its parent; a subagent's own subagent joins the first", () => {
    const thread = apply(
      running,
      task,
      { sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit', kind: 'edit', status: 'pending' },
      { sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'in_progress', ...of('task-1') },
      { sessionUpdate: 'tool_call', toolCallId: 'task-2', title: 'Inner task', kind: 'think', ...of('task-1') },
      { sessionUpdate: 'tool_call', toolCallId: 'grep-1', title: 'Grep', kind: 'search', ...of('task-2') },
    );
    assert.deepEqual(shape(thread), [
      ['task-1', 'in_progress', ['edit-1:in_progress', 'task-2:pending', 'grep-1:pending']],
    ]);
  });

  it('an unknown parent, or a call naming itself, stays at the top level', () => {
    const thread = apply(
      running,
      { sessionUpdate: 'tool_call', toolCallId: 'x', title: 'X', ...of('no-such-call') },
      { sessionUpdate: 'tool_call', toolCallId: 'self', title: 'Self', ...of('self') },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' }, ...of('no-such-call') },
    );
    assert.deepEqual(
      thread.entries.map((e) => e.kind),
      ['user', 'tool', 'tool', 'assistant'],
    );
  });

  it('a cycle in the parents the agent gives (A under B, then B under A, or a child naming itself) is refused; every update is kept', () => {
    const call = (id: string, extra: object = {}) => ({
      sessionUpdate: 'tool_call',
      toolCallId: id,
      title: id,
      status: 'in_progress',
      ...extra,
    });
    const update = (id: string, status: string, extra: object = {}) => ({
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      status,
      ...extra,
    });
    const thread = apply(
      running,
      call('B'),
      call('A', of('B')),
      // B's parent is A, which is under B: refused, B stays where it is and takes the update.
      update('B', 'in_progress', { title: 'B again', ...of('A') }),
      update('A', 'failed', of('B')),
      // A child that names itself: patched where it is, not shown twice.
      update('A', 'failed', { title: 'A failed', ...of('A') }),
      call('C', of('A')),
      update('C', 'completed', of('C')),
    );
    assert.deepEqual(shape(thread), [['B', 'in_progress', ['A:failed', 'C:completed']]]);
    assert.equal(tools(thread)[0]!.title, 'B again');
    const child = tools(thread)[0]!.children?.find((c) => c.kind === 'tool' && c.toolCallId === 'A');
    assert.equal(child?.kind === 'tool' && child.title, 'A failed');
  });

  it('keeps what the children hold within a size: large diffs and long text push the oldest out, the newest stays', () => {
    let thread = apply(running, task);
    const big = 'x'.repeat(600_000);
    for (let i = 0; i < 6; i++) {
      thread = apply(thread, {
        sessionUpdate: 'tool_call',
        toolCallId: `edit-${i}`,
        title: `Edit ${i}`,
        kind: 'edit',
        content: [{ type: 'diff', path: `/w/f${i}.ts`, oldText: null, newText: big }],
        ...of('task-1'),
      });
    }
    const parent = tools(thread)[0]!;
    const held = (parent.children ?? []).reduce(
      (sum, c) =>
        sum + (c.kind === 'tool' ? c.content.reduce((n, x) => n + (x.type === 'diff' ? x.newText.length : 0), 0) : 0),
      0,
    );
    assert.ok(held <= MAX_CHILDREN_CHARS, `${held}`);
    assert.deepEqual(
      parent.children?.map((c) => (c.kind === 'tool' ? c.toolCallId : c.kind)),
      ['edit-3', 'edit-4', 'edit-5'],
    );
    assert.equal(parent.childrenCut, 3);
  });

  it('keeps the newest children within the bound and counts the rest; a turn that ends cancels unfinished children', () => {
    let thread = apply(running, task);
    for (let i = 0; i < MAX_CHILDREN + 20; i++) {
      thread = apply(thread, {
        sessionUpdate: 'tool_call',
        toolCallId: `c${i}`,
        title: `Step ${i}`,
        status: 'in_progress',
        ...of('task-1'),
      });
    }
    const parent = tools(thread)[0]!;
    assert.equal(parent.children?.length, MAX_CHILDREN);
    assert.equal(parent.childrenCut, 20);
    assert.equal(parent.children?.[0]?.kind === 'tool' && parent.children[0].toolCallId, 'c20');
    const ended = reduceThread(thread, { type: 'turnEnded', id: 'end', stopReason: 'cancelled' });
    const settled = tools(ended)[0]!;
    assert.equal(settled.status, 'cancelled');
    assert.ok(settled.children?.every((c) => c.kind === 'tool' && c.status === 'cancelled'));
  });
});
