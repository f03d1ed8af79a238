/**
 * The open chats without VS Code (Chats, against the scripted agent on
 * in-memory streams): which chat is shown, what the list marks, what the
 * history is told to save, and a chat that comes back after a failure.
 */
import * as assert from 'node:assert/strict';
import { toldApart, viewDescription } from '../../../../src/chats/chatAttention';
import type { HistoryEvent } from '../../../../src/chats/chatEvents';
import { titleText } from '../../../../src/shared/text/titleText';
import { lastOpenChats, rememberOpenChats, reopenChats } from '../../../../src/history/openChats';
import type { HistoryStore } from '../../../../src/history/historyStore';
import { memento, OTHER_AGENT_ID, scriptedHost, shown, until, type ScriptedHost } from '../chat/scriptedHost';
import { chatStatus, viewStatus } from '../../../../src/views/chatStatus';

const scenario = {
  agentInfo: { name: 'scripted-agent', title: 'Scripted Agent', version: '1.2.3' },
  agentCapabilities: { sessionCapabilities: { resume: {} } },
  turns: [
    { match: '^ask', steps: [{ permission: {} }, { text: 'Asked.' }] },
    { match: '^slow', steps: [{ stream: { text: 'slow ', chunks: 20, intervalMs: 10 } }] },
    { match: '^many', steps: [{ stream: { text: 'x'.repeat(1000), chunks: 1000, intervalMs: 0 } }] },
    { match: '^title', steps: [{ update: { sessionUpdate: 'session_info_update', title: 'T'.repeat(10_000) } }] },
    { match: '', steps: [{ text: 'ok' }] },
  ],
};

describe('the open chats (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  beforeEach(() => {
    host = scriptedHost(scenario);
  });
  afterEach(() => host.dispose());

  it('a new chat replaces a blank one; one with a turn behind it stays open', async () => {
    const blank = await host.newChat();
    await host.newChat();
    assert.ok(!host.chats.all.includes(blank), 'the blank chat was replaced');
    const used = await host.connectedChat();
    await used.composer.send('hello');
    await host.newChat();
    assert.ok(host.chats.all.includes(used));
  });

  it('another agent picked in a chat with a conversation gets a new chat; the conversation stays with its agent', async () => {
    const other = scriptedHost(scenario, { otherAgent: true });
    try {
      const talked = await other.connectedChat();
      await talked.composer.send('hello');
      other.chats.selectAgent(talked, OTHER_AGENT_ID);
      const fresh = other.chats.shown;
      assert.notEqual(fresh, talked, 'a new chat is shown');
      assert.equal(fresh.agentId, OTHER_AGENT_ID);
      assert.equal(talked.agentId, 'scripted', 'the old chat keeps its agent');
      assert.equal(talked.connection, 'connected', 'and its session');
      assert.match(shown(talked), /hello[\s\S]*ok/);
      assert.match(shown(fresh), /A new chat with Other Agent: it has not seen your chat with Scripted Agent/);
      assert.deepEqual(
        other.chats.summaries().map((c) => c.agentName),
        ['Scripted Agent', 'Other Agent'],
      );
    } finally {
      await other.dispose();
    }
  });

  it("another agent picked in a chat without one changes it in place, and the old agent's errors go", async () => {
    const other = scriptedHost(scenario, { otherAgent: true });
    try {
      const chat = await other.connectedChat();
      chat.say('error', 'Scripted Agent could not start.');
      other.chats.selectAgent(chat, OTHER_AGENT_ID);
      assert.equal(other.chats.shown, chat, 'the same chat');
      assert.equal(chat.agentId, OTHER_AGENT_ID);
      assert.deepEqual(chat.thread.entries, [], "the other agent's error is not in the new agent's chat");
      await until('the old session ended', () => chat.connection === 'disconnected');
    } finally {
      await other.dispose();
    }
  });

  it('a chat out of sight that finishes a turn is marked in the list until shown', async () => {
    const hidden = await host.connectedChat();
    await hidden.composer.send('first');
    const shownChat = await host.connectedChat();
    assert.equal(host.chats.shown, shownChat);
    await hidden.composer.send('again, out of sight');
    const marker = () => host.chats.summaries().find((s) => s.id === hidden.id)?.marker;
    assert.equal(marker(), 'finished');
    host.chats.show(hidden.id);
    assert.equal(marker(), 'none');
  });

  it('no two chats read alike: new chats and branches are numbered or named so, in the list and the view header', async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('hello');
    await until('the answer', () => chat.thread.turn === 'idle');
    // Two chats named after the same first prompt.
    const second = host.chats.newChat();
    await second.composer.send('hello');
    await until('the second answer', () => second.thread.turn === 'idle' && second.title === 'hello');
    assert.deepEqual(
      host.chats.summaries().map((s) => s.title),
      ['hello', 'hello (2)'],
    );
    assert.equal(viewDescription(host.chats.summaries(), second.id), 'hello (2) · Scripted Agent');
    // A branch of a named chat says it is one; a second branch of it is numbered.
    await host.chats.rename(chat, 'Parser');
    const prompt = chat.thread.entries.find((e) => e.kind === 'user')!.id;
    const one = host.chats.branch(chat, prompt)!;
    const two = host.chats.branch(chat, prompt)!;
    const title = (c: { id: string }) => host.chats.summaries().find((s) => s.id === c.id)?.title;
    assert.deepEqual([title(chat), title(one), title(two)], ['Parser', 'Parser (branch)', 'Parser (branch) (2)']);
    assert.equal(viewDescription(host.chats.summaries(), two.id), 'Parser (branch) (2) · Scripted Agent');
  });

  it('a chat waiting for a permission is marked so in the list', async () => {
    const chat = await host.connectedChat();
    void chat.composer.send('ask');
    await until('the permission', () => host.chats.summaries().find((s) => s.id === chat.id)?.marker === 'permission');
    chat.stop();
  });

  it("the history is told of each turn that ended, under the chat's title", async () => {
    const events: HistoryEvent[] = [];
    host.chats.onDidChangeHistory((e) => events.push(e));
    const chat = await host.connectedChat();
    await chat.composer.send('Fix the parser');
    const used = events.filter((e) => e.kind === 'used');
    assert.equal(used.length, 1);
    assert.equal(used[0].kind === 'used' && used[0].title, 'Fix the parser');
  });

  it('a session the agent could not continue is replaced, and the history is told which by which', async () => {
    const events: HistoryEvent[] = [];
    host.chats.onDidChangeHistory((e) => events.push(e));
    const chat = await host.connectedChat();
    await chat.composer.send('first');
    const before = chat.sessionRef!;
    // The agent's process ends with the chat's only session, and it keeps no store: it forgets the session.
    await chat.disconnect();
    await chat.composer.send('again');
    assert.match(shown(chat), /This is a new session/);
    const replaced = events.find((e) => e.kind === 'replaced');
    assert.ok(replaced && replaced.kind === 'replaced');
    assert.equal(replaced.before.sessionId, before.sessionId);
    assert.equal(replaced.after.sessionId, chat.sessionRef?.sessionId);
  });

  it('a chat whose agent crashed connects again with the next prompt', async () => {
    const chat = await host.connectedChat();
    host.instances[0].crash('gone');
    await until('the chat to fail', () => chat.connection === 'failed');
    await chat.composer.send('are you back');
    assert.equal(chat.connection, 'connected');
    assert.equal(host.instances.length, 2);
    assert.match(shown(chat), /are you back[\s\S]*ok/);
  });

  it('a prompt while a turn runs waits for it, and is sent after it (chatQueue.test.ts has the rest)', async () => {
    const chat = await host.connectedChat();
    const turn = chat.composer.send('slow one');
    await until('the turn to run', () => chat.thread.turn === 'running');
    await chat.composer.send('queued');
    assert.doesNotMatch(shown(chat), /queued/, 'not sent while the turn runs');
    await turn;
    assert.match(
      shown(chat),
      /## User\n\nslow one\n\n## Assistant\n\nslow \n\n## User\n\nqueued\n\n## Assistant\n\nok\n$/,
    );
  });

  it('prompts queued behind a turn are kept over a window reload, back in the prompt box', async () => {
    const state = memento();
    const remembering = rememberOpenChats(host.chats, state);
    const chat = await host.connectedChat();
    await chat.composer.send('first');
    void chat.composer.send('slow one');
    await until('the turn to run', () => chat.thread.turn === 'running');
    await chat.composer.send('queued one');
    await chat.composer.send('queued two');
    remembering.dispose();
    const record = lastOpenChats(state);
    assert.deepEqual(
      record?.chats.map((c) => c.queued),
      [['queued one', 'queued two']],
    );
    const entry = { key: chat.id, title: chat.id, createdAt: 1, updatedAt: 1, ...chat.sessionRef! };
    const transcript = { version: 1 as const, entries: [...chat.thread.entries], terminals: {} };
    await host.dispose();

    host = scriptedHost(scenario, { idsUsed: record!.idsUsed });
    await host.chats.refreshAgents();
    const store = { available: true, list: async () => [entry], transcript: async () => transcript };
    await reopenChats(host.chats, store as unknown as HistoryStore, record);
    assert.equal(chatStatus(host.chats.shown).returnedDraft?.text, 'queued one\n\nqueued two');
  });

  it('a thousand chunks arrive whole and in order', async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('many chunks');
    const last = chat.thread.entries.at(-1);
    assert.equal(last?.kind === 'assistant' ? last.text : '', 'x'.repeat(1000));
  });

  it("the agent's title is bounded, whatever its length", async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('title please');
    assert.equal(chat.title, titleText('T'.repeat(10_000)));
    assert.ok((chat.title ?? '').length <= 200);
  });

  it("the agent's name and version label the chat while connected", async () => {
    const chat = await host.connectedChat();
    assert.equal(chatStatus(chat).agentLabel, 'Scripted Agent 1.2.3');
    await chat.disconnect();
    assert.equal(chatStatus(chat).agentLabel, undefined);
  });

  it('two Connects at once make one session', async () => {
    const chat = await host.newChat();
    chat.selectAgent('scripted');
    const [a, b] = await Promise.all([chat.connect(), chat.connect()]);
    assert.deepEqual([a, b], [true, true]);
    assert.equal(host.instances.length, 1);
    await chat.composer.send('one session');
    assert.match(shown(chat), /one session[\s\S]*ok/);
  });

  it('a saved transcript shows at once, before any agent is asked', async () => {
    const chat = await host.connectedChat();
    await chat.composer.send('remember me');
    const saved = { version: 1 as const, entries: [...chat.thread.entries], terminals: {} };
    const entry = { key: 'k', title: 'remember me', createdAt: 1, updatedAt: 1, ...chat.sessionRef! };
    await host.chats.close(chat.id);
    const opened = host.chats.openSaved(entry, saved);
    assert.equal(opened.connection, 'disconnected');
    assert.match(shown(opened), /## User\n\nremember me/);
    assert.equal(host.chats.shown, opened);
    // How its last turn ended, as its transcript says (the compare view's state of a reopened chat).
    assert.equal(opened.lastTurnEnd, 'finished');
    const failed = {
      ...saved,
      entries: [...saved.entries, { kind: 'notice' as const, id: 'n', level: 'error' as const, text: 'x' }],
    };
    assert.equal(host.chats.openSaved({ ...entry, sessionId: 'other' }, failed).lastTurnEnd, 'failed');
    assert.equal(host.chats.newChat().lastTurnEnd, undefined, 'a chat with no conversation has none');
  });

  it("a saved chat whose transcript could not be read: Connect loads the session and shows the agent's replay", async () => {
    const loading = scriptedHost(
      {
        agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } },
        turns: [{ match: '', steps: [{ text: 'ok' }] }],
      },
      { keepsSessions: true },
    );
    try {
      const chat = await loading.connectedChat();
      await chat.composer.send('remember me');
      const entry = { key: 'k', title: 'remember me', createdAt: 1, updatedAt: 1, ...chat.sessionRef! };
      await loading.chats.close(chat.id);
      const opened = loading.chats.openSaved(entry, { error: 'its file is damaged' });
      assert.match(shown(opened), /could not be shown: its file is damaged/);
      assert.equal(await opened.connect(), true);
      assert.match(shown(opened), /The session continues \(loaded by the agent\)\./);
      assert.match(shown(opened), /## User\n\nremember me\n\n## Assistant\n\nok/, 'the replay is the transcript');
    } finally {
      await loading.dispose();
    }
  });

  it('the chats open before a window reload come back under their ids, with their drafts, the shown one shown', async () => {
    const first = await host.connectedChat();
    await first.composer.send('first chat');
    const second = await host.connectedChat();
    await second.composer.send('second chat');
    const saved = (chat: typeof first) => ({
      chatId: chat.id,
      entry: { key: chat.id, title: chat.id, createdAt: 1, updatedAt: 1, ...chat.sessionRef! },
      saved: { version: 1 as const, entries: [...chat.thread.entries], terminals: {} },
    });
    const before = [{ ...saved(first), draft: 'not sent yet' }, saved(second)];
    const idsUsed = host.chats.idsUsed;
    await host.dispose();

    // The reloaded window: its first chat is numbered after the ones before.
    host = scriptedHost(scenario, { idsUsed });
    await host.chats.refreshAgents();
    const blank = host.chats.shown;
    assert.ok(!before.some((b) => b.chatId === blank.id), 'the new blank chat does not take an id from before');
    host.chats.reopen(before, first.id);
    assert.deepEqual(
      host.chats.all.map((c) => c.id),
      [first.id, second.id],
      'both back under their ids, the blank one gone',
    );
    const back = host.chats.shown;
    assert.equal(back.id, first.id);
    assert.equal(back.connection, 'disconnected', 'not connected until the user sends or connects');
    assert.match(shown(back), /first chat/);
    assert.equal(chatStatus(back).returnedDraft?.text, 'not sent yet', 'its draft is handed to the box');
    assert.equal(chatStatus(host.chats.get(second.id)!).returnedDraft, undefined);
    await back.composer.send('and on');
    assert.match(shown(back), /and on[\s\S]*ok/);
  });

  it('trusted while connected: the chat says a restart gives the agent file access, with the button', async () => {
    await host.dispose();
    host = scriptedHost(scenario, { trusted: true, fileRead: true });
    const connected = await host.connectedChat();
    await connected.composer.send('hello'); // a chat with a turn behind it stays open beside a new one
    const idle = await host.newChat();
    host.chats.workspaceTrusted();
    const last = connected.thread.entries.at(-1);
    assert.deepEqual(last?.kind === 'notice' ? [last.level, last.action] : [], ['info', 'restart']);
    assert.match(
      shown(connected),
      /This folder is trusted now\. Restart the agent to give it file access and terminals/,
    );
    assert.equal(idle.thread.entries.length, 0, 'a chat not connected has nothing to restart');
  });

  it('in Restricted Mode the view is told what is off; in a trusted folder, nothing', async () => {
    const chat = await host.newChat();
    assert.equal(
      viewStatus(host.chats, chat).restricted,
      "Restricted Mode: agents' file access, terminals and attachments are off.",
    );
    const trusted = scriptedHost(scenario, { trusted: true });
    try {
      assert.equal(viewStatus(trusted.chats, await trusted.newChat()).restricted, undefined);
    } finally {
      await trusted.dispose();
    }
  });
});

describe('the chat lines told apart (toldApart)', function () {
  const line = (id: string, title: string, agentName = 'Claude Code') => ({
    id,
    title,
    agentName,
    marker: 'none' as const,
  });

  it('numbers a title its agent already has in the list, after the first, with a number no line has', () => {
    const lines = toldApart([
      line('a', 'New chat'),
      line('b', 'New chat'),
      line('c', 'New chat (2)'),
      line('d', 'New chat'),
      line('e', 'New chat', 'OpenCode'),
    ]);
    assert.deepEqual(
      lines.map((l) => l.title),
      ['New chat', 'New chat (3)', 'New chat (2)', 'New chat (4)', 'New chat'],
    );
    assert.equal(new Set(lines.map((l) => `${l.title}|${l.agentName}`)).size, 5);
  });

  it('keeps lines that differ as they are, and says nothing of a chat not in the list', () => {
    const lines = [line('a', 'Parser'), line('b', 'README')];
    assert.deepEqual(toldApart(lines), lines);
    assert.equal(viewDescription(lines, 'b'), 'README · Claude Code');
    assert.equal(viewDescription(lines, 'x'), '');
  });
});
