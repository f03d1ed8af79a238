/**
 * Redaction holds across any order of updates: a secret streamed in
 * fragments, with updates of every kind (and terminal output, notices) put
 * between the fragments at random, is never in the transcript, on the way or
 * at the end, nor in its Markdown; and where nothing between the fragments
 * ends the message, the message reads as if the secret came in one piece.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { REDACTED, Redactor } from '../../../../src/secrets/redactor';
import { TranscriptRedaction } from '../../../../src/secrets/transcriptRedaction';
import { emptyThread, type Thread } from '../../../../src/shared/thread/thread';
import { threadToMarkdown } from '../../../../src/shared/threadMarkdown';
import { reduceThread, type ThreadAction } from '../../../../src/shared/thread/threadReducer';
import type { UpdateKind } from '../../../../src/shared/updateKinds';

const SECRET = 'sk-SECRET-VALUE-"q\\-123';
const text = (t: string) => ({ type: 'text' as const, text: t });

/** One update of each kind, none holding the secret; a kind added to the SDK's union fails to compile until it has one. */
const SAMPLES = {
  user_message_chunk: { sessionUpdate: 'user_message_chunk', content: text('a replayed prompt') },
  agent_message_chunk: { sessionUpdate: 'agent_message_chunk', content: text('other words'), messageId: 'm2' },
  agent_thought_chunk: { sessionUpdate: 'agent_thought_chunk', content: text('thinking') },
  tool_call: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Read file', kind: 'read', status: 'pending' },
  tool_call_update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' },
  plan: { sessionUpdate: 'plan', entries: [{ content: 'Step', priority: 'low', status: 'pending' }] },
  notice: { sessionUpdate: 'notice', severity: 'info', title: 'Heads up' },
  compaction_update: { sessionUpdate: 'compaction_update', compactionId: 'k1', status: 'in_progress' },
  compaction_summary_chunk: { sessionUpdate: 'compaction_summary_chunk', compactionId: 'k1', content: text('sum') },
  available_commands_update: {
    sessionUpdate: 'available_commands_update',
    availableCommands: [{ name: 'x', description: 'y' }],
  },
  current_mode_update: { sessionUpdate: 'current_mode_update', currentModeId: 'ask' },
  config_option_update: { sessionUpdate: 'config_option_update', configOptions: [] },
  session_info_update: { sessionUpdate: 'session_info_update', title: 'A title' },
  usage_update: { sessionUpdate: 'usage_update', used: 10, size: 100 },
} as const satisfies Record<UpdateKind, unknown>;

/** The kinds that put an entry of their own in the transcript: after one, the message goes on in a new entry. */
const ENDS_MESSAGE = new Set<string>([
  'user_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
]);

interface Other {
  readonly action: (id: string) => ThreadAction;
  readonly endsMessage: boolean;
}

/** What else reaches a chat's transcript between two chunks of a message: every other update kind, terminals, notices. */
const OTHERS: readonly Other[] = [
  ...Object.values(SAMPLES)
    .filter((update) => update.sessionUpdate !== 'agent_message_chunk')
    .map((update) => ({
      action: (id: string): ThreadAction => ({ type: 'update', id, update: update as SessionUpdate }),
      endsMessage: ENDS_MESSAGE.has(update.sessionUpdate),
    })),
  { action: (id) => ({ type: 'terminal', id, terminalId: 'other', data: 'building sk-\n' }), endsMessage: false },
  {
    action: (id) => ({ type: 'terminal', id, terminalId: 'other', exit: { exitCode: 0, signal: null } }),
    endsMessage: false,
  },
  { action: (id) => ({ type: 'notice', id, level: 'info', text: 'a notice' }), endsMessage: true },
];

/** A small seeded generator (mulberry32): a failing seed is printed and plays again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `whole` cut at 1 to 3 random places. */
function fragments(whole: string, next: () => number): string[] {
  const cuts = [
    ...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => 1 + Math.floor(next() * (whole.length - 1)))),
  ];
  cuts.sort((a, b) => a - b);
  return [0, ...cuts].map((at, i) => whole.slice(at, [...cuts, whole.length][i]));
}

const shows = (value: string) => value.includes(SECRET) || value.includes(JSON.stringify(SECRET).slice(1, -1));

describe('redaction across any order of updates', () => {
  it('a secret in fragments, updates of every kind between them: never in the transcript nor its Markdown', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const redactor = new Redactor();
      redactor.add([SECRET]);
      const redaction = new TranscriptRedaction(redactor);
      let thread: Thread = { ...emptyThread, turn: 'running' };
      let n = 0;
      const actions: ThreadAction[] = [];
      let ended = false;
      for (const [i, piece] of fragments(`key is ${SECRET} done`, next).entries()) {
        if (i > 0) {
          for (let k = Math.floor(next() * 3); k > 0; k--) {
            const other = OTHERS[Math.floor(next() * OTHERS.length)]!;
            actions.push(other.action(`o${++n}`));
            ended ||= other.endsMessage;
          }
        }
        actions.push({
          type: 'update',
          id: `c${++n}`,
          update: { sessionUpdate: 'agent_message_chunk', content: text(piece) },
        });
      }
      actions.push({ type: 'turnEnded', id: 'end', stopReason: 'end_turn' });
      for (const action of actions) {
        for (const kept of redaction.apply(action, thread)) {
          thread = reduceThread(thread, kept);
          assert.ok(!shows(JSON.stringify(thread)), `seed ${seed}: the secret in the transcript`);
        }
      }
      assert.ok(!shows(threadToMarkdown(thread)), `seed ${seed}: the secret in the Markdown`);
      const said = thread.entries.flatMap((e) => (e.kind === 'assistant' ? [e.text] : [])).join('');
      // Updates that leave the message open (usage, a plan, commands, another terminal) change nothing of it.
      if (!ended) assert.equal(said, `key is ${REDACTED} done`, `seed ${seed}`);
      // Split by an entry of its own, the message goes on after it: no fragment lost, none joined to another.
      else assert.ok(said.startsWith('key is ') && said.endsWith(' done'), `seed ${seed}: nothing lost: ${said}`);
    }
  });
});
