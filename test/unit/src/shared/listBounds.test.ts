/**
 * Every list an agent can grow is bounded where it is applied, and says what
 * it left out (issue 45): a turn's plan, a tool call's content and locations,
 * a run of compaction boundaries or notices. Each of these, sent as the agent
 * sent it, went whole into the page and stalled the workbench.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { MAX_RUN } from '../../../../src/shared/thread/entryRuns';
import { LEFT_OUT_STATUS, MAX_PLAN_ENTRIES } from '../../../../src/shared/thread/planOperations';
import { emptyThread, type Thread } from '../../../../src/shared/thread/thread';
import { threadToMarkdown } from '../../../../src/shared/threadMarkdown';
import { reduceThread, type ThreadAction } from '../../../../src/shared/thread/threadReducer';
import { MAX_TOOL_ITEMS } from '../../../../src/shared/thread/toolCalls';
import { bounded } from '../../../../src/connection/wire/wireBounds';

let n = 0;
const update = (u: object): ThreadAction => ({ type: 'update', id: `u${++n}`, update: u as SessionUpdate });
const running = reduceThread(emptyThread, { type: 'prompt', id: 'p', text: 'go' });
const play = (thread: Thread, actions: ThreadAction[]) => actions.reduce(reduceThread, thread);

describe('lists an agent can grow', () => {
  it("a turn's plan of 100,000 steps keeps MAX_PLAN_ENTRIES, the last saying how many more", () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      content: `Step ${i}`,
      priority: 'low',
      status: 'pending',
    }));
    const thread = play(running, [update({ sessionUpdate: 'plan', entries })]);
    assert.equal(thread.plan.length, MAX_PLAN_ENTRIES);
    assert.deepEqual(thread.plan.at(-1), {
      content: `${(100_000 - MAX_PLAN_ENTRIES + 1).toLocaleString('en-US')} more steps, not shown`,
      priority: '',
      status: LEFT_OUT_STATUS,
    });
    const ended = reduceThread(thread, { type: 'turnEnded', id: 'end', stopReason: 'end_turn' });
    const snapshot = ended.entries.find((e) => e.kind === 'plan');
    assert.equal(snapshot?.kind === 'plan' && snapshot.entries.length, MAX_PLAN_ENTRIES);
    // A plan within the bound is kept as it came.
    const small = play(running, [update({ sessionUpdate: 'plan', entries: entries.slice(0, MAX_PLAN_ENTRIES) })]);
    assert.equal(small.plan.at(-1)?.content, `Step ${MAX_PLAN_ENTRIES - 1}`);
  });

  it('lists are cut before the SDK reads them, and the thread still says how many the agent sent', () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({
      content: `Step ${i}`,
      priority: 'low',
      status: 'pending',
    }));
    const wire = (params: object) => bounded({ jsonrpc: '2.0', method: 'session/update', params } as never) as never;
    const plan = wire({ sessionId: 's', update: { sessionUpdate: 'plan', entries } }) as { params: { update: object } };
    assert.equal((plan.params.update as { entries: unknown[] }).entries.length, MAX_PLAN_ENTRIES);
    const thread = play(running, [update(plan.params.update)]);
    assert.equal(thread.plan.length, MAX_PLAN_ENTRIES);
    assert.equal(thread.plan.at(-1)?.content, '99,801 more steps, not shown');
    const content = Array.from({ length: 5_000 }, () => ({ type: 'content', content: { type: 'text', text: 'x' } }));
    const call = wire({
      sessionId: 's',
      update: { sessionUpdate: 'tool_call', toolCallId: 'c', title: 't', content, _meta: { keep: 1 } },
    }) as {
      params: { update: { content: unknown[]; _meta: Record<string, unknown> } };
    };
    assert.equal(call.params.update.content.length, MAX_TOOL_ITEMS);
    assert.equal(call.params.update._meta.keep, 1, "the agent's own _meta is kept");
    const tool = play(running, [update(call.params.update)]).entries.find((e) => e.kind === 'tool');
    const last = tool?.kind === 'tool' ? tool.content.at(-1) : undefined;
    assert.equal(
      last?.type === 'content' && last.block.type === 'text' && last.block.text,
      '4,801 more items of this tool call, not shown.',
    );
    const asked = bounded({
      jsonrpc: '2.0',
      id: 1,
      method: 'session/request_permission',
      params: { sessionId: 's', toolCall: { toolCallId: 'c', content }, options: [] },
    } as never) as unknown as {
      params: { toolCall: { content: unknown[] } };
    };
    assert.equal(asked.params.toolCall.content.length, MAX_TOOL_ITEMS, 'a permission request too');
    const small = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's', update: { sessionUpdate: 'plan', entries: [] } },
    };
    assert.equal(bounded(small as never), small, 'the same message when nothing is cut');
  });

  it("a tool call's 100,000 content items and locations are bounded, the last item saying how many more", () => {
    const content = Array.from({ length: 100_000 }, (_, i) => ({
      type: 'content',
      content: { type: 'text', text: `${i}` },
    }));
    const locations = Array.from({ length: 100_000 }, (_, i) => ({ path: `/w/${'d/'.repeat(5_000)}${i}` }));
    const thread = play(running, [
      update({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Many', content, locations }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'c', content, status: 'completed' }),
    ]);
    const tool = thread.entries.find((e) => e.kind === 'tool');
    assert.ok(tool?.kind === 'tool');
    assert.equal(tool.content.length, MAX_TOOL_ITEMS);
    const last = tool.content.at(-1);
    assert.equal(
      last?.type === 'content' && last.block.type === 'text' && last.block.text,
      `${(100_000 - MAX_TOOL_ITEMS + 1).toLocaleString('en-US')} more items of this tool call, not shown.`,
    );
    assert.equal(tool.locations.length, MAX_TOOL_ITEMS);
    assert.ok(tool.locations.every((l) => l.path.length <= 4096));
    // Terminals named only in `_meta`, a new one at each update: no more items past the bound either.
    let t = thread;
    for (let i = 0; i < 500; i++) {
      t = reduceThread(
        t,
        update({
          sessionUpdate: 'tool_call_update',
          toolCallId: 'c',
          _meta: { terminal_info: { terminal_id: `x${i}` } },
        }),
      );
    }
    const after = t.entries.find((e) => e.kind === 'tool');
    assert.ok(after?.kind === 'tool' && after.content.length <= MAX_TOOL_ITEMS);
  });

  it('10,000 compaction boundaries in a row: the first MAX_RUN - 1, then the newest saying how many are not shown', () => {
    const actions: ThreadAction[] = [];
    for (let i = 0; i < 10_000; i++) {
      actions.push(update({ sessionUpdate: 'compaction_update', compactionId: `k${i}`, status: 'in_progress' }));
      actions.push(update({ sessionUpdate: 'compaction_update', compactionId: `k${i}`, status: 'completed' }));
    }
    const thread = play(running, actions);
    const boundaries = thread.entries.filter((e) => e.kind === 'compaction');
    assert.equal(boundaries.length, MAX_RUN);
    const last = boundaries.at(-1);
    assert.equal(last?.kind === 'compaction' && last.compactionId, 'k9999');
    assert.equal(last?.kind === 'compaction' && last.leftOut, 10_000 - MAX_RUN);
    assert.match(
      threadToMarkdown(thread),
      new RegExp(`\\(${10_000 - MAX_RUN} more in a row before this one, not shown\\)`),
    );
    // Something said between them starts a new run.
    const next = play(thread, [
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hi' } }),
      update({ sessionUpdate: 'compaction_update', compactionId: 'again', status: 'completed' }),
    ]);
    assert.equal(next.entries.at(-1)?.kind === 'compaction' && next.entries.at(-1)?.id !== last?.id, true);
  });

  it("10,000 of the agent's notices, and of ours, in a row are bounded the same way", () => {
    const actions: ThreadAction[] = [];
    for (let i = 0; i < 5_000; i++) {
      actions.push(update({ sessionUpdate: 'notice', severity: 'info', title: `Agent notice ${i}` }));
      actions.push({ type: 'notice', id: `n${i}`, level: 'warning', text: `Stray line ${i}` });
    }
    const thread = play(running, actions);
    const notices = thread.entries.filter((e) => e.kind === 'notice');
    assert.equal(notices.length, MAX_RUN);
    assert.equal(notices.at(-1)?.kind === 'notice' && notices.at(-1)?.text, 'Stray line 4999');
    assert.equal(notices.at(-1)?.kind === 'notice' && notices.at(-1)?.leftOut, 10_000 - MAX_RUN);
    assert.equal(notices[0]?.kind === 'notice' && notices[0].text, 'Agent notice 0');
  });

  it('a compaction left in progress when the turn ends is settled: no spinner turns in an idle chat', () => {
    const thread = play(running, [
      update({ sessionUpdate: 'compaction_update', compactionId: 'k', status: 'in_progress' }),
      { type: 'turnEnded', id: 'end', stopReason: 'end_turn' },
    ]);
    const boundary = thread.entries.find((e) => e.kind === 'compaction');
    assert.equal(boundary?.kind === 'compaction' && boundary.status, 'cancelled');
  });
});
