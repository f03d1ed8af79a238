/**
 * Edit and resend, Retry and Branch (no VS Code, the scripted agent): the
 * conversation goes on from the chosen prompt, and the agent's session
 * follows: forked at that point where the agent takes a fork point, forked
 * whole where that is the point, else a new session given the earlier turns.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { scriptedHost, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

/** What the transcript shows, one line per entry (notices by their start). */
const shown = (chat: Chat) =>
  chat.thread.entries.map((e) =>
    e.kind === 'user'
      ? `user: ${e.text}`
      : e.kind === 'notice'
        ? `notice: ${e.text.slice(0, 24)}`
        : e.kind === 'assistant'
          ? e.text
          : e.kind,
  );
const promptId = (chat: Chat, text: string) =>
  chat.thread.entries.find((e) => e.kind === 'user' && e.text === text)!.id;
/** The agent's own list of the prompts its session was sent, from its newest answer. */
const agentSaw = (chat: Chat) => {
  const last = [...chat.thread.entries].reverse().find((e) => e.kind === 'assistant');
  return last?.kind === 'assistant' ? last.text.replace(/^\[history of [^:]+: |\]$/g, '') : undefined;
};

/** An agent that forks at a message: Claude Code's adapter, by name (the scripted agent plays it). */
const FORKS_AT_MESSAGE = { name: '@agentclientprotocol/claude-agent-acp', version: '0.101.0' };

describe('Edit and resend, Retry, Branch (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let chat: Chat;
  afterEach(() => host.dispose());

  async function talk(agent: { fork: boolean; name?: object }, ...prompts: string[]): Promise<void> {
    host = scriptedHost({
      ...(agent.name ? { agentInfo: agent.name } : {}),
      messageIds: true,
      agentCapabilities: { sessionCapabilities: agent.fork ? { fork: {} } : {} },
      turns: [{ match: '', steps: [{ reportHistory: true }] }],
    });
    chat = await host.connectedChat();
    for (const prompt of prompts) await chat.composer.send(prompt);
  }

  it('Edit: the conversation goes on from before that prompt, on a fork of the session at that point', async () => {
    await talk({ fork: true, name: FORKS_AT_MESSAGE }, 'one', 'two', 'three');
    const before = chat.sessionRef?.sessionId;
    await chat.rewind.resend(promptId(chat, 'two'), 'TWO');
    await until('the answer', () => chat.thread.turn === 'idle' && agentSaw(chat)?.endsWith('TWO') === true);
    assert.equal(agentSaw(chat), 'one | TWO', 'the fork remembers the first turn only');
    assert.notEqual(chat.sessionRef?.sessionId, before, 'a session of its own');
    assert.deepEqual(shown(chat), [
      'user: one',
      `[history of ${before}: one]`,
      'notice: Edited: the conversation',
      'notice: The agent forked its ses',
      'user: TWO',
      `[history of ${chat.sessionRef?.sessionId}: one | TWO]`,
    ]);
  });

  it('Edit with an agent that cannot fork at a message: a new session, given the earlier turns as context', async () => {
    await talk({ fork: true }, 'one', 'two');
    await chat.rewind.resend(promptId(chat, 'two'), 'TWO');
    await until('the answer', () => chat.thread.turn === 'idle' && agentSaw(chat)?.endsWith('TWO') === true);
    const saw = agentSaw(chat)!;
    assert.match(
      saw,
      /^The conversation so far \(a new session continues it\):\n\nUser: one\nAssistant: \[history of sess-1: one\] \| TWO$/,
    );
    assert.ok(shown(chat).includes('notice: This agent cannot fork i'), shown(chat).join('\n'));
    assert.equal(shown(chat).at(-2), 'user: TWO', 'the transcript shows the prompt, not the context');
  });

  it('Edit of the first prompt: a new session, nothing to tell it', async () => {
    await talk({ fork: false }, 'one', 'two');
    await chat.rewind.resend(promptId(chat, 'one'), 'ONE');
    await until('the answer', () => chat.thread.turn === 'idle' && agentSaw(chat) === 'ONE');
    assert.deepEqual(shown(chat).slice(-2), ['user: ONE', `[history of ${chat.sessionRef?.sessionId}: ONE]`]);
  });

  it('Retry sends the last prompt again, from before it', async () => {
    await talk({ fork: true, name: FORKS_AT_MESSAGE }, 'one', 'two');
    await chat.rewind.retry();
    await until('the answer', () => chat.thread.turn === 'idle' && agentSaw(chat) === 'one | two');
    assert.deepEqual(
      chat.thread.entries.filter((e) => e.kind === 'user').map((e) => e.kind === 'user' && e.text),
      ['one', 'two'],
      'the prompt once, its new answer after it',
    );
  });

  it('Retry twice: one notice, which opens the version just replaced; an Edit while a turn runs keeps its text', async () => {
    await talk({ fork: true, name: FORKS_AT_MESSAGE }, 'one', 'two');
    const first = chat.sessionRef!.sessionId;
    await chat.rewind.retry();
    await until('the answer', () => chat.thread.turn === 'idle' && agentSaw(chat) === 'one | two');
    const second = chat.sessionRef!.sessionId;
    await chat.rewind.retry();
    await until('the answer', () => chat.thread.turn === 'idle' && chat.sessionRef!.sessionId !== second);
    const notices = chat.thread.entries.filter((e) => e.kind === 'notice' && e.action === 'openReplaced');
    assert.equal(notices.length, 1, shown(chat).join('\n'));
    const [notice] = notices;
    assert.ok(notice?.kind === 'notice');
    assert.equal(
      notice.text,
      "Sent again: the conversation goes on from here. The earlier versions are kept in this workspace's history.",
    );
    assert.deepEqual(notice.replaced, { agentId: 'scripted', sessionId: second });
    assert.notEqual(first, second);
    // A turn running: the edited text goes back to the composer.
    host.dispose();
    host = scriptedHost({ turns: [{ match: '', steps: [{ text: 'slow' }, { sleep: 500 }] }] });
    chat = await host.connectedChat();
    await chat.composer.send('one');
    void chat.composer.send('two');
    await until('the turn to run', () => chat.thread.turn !== 'idle');
    await chat.rewind.resend(promptId(chat, 'one'), 'ONE');
    assert.equal(chatStatus(chat).returnedDraft?.text, 'ONE');
  });

  it('Branch: a new chat from the end of that turn; the chat it came from is unchanged', async () => {
    await talk({ fork: true, name: FORKS_AT_MESSAGE }, 'one', 'two', 'three');
    const source = shown(chat);
    const branch = host.chats.branch(chat, promptId(chat, 'two'))!;
    assert.equal(host.chats.shown, branch, 'shown');
    assert.deepEqual(shown(branch).slice(0, 4), source.slice(0, 4));
    assert.equal(shown(branch).length, 5, 'through the turn of "two", then a notice');
    assert.equal(branch.sessionRef, undefined, 'not the source session (it forks at the first Connect)');
    await branch.composer.send('four');
    await until('the answer', () => branch.thread.turn === 'idle' && agentSaw(branch)?.endsWith('four') === true);
    assert.equal(agentSaw(branch), 'one | two | four');
    assert.deepEqual(shown(chat), source);
    await chat.composer.send('five');
    assert.equal(agentSaw(chat), 'one | two | three | five', 'the source goes on as before');
  });

  it('Branch from the last turn of an agent that forks only whole: a whole fork', async () => {
    await talk({ fork: true }, 'one', 'two');
    const branch = host.chats.branch(chat, promptId(chat, 'two'))!;
    await branch.composer.send('three');
    await until('the answer', () => branch.thread.turn === 'idle' && agentSaw(branch)?.endsWith('three') === true);
    assert.equal(agentSaw(branch), 'one | two | three');
  });

  it('Branch with an agent that cannot fork: a new session given the earlier turns', async () => {
    await talk({ fork: false }, 'one', 'two');
    const branch = host.chats.branch(chat, promptId(chat, 'one'))!;
    await branch.composer.send('other');
    await until('the answer', () => branch.thread.turn === 'idle' && agentSaw(branch)?.endsWith('other') === true);
    assert.match(
      agentSaw(branch)!,
      /^The conversation so far[^]*User: one\nAssistant: \[history of sess-1: one\] \| other$/,
    );
    assert.doesNotMatch(agentSaw(branch)!, /two/, 'only up to the end of that turn');
  });

  it('ignores an Edit of what is not a prompt, and one while a turn runs', async () => {
    await talk({ fork: false }, 'one');
    const before = shown(chat);
    const answer = chat.thread.entries.find((e) => e.kind === 'assistant')!.id;
    await chat.rewind.resend(answer, 'x');
    assert.deepEqual(shown(chat), before);
    assert.equal(host.chats.branch(chat, answer), undefined);
  });
});
