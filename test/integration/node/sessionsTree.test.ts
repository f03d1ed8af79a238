/**
 * Node host: the Sessions tree, state by state, with the test agent as each
 * kind of agent: one that lists in pages (Load more), one whose cursor
 * loops, a hostile listing (thousands, duplicates, markup and bidi titles),
 * one that needs sign-in to list, one that cannot list (this workspace's
 * history instead), one that is not there, and a saved session the agent no
 * longer lists (stale). A listed session opens loaded with its history.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { AcpExtensionApi } from '../../../src/extension';
import type { SessionNode } from '../../../src/history/sessionsTree';
import { emptyThread } from '../../../src/shared/thread/thread';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from '../shared/assert';
import { agentChildren, talkOnce } from '../shared/savedChats';
import { acpApi, waitFor } from '../shared/chatWaits';
import { withQuickPick } from '../shared/dialogs';

const root = path.resolve(__dirname, '../../..');
const turns = [{ match: '', steps: [{ text: 'Listed reply.' }] }];

describe('the Sessions tree (Node host)', function () {
  this.timeout(60_000);
  let api: AcpExtensionApi;
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-tree-'));
  const stuckEvents = path.join(store, 'stuck-events');
  const stuckSaid = () => (fs.existsSync(stuckEvents) ? fs.readFileSync(stuckEvents, 'utf8') : '');
  const agent = (name: string, scenario: object, sessions = store) => ({
    name,
    command: process.execPath,
    args: [path.join(root, 'dist/test/agent.js'), JSON.stringify({ turns, ...scenario }), '--sessions', sessions],
  });

  before(async () => {
    const cwd = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const hostile = [
      { sessionId: 'markup', cwd, title: '<img src=x onerror=alert(1)> \u202eevil\u202c\n' + 'x'.repeat(5_000) },
      ...Array.from({ length: 1_500 }, (_, i) => ({ sessionId: `bulk-${i}`, cwd, title: `Bulk ${i}` })),
      { sessionId: 'bulk-3', cwd, title: 'a duplicate id' },
    ];
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        pager: agent('Paging Agent', {
          agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, resume: {} } },
          listPageSize: 2,
        }),
        looper: agent(
          'Looping Agent',
          {
            agentCapabilities: { sessionCapabilities: { list: {} } },
            listPageSize: 1,
            listCursorLoop: true,
            listedSessions: [
              { sessionId: 'l1', cwd, title: 'one' },
              { sessionId: 'l2', cwd, title: 'two' },
            ],
          },
          fs.mkdtempSync(path.join(os.tmpdir(), 'acp-loop-')),
        ),
        flood: agent(
          'Flooding Agent',
          { agentCapabilities: { sessionCapabilities: { list: {} } }, listPageSize: 5_000, listedSessions: hostile },
          fs.mkdtempSync(path.join(os.tmpdir(), 'acp-flood-')),
        ),
        locked: agent(
          'Locked Agent',
          {
            agentCapabilities: { sessionCapabilities: { list: {} } },
            requireAuth: true,
            authMethods: [{ id: 'key', name: 'API key' }],
          },
          fs.mkdtempSync(path.join(os.tmpdir(), 'acp-locked-')),
        ),
        stuck: agent(
          'Stuck Agent',
          {
            agentCapabilities: { sessionCapabilities: { list: {} } },
            hang: { 'session/list': 1 },
            eventsFile: stuckEvents,
          },
          fs.mkdtempSync(path.join(os.tmpdir(), 'acp-stuck-')),
        ),
        loader: agent('Loading Agent', { agentCapabilities: { loadSession: true } }),
        mute: agent('Agent Without History', {}),
        missing: { name: 'Missing Agent', command: '/nonexistent/agent-binary' },
      },
      vscode.ConfigurationTarget.Global,
    );
    api = await acpApi();
    await api.chat.refreshAgents();
    api.sessionsTree.refresh();
  });

  const children = (agentId: string): Promise<SessionNode[]> => agentChildren(api, agentId);
  const labels = (nodes: SessionNode[]) => nodes.map((n) => String(api.sessionsTree.getTreeItem(n).label));

  const talk = async (agentId: string, text: string) => (await talkOnce(api, agentId, text)).sessionId;

  it('lists the installed agents; the ones that are not, under one "Install more agents…"', async () => {
    const roots = await api.sessionsTree.getChildren();
    const items = roots.map((n) => api.sessionsTree.getTreeItem(n));
    const more = roots.findIndex((n) => n.kind === 'more');
    assert.equal(more, roots.length - 1, 'last, when some agent is not installed (the built-ins are not, here)');
    assert.equal(String(items[more].label), 'Install more agents…');
    assert.ok(items.slice(0, more).length > 0 && items.slice(0, more).every((i) => i.description !== 'not installed'));
    const missing = await api.sessionsTree.getChildren(roots[more]);
    assert.ok(missing.length > 0);
    assert.ok(
      missing.every((n) => n.kind === 'agent' && api.sessionsTree.getTreeItem(n).description === 'not installed'),
    );
  });

  it('an agent that lists: its sessions page by page, with Load more until the last page', async () => {
    for (const text of ['first', 'second', 'third']) await talk('pager', text);
    api.sessionsTree.refresh();
    let nodes = await children('pager');
    // The first page has two; the saved one it did not reach is still shown (a partial listing says nothing of it).
    assert.deepEqual(labels(nodes), ['third', 'second', 'first', 'Load more']);
    assert.ok(
      nodes[2].kind === 'session' && nodes[2].saved && !nodes[2].listed && !nodes[2].stale,
      'saved, not listed yet, not stale',
    );
    await vscode.commands.executeCommand('vscode-acp.sessions.more', nodes.at(-1));
    nodes = await children('pager');
    assert.deepEqual(labels(nodes), ['third', 'second', 'first']);
    const item = api.sessionsTree.getTreeItem(nodes[0]);
    assert.equal(
      item.contextValue,
      'session.load.resume.saved',
      'Load with History and Resume without History are both offered',
    );
  });

  it('a listed session this workspace has not saved opens loaded with its history, shown once', async () => {
    const sessionId = await talk('pager', 'only on the agent');
    const entry = (await api.sessions.list()).find((s) => s.sessionId === sessionId)!;
    await api.sessions.delete(entry.key);
    api.sessionsTree.refresh();
    const nodes = await children('pager');
    const node = nodes.find((n) => n.kind === 'session' && n.listed?.sessionId === sessionId);
    assert.ok(node && node.kind === 'session' && !node.saved, 'listed, not saved');
    await vscode.commands.executeCommand('vscode-acp.sessions.loadWithHistory', node);
    const chat = api.chats.shown;
    await waitFor(chat, 'the load', () => chat.connection === 'connected');
    const text = threadToMarkdown(chat.thread);
    assert.match(
      text,
      /^## User\n\nonly on the agent\n\n## Assistant\n\nListed reply\.\n\n> info: The session continues \(loaded by the agent\)\.\n$/,
    );
    for (let i = 0; i < 50 && !(await api.sessions.list()).some((e) => e.sessionId === sessionId); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(
      (await api.sessions.list()).some((e) => e.sessionId === sessionId),
      "opened, it is saved in this workspace's history again",
    );
    await api.chats.close(chat.id);
  });

  it('a saved session a complete listing no longer has is marked stale', async () => {
    const sessionId = await talk('pager', 'to be forgotten');
    for (const file of fs.readdirSync(store)) if (file.startsWith(sessionId)) fs.rmSync(path.join(store, file));
    api.sessionsTree.refresh();
    let nodes = await children('pager');
    while (labels(nodes).includes('Load more')) {
      await vscode.commands.executeCommand('vscode-acp.sessions.more', nodes.at(-1));
      nodes = await children('pager');
    }
    const stale = nodes.find((n) => n.kind === 'session' && n.saved?.sessionId === sessionId);
    assert.ok(stale && stale.kind === 'session' && stale.stale, 'stale');
    assert.equal(api.sessionsTree.getTreeItem(stale).description, 'the agent no longer has it');
  });

  it("a listing reconciles the saved history: a saved session the agent lists under another title takes the agent's", async () => {
    const sessionId = await talk('pager', 'titled by the agent');
    // This workspace's copy says otherwise (an older title).
    const saved = (await api.sessions.list()).find((s) => s.sessionId === sessionId)!;
    await api.sessions.save({
      agentId: saved.agentId,
      sessionId,
      cwd: saved.cwd,
      title: 'an older title',
      thread: emptyThread,
    });
    assert.equal((await api.sessions.list()).find((s) => s.sessionId === sessionId)?.title, 'an older title');
    const before = (await api.sessions.list()).map((s) => s.sessionId);
    api.sessionsTree.refresh();
    await children('pager');
    const after = await api.sessions.list();
    assert.equal(after.find((s) => s.sessionId === sessionId)?.title, 'titled by the agent');
    assert.deepEqual(
      after.map((s) => s.sessionId),
      before,
      'nothing added, the order kept',
    );
  });

  it('a cursor that loops stops with a note; a hostile listing is cleaned, deduplicated and bounded', async () => {
    assert.deepEqual(labels(await children('looper')), ['one', 'Load more']);
    await vscode.commands.executeCommand('vscode-acp.sessions.more', (await children('looper')).at(-1));
    assert.deepEqual(labels(await children('looper')), ['one', "The agent's listing repeats itself: stopped here."]);
    const flood = await children('flood');
    const sessions = flood.filter((n) => n.kind === 'session');
    assert.equal(sessions.length, 1_000);
    assert.equal(labels(flood).at(-1), 'Only the first 1,000 are listed.');
    assert.equal(
      new Set(sessions.map((n) => n.kind === 'session' && n.listed?.sessionId)).size,
      1_000,
      'no duplicates',
    );
    const markup = String(api.sessionsTree.getTreeItem(sessions[0]).label);
    assert.ok(
      markup.startsWith('<img src=x onerror=alert(1)> evil x') && markup.length <= 200 && !markup.includes('\u202e'),
      markup.slice(0, 80),
    );
  });

  it('a listing given up by Refresh: the agent is told ($/cancel_request), and the next listing is answered', async () => {
    // A chat keeps the agent's process: the listing after the Refresh goes to the same one (its second listing).
    const chat = api.chats.newChat();
    chat.selectAgent('stuck');
    assert.ok(await chat.connect());
    const first = children('stuck');
    for (let i = 0; i < 100 && !stuckSaid().includes('hanging session/list'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(stuckSaid(), /hanging session\/list/);
    api.sessionsTree.refresh();
    // The tree asked during the Refresh gets the new listing's answer (the chat's session), not the one given up.
    assert.deepEqual(labels(await first), ['Untitled session']);
    assert.match(stuckSaid(), /hanging session\/list\ncancelled session\/list\n/, 'the agent was told');
    await api.chats.close(chat.id);
  });

  it('sign-in required to list: offered, and the listing follows', async () => {
    const nodes = await children('locked');
    assert.deepEqual(labels(nodes), ['Sign in to Locked Agent to list its sessions']);
    await withQuickPick(
      (items) => items[0],
      () => Promise.resolve(vscode.commands.executeCommand('vscode-acp.sessions.signIn', nodes[0])),
    );
    assert.deepEqual(labels(await children('locked')), ['No sessions yet']);
  });

  it("an agent that cannot list shows this workspace's history; one that cannot continue says so; a missing one says it is missing", async () => {
    await talk('loader', 'saved here');
    api.sessionsTree.refresh();
    assert.deepEqual(labels(await children('loader')), [
      "Loading Agent cannot list its sessions: this workspace's history",
      'saved here',
    ]);
    assert.deepEqual(labels(await children('mute')), ['Agent Without History cannot continue earlier sessions']);
    assert.deepEqual(labels(await children('missing')), ['Missing Agent was not found']);
  });
});
