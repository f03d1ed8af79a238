/**
 * Node host: shapes an agent can send that nothing here had tried before
 * (issue 45), one prompt each through the real extension: a turn's plan of
 * 100,000 steps, 10,000 compaction boundaries, 10,000 notices, a tool call
 * with 100,000 content items, a cycle in the subagent parents. Each is
 * bounded where it is applied, says what it left out, loses no update, and
 * the extension host keeps answering (its event loop is sampled throughout).
 */
import * as assert from '../shared/assert';
import { waitFor, type Chat } from '../shared/chatWaits';
import { longestStall } from '../../fixtures/longestStall';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

const many = (count: number, make: (i: number) => object) => Array.from({ length: count }, (_, i) => make(i));
const update = (u: object) => ({ update: u });
const of = (parent: string) => ({ _meta: { claudeCode: { parentToolUseId: parent } } });

const scenario = {
  turns: [
    {
      match: 'plan',
      steps: [
        update({
          sessionUpdate: 'plan',
          entries: many(100_000, (i) => ({ content: `Step ${i}`, priority: 'low', status: 'pending' })),
        }),
        { text: 'planned' },
      ],
    },
    {
      match: 'compactions',
      steps: [
        ...many(10_000, (i) =>
          update({ sessionUpdate: 'compaction_update', compactionId: `k${i}`, status: 'completed' }),
        ),
        { text: 'compacted' },
      ],
    },
    {
      match: 'notices',
      steps: [
        ...many(10_000, (i) => update({ sessionUpdate: 'notice', severity: 'info', title: `Notice ${i}` })),
        { text: 'noted' },
      ],
    },
    {
      match: 'items',
      steps: [
        {
          toolCall: {
            toolCallId: 'items',
            title: 'Many items',
            kind: 'read',
            status: 'completed',
            content: many(100_000, (i) => ({ type: 'content', content: { type: 'text', text: `item ${i}` } })),
            locations: many(100_000, (i) => ({ path: `/nowhere/${i}` })),
          },
        },
        { text: 'listed' },
      ],
    },
    {
      match: 'cycle',
      steps: [
        { toolCall: { toolCallId: 'B', title: 'B', kind: 'think', status: 'in_progress' } },
        { toolCall: { toolCallId: 'A', title: 'A', kind: 'read', status: 'in_progress', ...of('B') } },
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'B', title: 'B again', ...of('A') }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'A', status: 'failed', ...of('B') }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'B', status: 'completed' }),
        { text: 'cycled' },
      ],
    },
  ],
};

describe('hostile shapes an agent sends', function () {
  this.timeout(120_000);
  let chat: Chat;
  const stalls: string[] = [];

  before(async () => {
    chat = await chatWithAgents({ hostile: scenarioAgent('Hostile Shapes', scenario) }, 'hostile');
  });
  after(() => console.log(`longest extension host stalls: ${stalls.join(', ')}`));

  async function turn(prompt: string, reply: string): Promise<void> {
    const { stallMs } = await longestStall(async () => {
      await chat.composer.send(prompt);
      await waitFor(
        chat,
        `the turn "${prompt}" to end`,
        // (A turn with a plan ends with the plan's snapshot, after the reply.)
        () =>
          chat.status.turn === 'idle' && chat.thread.entries.some((e) => e.kind === 'assistant' && e.text === reply),
        60_000,
      );
    });
    stalls.push(`${prompt} ${stallMs.toFixed(0)} ms`);
  }

  it("a turn's plan of 100,000 steps: 200 kept, the last saying how many more", async () => {
    await turn('plan', 'planned');
    const snapshot = [...chat.thread.entries].reverse().find((e) => e.kind === 'plan');
    assert.ok(snapshot?.kind === 'plan');
    assert.equal(snapshot.entries.length, 200);
    assert.equal(snapshot.entries.at(-1)?.content, '99,801 more steps, not shown');
  });

  it('10,000 compaction boundaries and 10,000 notices in a row: 20 rows each, the last saying how many more', async () => {
    await turn('compactions', 'compacted');
    const boundaries = chat.thread.entries.filter((e) => e.kind === 'compaction');
    assert.equal(boundaries.length, 20);
    assert.equal(boundaries.at(-1)?.kind === 'compaction' && boundaries.at(-1)?.leftOut, 9_980);
    await turn('notices', 'noted');
    const notices = chat.thread.entries.flatMap((e) => (e.kind === 'notice' && /^Notice/.test(e.text) ? [e] : []));
    assert.equal(notices.length, 20);
    assert.equal(notices.at(-1)?.text, 'Notice 9999');
    assert.equal(notices.at(-1)?.leftOut, 9_980);
  });

  it('a tool call with 100,000 content items and locations: 200 of each', async () => {
    await turn('items', 'listed');
    const call = chat.thread.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'items');
    assert.ok(call?.kind === 'tool');
    assert.equal(call.content.length, 200);
    assert.equal(call.locations.length, 200);
  });

  it('a cycle in the subagent parents is refused where it is applied; every update is kept', async () => {
    await turn('cycle', 'cycled');
    const b = chat.thread.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'B');
    assert.ok(b?.kind === 'tool');
    assert.equal(b.title, 'B again');
    assert.equal(b.status, 'completed');
    const a = b.children?.find((c) => c.kind === 'tool' && c.toolCallId === 'A');
    assert.equal(a?.kind === 'tool' && a.status, 'failed', 'the failure the agent reported is shown');
    assert.ok(!chat.thread.entries.some((e) => e.kind === 'tool' && e.toolCallId === 'A'), 'A is not shown twice');
  });
});
