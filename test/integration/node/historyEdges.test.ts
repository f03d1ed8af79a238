/**
 * Node host: the edges of history and the Sessions tree. Delete Session (this
 * workspace only, or the agent's copy too where it offers session/delete);
 * autoSave off; storage that cannot be written; a listing the agent fails;
 * a built-in agent that is not installed; a chat in an editor tab.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AcpExtensionApi } from '../../../src/extension';
import type { SessionNode } from '../../../src/history/sessionsTree';
import { HistoryStore } from '../../../src/history/historyStore';
import * as assert from '../shared/assert';
import { agentChildren, talkOnce } from '../shared/savedChats';
import { answeringWarning } from '../shared/dialogs';
import { acpApi } from '../shared/chatWaits';
import { chatStatus } from '../../../src/views/chatStatus';

const root = path.resolve(__dirname, '../../..');
const workspace = () => vscode.workspace.workspaceFolders![0].uri.fsPath;

describe('history and Sessions tree edges (Node host)', function () {
  this.timeout(60_000);
  let api: AcpExtensionApi;
  const config = () => vscode.workspace.getConfiguration('vscode-acp');

  before(async () => {
    const store = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-edges-'));
    const agent = (name: string, scenario: object) => ({
      name,
      command: process.execPath,
      args: [
        path.join(root, 'dist/test/agent.js'),
        JSON.stringify({ turns: [{ match: '', steps: [{ text: 'ok' }] }], ...scenario }),
        '--sessions',
        store,
      ],
    });
    await config().update(
      'agents',
      {
        deleter: agent('Deleting Agent', {
          agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, delete: {} } },
        }),
        broken: agent('Broken Lister', {
          agentCapabilities: { sessionCapabilities: { list: {} } },
          listError: { code: -32603, message: 'the session index is locked' },
        }),
        // Lists a session it cannot load (its session/load answers "not found").
        forgetful: agent('Forgetful Agent', {
          agentCapabilities: { loadSession: true, sessionCapabilities: { list: {} } },
          listedSessions: [{ sessionId: 'forgotten-1', cwd: workspace(), title: 'A session it forgot' }],
        }),
        // Pages of one, with cursors only the process that gave them takes.
        pager: agent('Paging Agent', {
          agentCapabilities: { sessionCapabilities: { list: {} } },
          listPageSize: 1,
          listCursorInProcess: true,
          listedSessions: ['one', 'two', 'three'].map((n) => ({
            sessionId: `paged-${n}`,
            cwd: workspace(),
            title: `Paged ${n}`,
          })),
        }),
      },
      vscode.ConfigurationTarget.Global,
    );
    api = await acpApi();
    await api.chat.refreshAgents();
    api.sessionsTree.refresh();
  });

  after(async () => {
    await config().update('sessions.autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  const talk = async (agentId: string, text: string) => (await talkOnce(api, agentId, text)).sessionId;

  const children = (agentId: string): Promise<SessionNode[]> => agentChildren(api, agentId);
  const listedIds = async (agentId: string) =>
    (await children(agentId)).flatMap((n) => (n.kind === 'session' && n.listed ? [n.listed.sessionId] : []));

  it("Delete Session removes it from this workspace's history only, unless deleting the agent's copy is chosen too", async () => {
    const kept = await talk('deleter', 'keep on the agent');
    const gone = await talk('deleter', 'delete everywhere');
    assert.ok((await listedIds('deleter')).includes(kept), 'the agent lists it');
    const entryOf = async (id: string) => (await api.sessions.list()).find((s) => s.sessionId === id);
    const node = (id: string) =>
      children('deleter').then((nodes) => nodes.find((n) => n.kind === 'session' && n.saved?.sessionId === id));
    const { buttons: offered } = await answeringWarning(
      () => 'Delete from History',
      async () => vscode.commands.executeCommand('vscode-acp.sessions.delete', await node(kept)),
    );
    assert.deepEqual(offered, ['Delete from History', 'Delete Here and in Deleting Agent']);
    assert.equal(await entryOf(kept), undefined, "gone from this workspace's history");
    api.sessionsTree.refresh();
    assert.ok((await listedIds('deleter')).includes(kept), 'the agent still has it');
    await answeringWarning(
      () => 'Delete Here and in Deleting Agent',
      async () => vscode.commands.executeCommand('vscode-acp.sessions.delete', await node(gone)),
    );
    assert.equal(await entryOf(gone), undefined);
    api.sessionsTree.refresh();
    assert.ok(!(await listedIds('deleter')).includes(gone), 'the agent deleted its copy (session/delete)');
    // Cancelled: nothing happens.
    const third = await talk('deleter', 'not deleted');
    await answeringWarning(
      () => undefined,
      async () => vscode.commands.executeCommand('vscode-acp.sessions.delete', await node(third)),
    );
    assert.ok(await entryOf(third), 'kept when the question is cancelled');
  });

  it('with vscode-acp.sessions.autoSave off, a chat is not saved', async () => {
    await config().update('sessions.autoSave', false, vscode.ConfigurationTarget.Global);
    const chat = api.chats.newChat();
    chat.selectAgent('deleter');
    await chat.composer.send('do not save me');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!(await api.sessions.list()).some((s) => s.sessionId === chat.sessionRef!.sessionId), 'not saved');
    await api.chats.close(chat.id);
    await config().update('sessions.autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('storage that cannot be written: said once, clearly, and what was saved is kept', async () => {
    const blocked = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-blocked-'));
    fs.writeFileSync(path.join(blocked, 'sessions'), 'a file where the folder should be');
    const log = vscode.window.createOutputChannel('ACP storage test', { log: true });
    const store = new HistoryStore(vscode.Uri.file(blocked), log);
    const said: string[] = [];
    store.onDidFail((text) => said.push(text));
    await store.save({
      agentId: 'deleter',
      sessionId: 's-1',
      cwd: '/w',
      title: 'x',
      thread: { entries: [{ kind: 'user', id: 'u', text: 'x' }], terminals: {} },
    });
    assert.equal(said.length, 2, JSON.stringify(said));
    assert.match(said[0], /^This workspace's chat history could not be read \(.+\)\.$/);
    assert.match(said[1], /^The chat history could not be saved \(.+\)\. What was saved before is kept\.$/);
    store.dispose();
    log.dispose();
  });

  it('a listing the agent gets wrong is an error with Retry; the saved history stays', async () => {
    const nodes = await children('broken');
    const labels = nodes.map((n) => String(api.sessionsTree.getTreeItem(n).label));
    assert.match(labels[0], /^Could not list sessions: .*the session index is locked/, JSON.stringify(labels));
    const retry = api.sessionsTree.getTreeItem(nodes[0]);
    assert.equal(retry.command?.command, 'vscode-acp.sessions.retry');
  });

  it('a listed session the agent cannot load goes on as a new session, saved once under its new id, not under the dead one', async () => {
    const chat = api.chats.openListed(
      'forgetful',
      { sessionId: 'forgotten-1', cwd: workspace(), title: 'A session it forgot' },
      'load',
    );
    for (let i = 0; chatStatus(chat).connection !== 'connected'; i++) {
      assert.ok(i < 300, 'connected');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(
      chat.thread.entries.some((e) => e.kind === 'notice' && /This is a new session/.test(e.text)),
      'the chat says the session is new',
    );
    await chat.composer.send('go on');
    const newId = chat.sessionRef!.sessionId;
    assert.ok(newId !== 'forgotten-1', 'a new session');
    let saved = await api.sessions.list();
    for (let i = 0; !saved.some((s) => s.sessionId === newId); i++) {
      assert.ok(i < 100, 'saved under the new id');
      await new Promise((r) => setTimeout(r, 50));
      saved = await api.sessions.list();
    }
    assert.deepEqual(
      saved.filter((s) => s.agentId === 'forgetful').map((s) => s.sessionId),
      [newId],
      'one entry, under the session the chat has',
    );
    await api.chats.close(chat.id);
  });

  it('Restart Agent anew keeps the session before in the history, beside the new one (as its notice says)', async () => {
    const chat = api.chats.newChat();
    chat.selectAgent('deleter');
    await chat.composer.send('before the restart');
    const before = chat.sessionRef!.sessionId;
    await chat.restart();
    await chat.composer.send('after the restart');
    const after = chat.sessionRef!.sessionId;
    assert.ok(after !== before, 'a new session');
    for (let i = 0; i < 100 && !(await api.sessions.list()).some((s) => s.sessionId === after); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const ids = (await api.sessions.list()).map((s) => s.sessionId);
    assert.ok(ids.includes(before) && ids.includes(after), `both sessions in the history: ${ids.join(', ')}`);
    await api.chats.close(chat.id);
  });

  it('Load more pages through an agent whose cursors live in its process: the process is kept for the next page', async () => {
    api.sessionsTree.refresh();
    // A page of one each (the store these agents share may list a few more sessions first).
    let pages = 1;
    assert.equal((await listedIds('pager')).length, 1);
    const more = async () => (await children('pager')).some((n) => n.kind === 'info' && n.label === 'Load more');
    while (await more()) {
      assert.ok(pages < 20, 'the listing ends');
      await api.sessionsTree.relist('pager', { more: true });
      pages++;
      assert.equal((await listedIds('pager')).length, pages, `page ${pages} added one`);
    }
    const labels = (await children('pager')).map((n) => String(api.sessionsTree.getTreeItem(n).label));
    assert.ok(!labels.some((l) => /^Could not/.test(l)), labels.join(', '));
    assert.deepEqual((await listedIds('pager')).slice(-3), ['paged-one', 'paged-two', 'paged-three']);
  });

  it('a built-in agent that is not installed offers its install command', async () => {
    const opencode = api.chat.status.agents.find((a) => a.id === 'opencode');
    if (!opencode || opencode.available) return;
    const [item] = await children('opencode');
    const tree = api.sessionsTree.getTreeItem(item);
    assert.equal(tree.label, 'Install OpenCode');
    assert.equal(
      tree.tooltip,
      'Installs it with "npm install opencode-ai" into this extension\'s storage, after showing what will run',
    );
    assert.equal(tree.command?.command, 'vscode-acp.sessions.install');
  });

  it('ACP: Open Chat in Editor shows the chat in an editor tab, which closes with the chat', async () => {
    const chat = api.chats.newChat();
    const tabs = () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('vscode-acp.chatEditor'));
    await vscode.commands.executeCommand('vscode-acp.openChatInEditor');
    for (let i = 0; i < 50 && tabs().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(tabs().length, 1, 'one chat tab');
    await vscode.commands.executeCommand('vscode-acp.openChatInEditor');
    assert.equal(tabs().length, 1, 'the same chat again: its tab, not a second one');
    await api.chats.close(chat.id);
    for (let i = 0; i < 50 && tabs().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(tabs().length, 0, 'closed with its chat');
  });
});
