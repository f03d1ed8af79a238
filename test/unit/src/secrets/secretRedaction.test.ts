import type { SessionUpdate } from '@agentclientprotocol/sdk';
import * as assert from 'node:assert/strict';
import { REDACTED, Redactor } from '../../../../src/secrets/redactor';
import { TranscriptRedaction } from '../../../../src/secrets/transcriptRedaction';
import { emptyThread, type Thread } from '../../../../src/shared/thread/thread';
import { reduceThread, type ThreadAction } from '../../../../src/shared/thread/threadReducer';

const SECRET = 'sk-live-"q\\-0123456789';
let n = 0;
const chunk = (
  text: string,
  kind: 'agent_message_chunk' | 'agent_thought_chunk' = 'agent_message_chunk',
): ThreadAction => ({
  type: 'update',
  id: `u${++n}`,
  update: { sessionUpdate: kind, content: { type: 'text', text } },
});

/** Dispatches `actions` through a redaction of `secrets`, as a chat's thread does; every state on the way, and the last. */
function play(actions: ThreadAction[], secrets = [SECRET]): { states: Thread[]; thread: Thread } {
  const redactor = new Redactor();
  redactor.add(secrets);
  const redaction = new TranscriptRedaction(redactor);
  const states: Thread[] = [];
  let thread: Thread = { ...emptyThread, turn: 'running' };
  for (const action of actions) {
    for (const kept of redaction.apply(action, thread)) {
      thread = reduceThread(thread, kept);
      states.push(thread);
    }
  }
  return { states, thread };
}

const holds = (thread: Thread, text: string) => JSON.stringify(thread).includes(JSON.stringify(text).slice(1, -1));

describe('secrets kept out of the transcript', () => {
  it('a secret streamed in pieces is redacted whole, and no state on the way shows a piece of it', () => {
    for (const cut of [1, 5, 10, SECRET.length - 1]) {
      const { states, thread } = play([chunk(`token: ${SECRET.slice(0, cut)}`), chunk(`${SECRET.slice(cut)} done`)]);
      assert.equal(thread.entries[0]?.kind === 'assistant' && thread.entries[0].text, `token: ${REDACTED} done`);
      assert.ok(
        states.every((s) => !holds(s, SECRET.slice(0, Math.max(cut, 2)))),
        `cut at ${cut}`,
      );
    }
    // One character at a time.
    const { thread } = play([...`say ${SECRET}!`].map((c) => chunk(c)));
    assert.equal(thread.entries[0]?.kind === 'assistant' && thread.entries[0].text, `say ${REDACTED}!`);
  });

  it('text held back because it could start a secret is shown before whatever comes next, in order', () => {
    const { thread } = play([
      chunk('almost sk-live'),
      { type: 'update', id: 't1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: `Use ${SECRET}` } },
      chunk('thinking sk-', 'agent_thought_chunk'),
      { type: 'turnEnded', id: 'end', stopReason: 'end_turn' },
    ]);
    assert.deepEqual(
      thread.entries.map((e) => [e.kind, e.kind === 'tool' ? e.title : 'text' in e ? e.text : '']),
      [
        ['assistant', 'almost sk-live'],
        ['tool', `Use ${REDACTED}`],
        ['thought', 'thinking sk-'],
      ],
    );
    assert.equal(thread.turn, 'idle');
  });

  it('redacts every string of every update: titles, tool input and output, plans, commands, notices; its JSON form too', () => {
    const updates: SessionUpdate[] = [
      { sessionUpdate: 'session_info_update', title: `About ${SECRET}` },
      {
        sessionUpdate: 'tool_call',
        toolCallId: 'c',
        title: 'Run',
        kind: 'execute',
        rawInput: { command: ['curl', `-H${SECRET}`], json: JSON.stringify({ SECRET }) },
        content: [{ type: 'content', content: { type: 'text', text: `out ${SECRET}` } }],
      },
      { sessionUpdate: 'plan', entries: [{ content: `Use ${SECRET}`, priority: 'low', status: 'pending' }] },
      { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'x', description: SECRET }] },
    ];
    const { thread } = play(updates.map((update, i) => ({ type: 'update', id: `x${i}`, update })));
    assert.ok(!holds(thread, SECRET) && !JSON.stringify(thread).includes(SECRET), JSON.stringify(thread).slice(0, 500));
    assert.equal(thread.title, `About ${REDACTED}`);
  });

  it('text held back and released (a cleared or replaced transcript) is not shown later', () => {
    const redactor = new Redactor();
    redactor.add([SECRET]);
    const redaction = new TranscriptRedaction(redactor);
    assert.deepEqual(redaction.apply(chunk('sk-live'), emptyThread), [], 'all of it could begin the secret');
    assert.equal(redaction.release().length, 1, 'released once');
    const notice: ThreadAction = { type: 'notice', id: 'n', level: 'info', text: 'cleared' };
    assert.deepEqual(redaction.apply(notice, emptyThread), [notice], 'nothing held any more');
  });

  it("a secret split across two chunks with other updates between them (usage, another terminal's output) is redacted whole", () => {
    const usage: ThreadAction = {
      type: 'update',
      id: 'u',
      update: { sessionUpdate: 'usage_update', used: 1, size: 9 },
    };
    const other: ThreadAction = { type: 'terminal', id: 'o', terminalId: 'other', data: 'building\n' };
    for (const between of [[usage], [other], [usage, other, usage]]) {
      const { states, thread } = play([
        chunk(`key is ${SECRET.slice(0, 13)}`),
        ...between,
        chunk(`${SECRET.slice(13)} done`),
      ]);
      assert.equal(thread.entries[0]?.kind === 'assistant' && thread.entries[0].text, `key is ${REDACTED} done`);
      assert.ok(
        states.every((s) => !holds(s, SECRET.slice(0, 13))),
        'no piece of it shown on the way',
      );
    }
  });

  it("a terminal's output split between two reads is redacted whole", () => {
    const out = (data: string): ThreadAction => ({ type: 'terminal', id: `o${++n}`, terminalId: 'term', data });
    const { thread } = play([
      out(`echo ${SECRET.slice(0, 8)}`),
      out(`${SECRET.slice(8)}\n`),
      { type: 'terminal', id: 'x', terminalId: 'term', exit: { exitCode: 0, signal: null } },
    ]);
    assert.equal(thread.terminals.term?.output, `echo ${REDACTED}\n`);
    assert.equal(thread.terminals.term?.exitCode, 0);
  });

  it('changes nothing, and copies nothing, while there is no secret', () => {
    const redactor = new Redactor();
    const action = chunk('sk-live-anything');
    assert.deepEqual(new TranscriptRedaction(redactor).apply(action, emptyThread), [action]);
    assert.equal(new TranscriptRedaction(redactor).apply(action, emptyThread)[0], action);
    redactor.add([SECRET]);
    const clean = { a: ['x', { b: 'y' }] };
    assert.equal(redactor.redactStrings(clean), clean, 'the same object when nothing was redacted');
  });

  it('knows how much of a text could be the start of a secret', () => {
    const redactor = new Redactor();
    redactor.add(['abcab-secret']);
    assert.equal(redactor.pendingLength('xx abcab'), 5);
    assert.equal(redactor.pendingLength('xx ab'), 2);
    assert.equal(redactor.pendingLength('xx abx'), 0);
    assert.equal(redactor.pendingLength(''), 0);
    assert.equal(redactor.pendingLength('a'), 1);
  });
});
