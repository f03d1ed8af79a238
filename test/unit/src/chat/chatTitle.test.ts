/**
 * Rename (no VS Code, the scripted agent): the user's name is the chat's at
 * once and stays (the agent's later titles do not replace it); where the agent
 * stores titles (`session/set_title`) it gets the name and the chat shows what
 * it stored; whatever the agent answers, the chat keeps a name it can show.
 */
import * as assert from 'node:assert/strict';
import type { Chat } from '../../../../src/chat/chat';
import type { HistoryEvent } from '../../../../src/chats/chatEvents';
import { scriptedHost, shown, type ScriptedHost } from './scriptedHost';

/** A prompt with "retitle" makes the agent title its session "Agent title"; any other is answered "ok". */
const turns = [
  { match: 'retitle', steps: [{ update: { sessionUpdate: 'session_info_update', title: 'Agent title' } }] },
  { match: '', steps: [{ text: 'ok' }] },
];

describe('Rename a chat (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let renames: string[];
  afterEach(() => host.dispose());

  async function talk(scenario: object): Promise<Chat> {
    host = scriptedHost({ ...scenario, turns });
    renames = [];
    host.chats.onDidChangeHistory((e: HistoryEvent) => {
      if (e.kind === 'renamed') renames.push(e.title);
    });
    const chat = await host.connectedChat();
    await chat.composer.send('first words');
    return chat;
  }

  it('an agent that stores titles gets the name; the chat, its line and the history show what the agent stored', async () => {
    const chat = await talk({ titles: true, agentCapabilities: { sessionCapabilities: { list: {} } } });
    const long = `Review ${'x'.repeat(150)}`;
    assert.equal(await host.chats.rename(chat, `  ${long}\n`), 'agent');
    // The scripted agent keeps 100 characters: its form is the one shown.
    const stored = long.slice(0, 100);
    assert.equal(chat.title, stored);
    assert.equal(host.chats.summaries().find((s) => s.id === chat.id)?.title, stored);
    assert.deepEqual(renames, [stored]);
    const listed = await chat.liveConnection!.client.listSessions!(chat.sessionRef!.cwd, undefined);
    assert.equal(listed.sessions.find((s) => s.sessionId === chat.sessionRef!.sessionId)?.title, stored);
    await chat.composer.send('retitle please');
    assert.equal(chat.title, stored, "the agent's own title does not replace the user's");
  });

  it('an agent that does not store titles: the name is kept here, and still wins over its titles', async () => {
    const chat = await talk({});
    assert.equal(chat.liveConnection!.client.setSessionTitle, undefined);
    assert.equal(await host.chats.rename(chat, 'Parser work'), 'local');
    assert.equal(chat.title, 'Parser work');
    assert.deepEqual(renames, ['Parser work']);
    await chat.composer.send('retitle please');
    assert.equal(chat.title, 'Parser work');
    const other = await host.connectedChat();
    await other.composer.send('retitle too');
    assert.equal(other.title, 'Agent title', 'a chat nobody renamed takes the agent title');
  });

  it('named before its session opened: the agent that stores titles gets the name once it connects', async () => {
    host = scriptedHost({ titles: true, agentCapabilities: { sessionCapabilities: { list: {} } }, turns });
    const chat = await host.newChat();
    assert.equal(await host.chats.rename(chat, 'Named early'), 'local');
    await chat.composer.send('first words');
    assert.equal(chat.title, 'Named early');
    const listed = await chat.liveConnection!.client.listSessions!(chat.sessionRef!.cwd, undefined);
    const title = () => listed.sessions.find((s) => s.sessionId === chat.sessionRef!.sessionId)?.title;
    assert.equal(title(), 'Named early', "the agent's listing");
  });

  it('a blank name changes nothing and tells the history nothing', async () => {
    const chat = await talk({ titles: true });
    assert.equal(await host.chats.rename(chat, ' \u200b\t\u202e '), undefined);
    assert.equal(chat.title, 'first words');
    assert.deepEqual(renames, []);
  });

  for (const [what, answer, expected] of [
    ['no title in the answer', { ok: true }, 'Ours'],
    ['a title of another type', { title: 5 }, 'Ours'],
    ['not an object', 'stored!', 'Ours'],
    ['a title of invisible characters', { title: '\u202e\u0000\u200b' }, 'Ours'],
    ['a title with controls and bidi overrides', { title: 'Th\u202eeirs\u0007' }, 'Theirs'],
    ['a huge title', { title: 'y'.repeat(100_000) }, `${'y'.repeat(199)}…`],
  ] as const) {
    it(`a hostile answer (${what}): the chat keeps a name it can show`, async () => {
      const chat = await talk({ titles: { answer } });
      assert.equal(await host.chats.rename(chat, 'Ours'), 'agent');
      assert.equal(chat.title, expected);
    });
  }

  it('an agent that refuses the name: kept here, and the chat says the agent did not store it', async () => {
    const chat = await talk({ titles: { error: 'titles are read-only today' } });
    assert.equal(await host.chats.rename(chat, 'Mine'), 'local');
    assert.equal(chat.title, 'Mine');
    assert.match(shown(chat), /The agent did not store the new title \(.*titles are read-only today.*\)/);
    assert.deepEqual(renames, ['Mine']);
  });
});
