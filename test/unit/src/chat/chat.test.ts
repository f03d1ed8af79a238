/**
 * The chat core without VS Code: Chats and Chat against the real scripted
 * agent over in-memory streams (scriptedHost.ts). What a user does (connect,
 * prompt, stop, a prompt sent before connecting, two chats, restart, close)
 * and what a process does to them (crash, a dropped connection), in
 * milliseconds; what only VS Code shows stays in the integration suites.
 */
import * as assert from 'node:assert/strict';
import { scriptedHost, shown, until, type ScriptedHost } from './scriptedHost';
import { chatStatus } from '../../../../src/views/chatStatus';

const scenario = {
  agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {}, close: {} } },
  turns: [
    { match: '^slow', steps: [{ stream: { text: 'slow words ', chunks: 50, intervalMs: 20 } }] },
    { match: '^ask', steps: [{ permission: {} }, { text: 'Asked.' }] },
    { match: '^recall', steps: [{ reportHistory: true }] },
    { match: '^sessions', steps: [{ reportSessions: true }] },
    {
      match: '',
      steps: [{ thought: 'Thinking it over.' }, { stream: { text: 'Hello from the scripted agent', chunks: 5 } }],
    },
  ],
};

describe('the chat core against the scripted agent (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;

  beforeEach(() => {
    host = scriptedHost(scenario);
  });
  afterEach(() => host.dispose());

  it('connects, and a prompt shows the user, the thought and the streamed reply, then the turn ends', async () => {
    const chat = await host.connectedChat();
    assert.equal(chat.connection, 'connected');
    await chat.composer.send('hello there');
    const text = shown(chat);
    assert.match(text, /## User\n\nhello there/);
    assert.match(text, /Thinking it over\./);
    assert.match(text, /Hello from the scripted agent/);
    assert.equal(chat.thread.turn, 'idle');
    assert.equal(chat.title, 'hello there');
  });

  it('a prompt sent before connecting waits as pending, connects, and is sent', async () => {
    const chat = await host.connectedChat();
    await chat.disconnect();
    assert.equal(chat.connection, 'disconnected');
    const sent = chat.composer.send('are you there');
    assert.equal(chatStatus(chat).pendingPrompt, 'are you there');
    await sent;
    assert.equal(chat.connection, 'connected');
    assert.equal(chatStatus(chat).pendingPrompt, undefined);
    assert.match(shown(chat), /are you there[\s\S]*Hello from the scripted agent/);
  });

  it('Stop ends a running turn: Send is back and the chat takes the next prompt', async () => {
    const chat = await host.connectedChat();
    const turn = chat.composer.send('slow please');
    await until('the reply to start', () => /slow words/.test(shown(chat)));
    chat.stop();
    await turn;
    assert.equal(chat.thread.turn, 'idle');
    assert.ok(!/(slow words ){50}/.test(shown(chat)), 'the stream was cut short');
    await chat.composer.send('again');
    assert.match(shown(chat), /## User\n\nagain/);
  });

  it('a permission request waits in the chat; allowed, the turn goes on', async () => {
    const chat = await host.connectedChat();
    const turn = chat.composer.send('ask first');
    await until('the permission prompt', () => chat.permissions.prompts.length === 1);
    const [prompt] = chat.permissions.prompts;
    assert.ok(prompt.choices.includes('allow_once'), prompt.choices.join(', '));
    chat.permissions.answer(prompt.requestId, 'allow_once');
    await turn;
    assert.match(shown(chat), /Asked\./);
    assert.equal(chat.permissions.prompts.length, 0);
  });

  it('two chats with the agent share its process, each with a session of its own', async () => {
    const first = await host.connectedChat();
    await first.composer.send('one');
    // (A new chat replaces a blank one: the first has a turn behind it.)
    const second = await host.connectedChat();
    assert.equal(host.instances.length, 1, 'one agent process');
    assert.notEqual(first.sessionRef?.sessionId, second.sessionRef?.sessionId);
    await Promise.all([first.composer.send('one more'), second.composer.send('two')]);
    assert.match(shown(first), /## User\n\none/);
    assert.doesNotMatch(shown(first), /## User\n\ntwo/);
    assert.match(shown(second), /## User\n\ntwo/);
  });

  it('an agent that crashes ends every chat on its process, and each says why', async () => {
    const first = await host.connectedChat();
    await first.composer.send('one');
    const second = await host.connectedChat();
    host.instances[0].crash('segfault in the model loader');
    await until('both chats to fail', () => first.connection === 'failed' && second.connection === 'failed');
    for (const chat of [first, second]) assert.match(shown(chat), /The agent stopped: .*segfault in the model loader/);
  });

  it('a dropped connection reconnects on its own and continues the session', async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('remember this');
    const sessionId = chat.sessionRef?.sessionId;
    host.instances[0].drop();
    await until('the chat to reconnect', () => chat.connection === 'connected' && host.instances.length === 2);
    assert.match(shown(chat), /Reconnecting/);
    assert.equal(chat.sessionRef?.sessionId, sessionId, 'the same session, continued');
  });

  it('Restart starts a new process and a new session; the transcript stays, marked', async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('before the restart');
    const before = chat.sessionRef?.sessionId;
    assert.ok(before);
    assert.equal(await chat.restart(), true);
    assert.equal(host.instances.length, 2);
    assert.match(shown(chat), /before the restart[\s\S]*Agent restarted: a new session begins here/);
    // The new process's session: the agent remembers nothing of the one before.
    await chat.composer.send('recall');
    assert.match(shown(chat), /\[history of [^:]+: recall\]/);
  });

  it('closing a chat ends its session; the other chat on the process goes on', async () => {
    const first = await host.connectedChat();
    await first.composer.send('one');
    const second = await host.connectedChat();
    await first.composer.send('sessions');
    assert.match(shown(first), /\[sessions open: 2,/);
    await host.chats.close(first.id);
    assert.ok(!host.chats.all.includes(first));
    await second.composer.send('sessions');
    assert.match(shown(second), /\[sessions open: 1,/, 'session/close reached the agent');
  });
});

describe('a chat over its lifetime (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost | undefined;
  afterEach(() => host?.dispose());

  const lifetime = {
    agentCapabilities: { sessionCapabilities: { resume: {} } },
    turns: [
      { match: '^wait', steps: [{ text: 'Waiting. ' }, { waitForCancel: true }] },
      { match: '^recall', steps: [{ reportHistory: true }] },
      { match: '^other', steps: [{ permission: { sessionId: 'someone-else' } }] },
      { match: '', steps: [{ text: 'ok' }] },
    ],
  };

  it('Stop is confirmed by the agent: the turn ends at once, without a warning', async () => {
    host = scriptedHost(lifetime);
    const chat = await host.connectedChat();
    const turn = chat.composer.send('wait for me');
    await until('the turn to start', () => /Waiting\./.test(shown(chat)));
    const stopped = Date.now();
    chat.stop();
    await turn;
    assert.ok(Date.now() - stopped < 1_000, `${Date.now() - stopped} ms`);
    assert.doesNotMatch(shown(chat), /did not confirm/);
  });

  it('Clear empties what is shown; the session goes on, and the agent still remembers', async () => {
    host = scriptedHost(lifetime);
    const chat = await host.connectedChat();
    await chat.composer.send('before clearing');
    chat.clear();
    assert.equal(chat.thread.entries.length, 0);
    await chat.composer.send('recall');
    assert.match(shown(chat), /\[history of [^:]+: before clearing \| recall\]/);
  });

  it("a permission request for another chat's session is refused, and nothing is shown here", async () => {
    host = scriptedHost(lifetime);
    const chat = await host.connectedChat();
    await chat.composer.send('other session');
    assert.equal(chat.permissions.prompts.length, 0);
    // Refused: no session of this window is 'someone-else' (the connection routes requests by session id).
    assert.match(shown(chat), /\[(permission: cancelled|error: [^\]]+)\]/);
  });

  it('closing a chat while its turn runs ends the turn and the session, quietly', async () => {
    host = scriptedHost(lifetime);
    const chat = await host.connectedChat();
    void chat.composer.send('wait forever');
    await until('the turn to start', () => chat.thread.turn === 'running');
    await host.chats.close(chat.id);
    assert.ok(!host.chats.all.includes(chat));
    assert.deepEqual(host.errors, []);
  });

  it('Restart that continues the session (after an unconfirmed Stop) keeps what the agent remembers', async () => {
    host = scriptedHost(lifetime, { keepsSessions: true });
    const chat = await host.connectedChat();
    await chat.composer.send('keep this');
    assert.equal(await chat.restart({ continueSession: true }), true);
    assert.equal(host.instances.length, 2);
    await chat.composer.send('recall');
    assert.match(shown(chat), /\[history of [^:]+: keep this \| recall\]/);
  });

  it('an agent that crashes during a turn ends the turn with why; Send is back', async () => {
    host = scriptedHost(lifetime);
    const chat = await host.connectedChat();
    void chat.composer.send('wait');
    await until('the turn to start', () => /Waiting\./.test(shown(chat)));
    host.instances[0].crash('out of memory');
    await until('the turn to end', () => chat.thread.turn === 'idle' && chat.connection === 'failed');
    assert.match(shown(chat), /The agent stopped: .*out of memory/);
  });
});
