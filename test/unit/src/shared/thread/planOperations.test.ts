/**
 * Plan operations (plan_update, plan_removed: ACP's unstable schema): through a real connection to the scripted
 * agent (past the SDK's stable checks, in order), and the bounds on what a hostile agent sends.
 */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import {
  MAX_PLAN_ENTRIES,
  MAX_PLAN_MARKDOWN_CHARS,
  MAX_PLANS,
  PLAN_OPERATION_KEY,
  planOperationFromUpdate,
} from '../../../../../src/shared/thread/planOperations';
import { emptyThread, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';
import { scriptedHost, shown, type ScriptedHost } from '../../chat/scriptedHost';
import { chatStatus } from '../../../../../src/views/chatStatus';

const items = (planId: string, ...contents: string[]) => ({
  sessionUpdate: 'plan_update',
  plan: {
    type: 'items',
    planId,
    entries: contents.map((content) => ({ content, priority: 'high', status: 'pending' })),
  },
});
const removed = (planId: string) => ({ sessionUpdate: 'plan_removed', planId });

describe('plan operations', function () {
  this.timeout(10_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  it("reach the chat through the SDK's stable entry, in order: several plans by id, replaced whole, removed", async () => {
    host = scriptedHost({
      turns: [
        {
          match: 'plan it',
          steps: [
            { update: items('backend', 'Write the migration') },
            {
              update: { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'rollout', content: '# Go' } },
            },
            {
              update: {
                sessionUpdate: 'plan_update',
                plan: { type: 'file', planId: 'notes', uri: 'file:///w/PLAN.md' },
              },
            },
            { update: items('backend', 'Write the migration', 'Run it') },
            { update: removed('rollout') },
            // Hostile shapes: left out, the turn goes on.
            { update: { sessionUpdate: 'plan_update', plan: { type: 'video', planId: 'x' } } },
            { update: { sessionUpdate: 'plan_update', plan: 'nonsense' } },
            { update: removed('') },
            { text: 'Planned.' },
          ],
        },
      ],
    });
    const chat = await host.connectedChat();
    await chat.composer.send('plan it');
    assert.match(shown(chat), /Planned\./);
    assert.deepEqual(chatStatus(chat).plans, [
      {
        id: 'backend',
        type: 'items',
        entries: [
          { content: 'Write the migration', priority: 'high', status: 'pending' },
          { content: 'Run it', priority: 'high', status: 'pending' },
        ],
      },
      { id: 'notes', type: 'file', uri: 'file:///w/PLAN.md' },
    ]);
  });

  it('are bounded: plans, entries, Markdown and ids; an oldest plan gives way', () => {
    const apply = (thread: Thread, update: unknown) =>
      reduceThread(thread, {
        type: 'update',
        id: 'u',
        update: { sessionUpdate: 'session_info_update', _meta: { [PLAN_OPERATION_KEY]: update } } as SessionUpdate,
      });
    let thread = emptyThread;
    for (let i = 0; i < MAX_PLANS + 2; i++) thread = apply(thread, items(`p${i}`, 'step'));
    assert.equal(thread.plans?.length, MAX_PLANS);
    assert.equal(thread.plans?.[0]?.id, 'p2', 'the oldest went');
    const many = planOperationFromUpdate(items('many', ...Array.from({ length: 500 }, (_, i) => `s${i}`)));
    assert.equal(many?.op === 'update' && many.plan.type === 'items' && many.plan.entries.length, MAX_PLAN_ENTRIES);
    const long = planOperationFromUpdate({
      sessionUpdate: 'plan_update',
      plan: { type: 'markdown', planId: 'm', content: 'x'.repeat(MAX_PLAN_MARKDOWN_CHARS * 3) },
    });
    assert.equal(
      long?.op === 'update' && long.plan.type === 'markdown' && long.plan.markdown.length,
      MAX_PLAN_MARKDOWN_CHARS,
    );
    assert.equal(planOperationFromUpdate(items('i'.repeat(201), 'step')), undefined, 'an id over 200 characters');
    assert.equal(planOperationFromUpdate(removed('x'.repeat(201))), undefined);
    // Entries that are not entries are left out; odd words kept as given, bounded.
    const odd = planOperationFromUpdate({
      sessionUpdate: 'plan_update',
      plan: { type: 'items', planId: 'o', entries: [null, 5, { content: 'ok', status: 'y'.repeat(100) }] },
    });
    assert.deepEqual(odd?.op === 'update' && odd.plan, {
      id: 'o',
      type: 'items',
      entries: [{ content: 'ok', priority: '', status: 'y'.repeat(40) }],
    });
    // Removing a plan nobody has, or an update of no known shape, changes nothing.
    assert.equal(apply(thread, removed('none')).plans?.length, MAX_PLANS);
    assert.equal(apply(thread, { sessionUpdate: 'plan_update' }), thread);
  });
});
