/**
 * Both hosts: a chat with the host's test agent (on the web host, through the
 * bridge) is in this workspace's history after its first turn, under its
 * agent in the Sessions tree; opened again it shows its transcript at once,
 * and the first prompt continues the session, which the agent remembers.
 */
import * as vscode from 'vscode';
import { HistoryStore } from '../../../src/history/historyStore';
import { emptySessionControls } from '../../../src/shared/sessionControls';
import type { Thread } from '../../../src/shared/thread/thread';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from './assert';
import { acpApi } from './chatWaits';
import { chatWithTestAgent, hostSetup } from './host';
import { agentChildren, talkOnce } from './savedChats';

/** The entries as Markdown: the controls belong to a live session, not to the saved one. */
const entries = (thread: Thread) => threadToMarkdown({ ...thread, controls: emptySessionControls });

describe('chat history', function () {
  this.timeout(60_000);

  it('saved after its first turn, shown in the Sessions tree, opened again at once, and its session continues', async () => {
    await chatWithTestAgent();
    const api = await acpApi();
    const { sessionId, markdown } = await talkOnce(api, hostSetup.agentId, 'remember these words');
    const entry = (await api.sessions.list()).find((s) => s.sessionId === sessionId);
    assert.ok(entry, "the chat is in this workspace's history");
    assert.equal(entry!.title, 'remember these words');

    api.sessionsTree.refresh();
    const agentNode = (await api.sessionsTree.getChildren()).find(
      (n) => n.kind === 'agent' && n.agentId === hostSetup.agentId,
    );
    assert.ok(agentNode, 'the test agent has a node in the Sessions tree');
    const labels = (await api.sessionsTree.getChildren(agentNode)).map((n) =>
      String(api.sessionsTree.getTreeItem(n).label),
    );
    // The test agent cannot list its sessions: the tree shows this workspace's history.
    assert.ok(labels.includes('remember these words'), labels.join(' / '));

    const opened = await api.openSaved(entry!);
    assert.equal(api.chats.shown, opened);
    assert.equal(opened.connection, 'disconnected', 'shown before any agent is asked');
    assert.equal(entries(opened.thread), markdown);
    await opened.composer.send('recall the history');
    const text = entries(opened.thread);
    assert.ok(text.startsWith(markdown), text);
    assert.match(text, /The session continues \(resumed by the agent\)/);
    assert.match(text, /\[history of [^:]+: remember these words \| recall the history\]/);
    await api.chats.close(opened.id);
  });

  it('renamed: its line, the history and the Sessions tree take the name, the agent stores it, its own titles do not replace it, and it stays when opened again', async () => {
    await chatWithTestAgent();
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent(hostSetup.agentId);
    await chat.composer.send('name me later');
    const sessionId = chat.sessionRef!.sessionId;
    const saved = async () => (await api.sessions.list()).find((s) => s.sessionId === sessionId);
    const until = async (what: string, check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(await check(), what);
    };
    await until('saved after its turn', async () => (await saved()) !== undefined);
    assert.equal(await api.chats.rename(chat, '  Parser\u202e review \n'), 'agent', 'the test agent stores titles');
    assert.equal(chat.title, 'Parser review');
    assert.equal(api.chats.summaries().find((s) => s.id === chat.id)?.title, 'Parser review');
    await until('the history takes the name', async () => (await saved())?.title === 'Parser review');
    await chat.composer.send('retitle please');
    assert.equal(chat.title, 'Parser review', "the agent's title does not replace the user's");
    api.sessionsTree.refresh();
    const labels = (await agentChildren(api, hostSetup.agentId)).map((n) =>
      String(api.sessionsTree.getTreeItem(n).label),
    );
    assert.ok(labels.includes('Parser review'), labels.join(' / '));
    await api.chats.close(chat.id);

    const reopened = await api.openSaved((await saved())!);
    assert.equal(reopened.title, 'Parser review');
    await reopened.composer.send('retitle again');
    assert.equal(reopened.title, 'Parser review', 'still the name after the agent titled it again');
    await api.chats.close(reopened.id);
    // A saved chat that is not open: its entry takes the name, and so does the chat opened from it.
    await api.sessions.rename((await saved())!, 'Renamed while closed');
    assert.equal((await saved())?.title, 'Renamed while closed');
    const again = await api.openSaved((await saved())!);
    assert.equal(again.title, 'Renamed while closed');
    await api.chats.close(again.id);
  });

  it('maxHistory keeps the most recently used, their files deleted; a history edited into garbage loses only what does not parse', async () => {
    await chatWithTestAgent();
    const api = await acpApi();
    const config = vscode.workspace.getConfiguration('vscode-acp');
    const location = api.sessions.location!;
    await config.update('sessions.maxHistory', 2, vscode.ConfigurationTarget.Global);
    try {
      const first = await talkOnce(api, hostSetup.agentId, 'pruned first');
      const firstKey = (await api.sessions.list()).find((s) => s.sessionId === first.sessionId)!.key;
      await talkOnce(api, hostSetup.agentId, 'kept second');
      await talkOnce(api, hostSetup.agentId, 'kept third');
      assert.deepEqual(
        (await api.sessions.list()).map((s) => s.title),
        ['kept third', 'kept second'],
      );
      const gone = async () =>
        vscode.workspace.fs.stat(vscode.Uri.joinPath(location, `${firstKey}.json`)).then(
          () => false,
          () => true,
        );
      for (let i = 0; i < 40 && !(await gone()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(await gone(), 'the pruned transcript is deleted');
    } finally {
      await config.update('sessions.maxHistory', undefined, vscode.ConfigurationTarget.Global);
    }
    // This host's storage, edited by hand: what parses is read, the rest is said once.
    const index = vscode.Uri.joinPath(location, 'index.json');
    const good = new TextDecoder().decode(await vscode.workspace.fs.readFile(index));
    const sessions = (JSON.parse(good) as { sessions: unknown[] }).sessions;
    await vscode.workspace.fs.writeFile(
      index,
      new TextEncoder().encode(
        JSON.stringify({ version: 1, sessions: [...sessions, { key: '../escape', agentId: 1 }, 'junk'] }),
      ),
    );
    try {
      const log = vscode.window.createOutputChannel('ACP history test', { log: true });
      const reread = new HistoryStore(vscode.Uri.joinPath(location, '..'), log);
      const said: string[] = [];
      reread.onDidFail((text) => said.push(text));
      assert.equal((await reread.list()).length, sessions.length);
      assert.deepEqual(said, ["2 saved chat sessions in this workspace's history could not be read and are left out."]);
      log.dispose();
    } finally {
      await vscode.workspace.fs.writeFile(index, new TextEncoder().encode(good));
    }
  });
});
