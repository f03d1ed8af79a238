/**
 * The chat core without VS Code, moved here from the Node host's suites: a
 * prompt sent while the agent is still starting (never lost), an agent that
 * ignores Stop, and one that floods permission requests. Same assertions,
 * against the same scripted agent, over in-memory streams.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import { AGENT_ID, scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

/** The text of the newest agent reply. */
function lastReply(chat: Chat): string {
  const replies = chat.thread.entries.filter((e) => e.kind === 'assistant');
  return replies.at(-1)?.text ?? '';
}

describe('a prompt sent while the agent is starting (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  /** A new chat connecting to an agent whose initialize plays `onInitialize` first; `connected` settles when connecting is over. */
  async function connecting(onInitialize: object[]): Promise<{ chat: Chat; connected: Promise<boolean> }> {
    host = scriptedHost({ onInitialize, turns: [{ match: '', steps: [{ reportHistory: true }] }] });
    const chat = await host.newChat();
    chat.selectAgent(AGENT_ID);
    const connected = chat.connect();
    await until('connecting', () => chatStatus(chat).connection === 'connecting');
    return { chat, connected };
  }

  it('waits, shown as pending, and is sent once connected', async () => {
    const { chat, connected } = await connecting([{ sleep: 300 }]);
    const sent = chat.composer.send('sent too early');
    await until('the prompt to be pending', () => chatStatus(chat).pendingPrompt === 'sent too early');
    assert.equal(chat.thread.entries.length, 0, 'not in the transcript yet');
    assert.equal(chatStatus(chat).connection, 'connecting');
    await connected;
    await sent;
    await until('the reply', () => chatStatus(chat).turn === 'idle' && lastReply(chat).startsWith('[history'));
    assert.equal(chatStatus(chat).pendingPrompt, undefined);
    assert.match(shown(chat), /## User\n\nsent too early\n\n## Assistant\n\n\[history of [^:]+: sent too early\]\n$/);
  });

  it('Cancel hands it back to the composer, which takes it', async () => {
    const { chat } = await connecting([{ hang: true }]);
    void chat.composer.send('keep this text');
    await until('pending', () => chatStatus(chat).pendingPrompt === 'keep this text');
    chat.composer.cancelPending();
    assert.equal(chatStatus(chat).pendingPrompt, undefined);
    const draft = chatStatus(chat).returnedDraft;
    assert.equal(draft?.text, 'keep this text');
    // Held until the composer says it took it (the view may be hidden meanwhile).
    assert.equal(chatStatus(chat).returnedDraft?.id, draft?.id);
    chat.composer.draftTaken(draft!.id);
    assert.equal(chatStatus(chat).returnedDraft, undefined);
  });

  it('a connection that fails hands it back too, and says why', async () => {
    const { chat } = await connecting([{ hang: true }]);
    void chat.composer.send('do not lose me');
    await until('pending', () => chatStatus(chat).pendingPrompt === 'do not lose me');
    host!.instances[0]!.crash('no model configured');
    await until('the connection to fail', () => chatStatus(chat).connection === 'failed');
    assert.equal(chatStatus(chat).pendingPrompt, undefined);
    assert.equal(chatStatus(chat).returnedDraft?.text, 'do not lose me');
    assert.match(shown(chat), /Could not connect to Scripted Agent: [^]*no model configured/);
    // An agent that started and failed: the error offers where its command, arguments and environment are set.
    const error = chat.thread.entries.find((e) => e.kind === 'notice' && e.text.startsWith('Could not connect'));
    assert.equal(error?.kind === 'notice' && error.action, 'openSettings');
    chat.composer.draftTaken(chatStatus(chat).returnedDraft!.id);
  });

  it("a failed connect's error goes once the chat connects (it is about a failure that is over)", async () => {
    const { chat } = await connecting([{ sleep: 300 }]);
    await until('the agent to start', () => host!.instances.length === 1);
    host!.instances[0]!.crash('no model configured');
    await until('the connection to fail', () => chatStatus(chat).connection === 'failed');
    const failures = () => chat.thread.entries.filter((e) => e.kind === 'notice' && e.text.startsWith('Could not'));
    assert.equal(failures().length, 1);
    chat.say('info', 'Something else the chat said.');
    assert.equal(await chat.connect(), true);
    assert.equal(chatStatus(chat).connection, 'connected');
    assert.deepEqual(failures(), [], 'the error is gone');
    assert.ok(
      chat.thread.entries.some((e) => e.kind === 'notice' && e.text === 'Something else the chat said.'),
      'other notices stay',
    );
  });

  it('two prompts while connecting are sent as one, in order', async () => {
    const { chat, connected } = await connecting([{ sleep: 300 }]);
    void chat.composer.send('first');
    void chat.composer.send('second');
    await until('pending', () => chatStatus(chat).pendingPrompt === 'first\n\nsecond');
    await connected;
    await until('the reply', () => chatStatus(chat).turn === 'idle' && lastReply(chat).startsWith('[history'));
    assert.match(lastReply(chat), /: first\n\nsecond\]$/);
  });
});

describe('an agent that ignores Stop (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  const scenario = {
    agentCapabilities: { loadSession: true },
    turns: [
      { match: 'ignore', steps: [{ text: 'Working on it.' }, { hang: true }] },
      { match: '', steps: [{ reportHistory: true }] },
    ],
  };
  beforeEach(() => {
    host = scriptedHost(scenario, { keepsSessions: true });
  });
  afterEach(() => host.dispose());

  it('Stop ends the turn after its 1.5 s grace and offers Restart; Restart continues the session', async () => {
    const chat = await host.connectedChat();
    void chat.composer.send('ignore my stop');
    await until('the agent to start answering', () => lastReply(chat) === 'Working on it.');
    const stoppedAt = Date.now();
    chat.stop();
    await until('the turn to end', () => chatStatus(chat).turn === 'idle');
    const took = Date.now() - stoppedAt;
    assert.ok(took >= 1_400 && took <= 1_800, `the turn ended ${took} ms after Stop (the grace is 1,500 ms)`);
    const last = chat.thread.entries.at(-1);
    assert.equal(last?.kind === 'notice' ? last.action : undefined, 'restart', 'the chat offers Restart');
    assert.match(shown(chat), /Working on it\.\n\n> info: Stopped\.\n\n> warning: The agent did not confirm the stop/);
    assert.equal(chatStatus(chat).connection, 'connected');

    // The notice's Restart (what its button asks for): the session goes on.
    assert.equal(await chat.restart({ continueSession: true }), true);
    assert.match(shown(chat), /The session continues \(loaded by the agent\)\./);
    await chat.composer.send('what do you remember');
    assert.match(lastReply(chat), /ignore my stop \| what do you remember\]$/);
  });

  it("Send now on a queued prompt sends it once the chat has ended the turn itself, not after the agent's answer", async () => {
    const chat = await host.connectedChat();
    void chat.composer.send('ignore my stop');
    await until('the agent to start answering', () => lastReply(chat) === 'Working on it.');
    await chat.composer.send('next, please');
    const id = chatStatus(chat).queued[0]!.id;
    await chat.composer.queued('sendNow', id);
    await until('the queued prompt to be answered', () => /next, please\]$/.test(lastReply(chat)), 5_000);
    assert.deepEqual(chatStatus(chat).queued, []);
  });

  it('a second Stop ends the turn at once', async () => {
    const chat = await host.connectedChat();
    void chat.composer.send('ignore this one too');
    await until('the agent to start answering', () => lastReply(chat) === 'Working on it.');
    chat.stop();
    const second = Date.now();
    chat.stop();
    await until('the turn to end', () => chatStatus(chat).turn === 'idle');
    assert.ok(Date.now() - second < 500, 'ended by the second Stop');
  });
});

describe('an agent that floods permission requests (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  beforeEach(() => {
    host = scriptedHost({ turns: [{ match: '', steps: [{ permissionFlood: { count: 1000 } }] }] });
  });
  afterEach(() => host.dispose());

  it('never more than 32 wait for the user, the others are answered cancelled at once, and the turn ends', async () => {
    const chat = await host.connectedChat();
    let most = 0;
    const watch = chat.onDidChange(() => (most = Math.max(most, chatStatus(chat).permissions.length)));
    void chat.composer.send('ask for everything');
    await until('32 prompts', () => chatStatus(chat).permissions.length === 32);
    await until('the refusal notice', () =>
      /more than 32 permissions at once: the rest were answered "cancelled"/.test(shown(chat)),
    );
    // Answer what waits until the agent has its 1,000 answers (room frees as we answer, so more may wait meanwhile).
    while (chatStatus(chat).turn === 'running') {
      for (const prompt of chatStatus(chat).permissions) chat.permissions.answer(prompt.requestId, 'reject');
      await new Promise((r) => setTimeout(r, 20));
    }
    watch.dispose();
    assert.equal(most, 32, 'at most 32 waited at once');
    const [, cancelled, rejected] = /^\[permissions: (\d+) cancelled, (\d+) reject_once\]$/.exec(lastReply(chat)) ?? [];
    assert.equal(Number(cancelled) + Number(rejected), 1000, lastReply(chat));
    assert.ok(Number(cancelled) > 0 && Number(rejected) >= 32, lastReply(chat));
    assert.equal(chatStatus(chat).permissions.length, 0);
  });
});
