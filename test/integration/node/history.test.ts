/**
 * Node host: this workspace's chat history. A chat is saved once a turn in
 * it finished; a saved chat opens at once with its local transcript, before
 * any agent answers, and its first prompt continues the session (resumed,
 * or loaded without showing the replay twice); maxHistory prunes; a saved
 * session the agent no longer knows becomes a new one that says so; a history
 * edited by hand into garbage loses only what does not parse.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { OpenChat } from '../../../src/extension';
import { HistoryStore } from '../../../src/history/historyStore';
import type { AcpExtensionApi, OpenChats } from '../../../src/extension';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from '../shared/assert';
import { acpApi } from '../shared/chatWaits';
import { talkOnce } from '../shared/savedChats';
import { withQuickPick } from '../shared/dialogs';

const root = path.resolve(__dirname, '../../..');

function scenario(agentCapabilities: object): string {
  return JSON.stringify({
    // MCP over HTTP, as every agent we test takes it (the editor server is given then, not a notice).
    agentCapabilities: { mcpCapabilities: { http: true }, ...agentCapabilities },
    turns: [
      { match: 'recall', steps: [{ reportHistory: true }] },
      {
        match: '',
        steps: [
          { toolCall: { toolCallId: 'read-1', title: 'Read a.txt', kind: 'read', status: 'completed' } },
          { text: 'Hello from history.' },
        ],
      },
    ],
  });
}

const config = () => vscode.workspace.getConfiguration('vscode-acp');

describe('chat history (Node host)', function () {
  this.timeout(60_000);
  let api: AcpExtensionApi;
  let chats: OpenChats;
  let sessionsDir: string;

  before(async () => {
    sessionsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-history-'));
    const agent = (name: string, capabilities: object, dir = sessionsDir) => ({
      name,
      command: process.execPath,
      args: [path.join(root, 'dist/test/agent.js'), scenario(capabilities), '--sessions', dir],
    });
    await config().update(
      'agents',
      {
        resumes: agent('Resuming Agent', { sessionCapabilities: { resume: {} } }),
        loads: agent('Loading Agent', { loadSession: true }),
        amnesiac: agent(
          'Amnesiac Agent',
          { loadSession: true },
          fs.mkdtempSync(path.join(os.tmpdir(), 'acp-amnesia-')),
        ),
      },
      vscode.ConfigurationTarget.Global,
    );
    api = await acpApi();
    chats = api.chats;
    await api.chat.refreshAgents();
  });

  after(async () => {
    await config().update('sessions.maxHistory', undefined, vscode.ConfigurationTarget.Global);
  });

  /** A new chat with `agentId` that had one turn with the agent's reply, then is closed (its session ends). */
  async function chatOnce(agentId: string, text: string): Promise<{ sessionId: string; markdown: string }> {
    const once = await talkOnce(api, agentId, text);
    assert.match(once.markdown, /Hello from history/);
    return once;
  }

  async function savedEntry(sessionId: string) {
    const entry = (await api.sessions.list()).find((s) => s.sessionId === sessionId);
    assert.ok(entry, `session ${sessionId} is in the history`);
    return entry!;
  }

  it("a chat is saved after its first turn, titled by its first prompt, in this workspace's storage", async () => {
    const { sessionId } = await chatOnce('resumes', 'Fix the parser please');
    const entry = await savedEntry(sessionId);
    assert.equal(entry.title, 'Fix the parser please');
    assert.equal(entry.agentId, 'resumes');
    // Read as the store reads it: the file may be in the middle of a rewrite (the turn's changes are saved just after).
    const saved = await api.sessions.transcript(entry);
    assert.ok(!('error' in saved), JSON.stringify(saved));
    assert.deepEqual(
      (saved as { entries: Array<{ kind: string }> }).entries.map((e) => e.kind),
      ['user', 'tool', 'assistant'],
    );
    assert.ok(api.sessions.location!.fsPath.includes('workspaceStorage'), api.sessions.location!.fsPath);
    assert.ok(
      fs.readdirSync(api.sessions.location!.fsPath).some((name) => name.startsWith(`${entry.key}.json`)),
      'the transcript is a file there',
    );
  });

  it('a window that dies while a save replaces the index or a transcript loses neither', async () => {
    const { sessionId } = await chatOnce('resumes', 'survive the crash');
    const entry = await savedEntry(sessionId);
    await api.sessions.transcript(entry); // after the writes queued
    // VS Code's rename over a file deletes it, then renames: the state a crash between the two leaves.
    const folder = api.sessions.location!.fsPath;
    for (const name of ['index.json', `${entry.key}.json`]) {
      fs.renameSync(path.join(folder, name), path.join(folder, `${name}.new`));
    }
    const log = vscode.window.createOutputChannel('ACP history crash test', { log: true });
    const restarted = new HistoryStore(vscode.Uri.joinPath(api.sessions.location!, '..'), log);
    try {
      assert.ok(
        (await restarted.list()).some((s) => s.key === entry.key),
        "the history is read from the index's next version",
      );
      const saved = await restarted.transcript(entry);
      assert.ok(!('error' in saved), JSON.stringify(saved));
      const [first] = (saved as { entries: Array<{ kind: string; text?: string }> }).entries;
      assert.deepEqual([first.kind, first.text], ['user', 'survive the crash']);
    } finally {
      for (const name of ['index.json', `${entry.key}.json`]) {
        if (!fs.existsSync(path.join(folder, name))) {
          fs.renameSync(path.join(folder, `${name}.new`), path.join(folder, name));
        }
      }
      restarted.dispose();
      log.dispose();
    }
  });

  it('a saved chat opens at once with its transcript; the first prompt resumes the session, and the agent remembers', async () => {
    const { sessionId, markdown } = await chatOnce('resumes', 'first words');
    const entry = await savedEntry(sessionId);
    const opened: OpenChat = await api.openSaved(entry);
    assert.equal(chats.shown, opened);
    assert.equal(opened.connection, 'disconnected', 'shown before any agent is asked');
    assert.equal(threadToMarkdown(opened.thread), markdown);
    await opened.composer.send('recall');
    const text = threadToMarkdown(opened.thread);
    assert.ok(text.startsWith(markdown), text);
    assert.match(text, /The session continues \(resumed by the agent\)/);
    assert.match(text, /\[history of [^:]+: first words \| recall\]/);
    // Opening it again shows the chat that has it.
    assert.equal(await api.openSaved(entry), opened);
    await chats.close(opened.id);
  });

  it('loaded instead where the agent can only load: the replay is not shown twice', async () => {
    const { sessionId, markdown } = await chatOnce('loads', 'load me');
    const opened = await api.openSaved(await savedEntry(sessionId));
    await opened.composer.send('recall');
    const text = threadToMarkdown(opened.thread);
    assert.ok(text.startsWith(markdown), text);
    assert.equal(text.split('Hello from history.').length - 1, 1, `the earlier reply once:\n${text}`);
    assert.match(text, /The session continues \(loaded by the agent\)/);
    await chats.close(opened.id);
  });

  it('a saved session the agent no longer knows becomes a new session that says so', async () => {
    const { sessionId } = await chatOnce('amnesiac', 'remember me');
    const entry = await savedEntry(sessionId);
    // The agent's own store is gone (another machine, a cleaned cache).
    const store = String(config().get<Record<string, { args: string[] }>>('agents')!.amnesiac.args.at(-1));
    for (const file of fs.readdirSync(store)) fs.rmSync(path.join(store, file));
    const opened = await api.openSaved(entry);
    await opened.composer.send('hello again');
    assert.match(threadToMarkdown(opened.thread), /This is a new session: the agent could not continue it/);
    await chats.close(opened.id);
  });

  it("ACP: Load Session offers this workspace's saved chats, newest first, and opens the one picked", async () => {
    await chatOnce('resumes', 'pick me later');
    let offered: string[] = [];
    await withQuickPick(
      (all) => {
        offered = all.map((i) => `${i.label} (${i.description})`);
        return all.find((i) => i.label === 'pick me later');
      },
      () => Promise.resolve(vscode.commands.executeCommand('vscode-acp.loadSession')),
    );
    assert.equal(offered[0], 'pick me later (Resuming Agent)', JSON.stringify(offered));
    const opened = chats.shown;
    assert.match(threadToMarkdown(opened.thread), /^## User\n\npick me later\n/);
    await chats.close(opened.id);
  });

  it('maxHistory keeps the most recently used; the pruned transcripts are deleted', async () => {
    await config().update('sessions.maxHistory', 2, vscode.ConfigurationTarget.Global);
    const first = await chatOnce('resumes', 'one');
    const firstKey = (await savedEntry(first.sessionId)).key;
    await chatOnce('resumes', 'two');
    await chatOnce('resumes', 'three');
    const list = await api.sessions.list();
    assert.deepEqual(
      list.map((s) => s.title),
      ['three', 'two'],
    );
    // Deleted right after the index that no longer has it is written.
    const pruned = vscode.Uri.joinPath(api.sessions.location!, `${firstKey}.json`).fsPath;
    for (let i = 0; i < 40 && fs.existsSync(pruned); i++) await new Promise((r) => setTimeout(r, 50));
    assert.equal(fs.existsSync(pruned), false, 'the pruned transcript is deleted');
    await config().update('sessions.maxHistory', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a history edited by hand into garbage loses only what does not parse, and says so', async () => {
    const index = vscode.Uri.joinPath(api.sessions.location!, 'index.json').fsPath;
    const good = JSON.parse(fs.readFileSync(index, 'utf8')) as { sessions: unknown[] };
    fs.writeFileSync(
      index,
      JSON.stringify({ version: 1, sessions: [...good.sessions, { key: '../escape', agentId: 1 }, 'junk'] }),
    );
    const log = vscode.window.createOutputChannel('ACP history test', { log: true });
    const reread = new HistoryStore(vscode.Uri.joinPath(api.sessions.location!, '..'), log);
    const said: string[] = [];
    reread.onDidFail((text) => said.push(text));
    assert.equal((await reread.list()).length, good.sessions.length);
    assert.deepEqual(said, ["2 saved chat sessions in this workspace's history could not be read and are left out."]);
    // Not JSON at all: an empty history, said once; a damaged transcript opens with a notice.
    fs.writeFileSync(index, '{ not json');
    const broken = new HistoryStore(vscode.Uri.joinPath(api.sessions.location!, '..'), log);
    const saidBroken: string[] = [];
    broken.onDidFail((text) => saidBroken.push(text));
    assert.deepEqual(await broken.list(), []);
    // How many were lost: the transcripts beside the index say (it says nothing of itself).
    const lost = fs
      .readdirSync(api.sessions.location!.fsPath)
      .filter((f) => /^[a-z0-9-]+\.json$/.test(f) && f !== 'index.json').length;
    assert.ok(lost >= 2, `${lost} transcripts`);
    assert.deepEqual(saidBroken, [
      `${lost} saved chat sessions in this workspace's history could not be read and are left out.`,
    ]);
    const [entry] = good.sessions as Array<{ key: string }>;
    fs.writeFileSync(
      vscode.Uri.joinPath(api.sessions.location!, `${entry.key}.json`).fsPath,
      '{"version":1,"entries":[{"kind":"bogus"}]}',
    );
    const opened = await api.openSaved((await api.sessions.list()).find((s) => s.key === entry.key)!);
    assert.match(
      threadToMarkdown(opened.thread),
      /This chat's history could not be shown: its saved transcript is damaged/,
    );
    await chats.close(opened.id);
    reread.dispose();
    broken.dispose();
    log.dispose();
  });
});
