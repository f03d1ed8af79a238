/**
 * A real agent through the extension, in code-server's Node extension host,
 * against its local fake model (test/real-agents/agents.mjs says which agent
 * and what to expect of it). The same steps for every agent, each played by
 * its own tools: a reply, a new file and an edit with the permission allowed
 * and the result checked on disk, a shell command, a command rejected,
 * control changes, a reconnect that continues the session, and no agent
 * process left after Disconnect.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PermissionChoice, PermissionPrompt } from '../../../src/shared/permissions';
import type { Entry, ToolEntry } from '../../../src/shared/thread/thread';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from '../shared/assert';
import { acpApi, activeChat, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { PIXEL_PNG } from '../shared/attachmentFixtures';
import { agentPids, commandPids, fakeLog, realAgentConfig, type FakeRequest, type RealAgentConfig } from './config';
import { agentSessionNodes } from './realChat';

interface Turn {
  /** The permission prompt as the chat showed it (none when the agent did not ask). */
  readonly prompt?: PermissionPrompt;
  /** The entries this turn added. */
  readonly entries: readonly Entry[];
  /** The tool call the prompt was about, as the thread has it at the end of the turn. */
  readonly tool?: ToolEntry;
  /** The same call as the thread had it while the prompt waited. */
  readonly asked?: ToolEntry;
  /** The turn's last assistant text. */
  readonly reply: string;
  /** The fake endpoint's requests during the turn. */
  readonly requests: readonly FakeRequest[];
  readonly ms: number;
}

const config: RealAgentConfig = realAgentConfig();

describe(`${config.agent.name} (real agent, fake model) through the extension`, function () {
  this.timeout(180_000);
  const s = config.scenario;
  let chat: Chat;
  let connectedAt = 0;

  /** Sends `text`; answers its one permission prompt with `choice` (when given); waits for the turn to end. */
  async function turn(text: string, choice?: PermissionChoice): Promise<Turn> {
    const started = Date.now();
    const before = chat.thread.entries.length;
    const logBefore = (await fakeLog(config)).length;
    const sent = chat.composer.send(text);
    let prompt: PermissionPrompt | undefined;
    let asked: ToolEntry | undefined;
    if (choice) {
      // A scripted turn asks within seconds; 30 s leaves room for a slow machine.
      await waitFor(chat, `the permission prompt for "${text}"`, () => chat.status.permissions.length > 0, 30_000);
      assert.equal(chat.status.permissions.length, 1, 'one permission prompt at a time');
      prompt = chat.status.permissions[0]!;
      // The call is in the chat while the prompt waits (Gemini CLI announces it only in the request).
      asked = chat.thread.entries.find(
        (e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === prompt!.tool.toolCallId,
      );
      assert.ok(asked, 'the call is shown while it waits');
      chat.permissions.answer(prompt.requestId, choice);
    }
    await sent;
    await waitFor(chat, 'the end of the turn', () => chat.thread.turn === 'idle', 60_000);
    assert.equal(chat.status.permissions.length, 0, 'no prompt left');
    const entries = chat.thread.entries.slice(before);
    const tool =
      prompt && entries.find((e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === prompt!.tool.toolCallId);
    const replies = entries.filter((e) => e.kind === 'assistant').map((e) => (e.kind === 'assistant' ? e.text : ''));
    const requests = (await fakeLog(config)).slice(logBefore);
    const ms = Date.now() - started;
    console.log(`    "${text}": ${ms} ms`);
    return { prompt, entries, tool, asked, reply: replies[replies.length - 1] ?? '', requests, ms };
  }

  /** Every card of a turn is a real call: none "never started", none failed unless refused. */
  function cardsAreCalls(t: Turn): void {
    const text = threadToMarkdown({ ...chat.thread, entries: t.entries });
    assert.ok(!/never started|Unknown tool call/.test(text), `no card for a call "never started":\n${text}`);
  }

  before(async function () {
    chat = await activeChat();
    await vscode.workspace
      .getConfiguration('vscode-acp')
      .update('agents', { [config.agentId]: config.agent }, vscode.ConfigurationTarget.Global);
    await chat.refreshAgents();
    chat.selectAgent(config.agentId);
    assert.equal(chat.status.selectedAgentId, config.agentId, JSON.stringify(chat.status.agents));
    for (const file of [s.edit, s.rewrite]) if (file) fs.writeFileSync(file.file, file.before);
  });

  afterEach(async function () {
    // A failed test must not leave a turn (or a prompt) for the next one.
    if (chat?.thread.turn === 'running') {
      await vscode.commands.executeCommand('vscode-acp.stop');
      await waitFor(chat, 'the stopped turn', () => chat.thread.turn === 'idle', 15_000).catch(() => undefined);
    }
  });

  it('connects, and the chat names the agent as it names itself', async () => {
    const started = Date.now();
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(
      chat,
      'connected',
      () => chat.status.connection === 'connected' || chat.status.connection === 'failed',
      90_000,
    );
    assert.equal(chat.status.connection, 'connected', threadToMarkdown(chat.thread));
    connectedAt = Date.now();
    console.log(`    CONNECT ${config.agentId} ${connectedAt - started} ms`);
    assert.equal(chat.status.agentLabel, config.expect.label);
  });

  it("a reply: the model's text, streamed into one answer", async () => {
    const t = await turn(s.reply.prompt);
    assert.equal(t.reply, s.reply.text, threadToMarkdown({ ...chat.thread, entries: t.entries }));
    assert.equal(t.entries.filter((e) => e.kind === 'assistant').length, 1, 'one answer');
  });

  it('Steer: a message queued during an answer goes into it, and the model hears it in that turn (agents that steer)', async function () {
    const steer = s.steer;
    if (!steer) return this.skip();
    const before = chat.thread.entries.length;
    const logBefore = (await fakeLog(config)).length;
    const sent = chat.composer.send(steer.marker);
    await waitFor(
      chat,
      'the slow answer to start',
      () => chat.thread.entries.slice(before).some((e) => e.kind === 'assistant'),
      60_000,
    );
    assert.equal(chat.status.steers, true, 'offered while the agent answers');
    await chat.composer.send(steer.text);
    const queued = chat.status.queued.find((q) => q.text === steer.text);
    assert.ok(queued, 'queued while the agent answers');
    await chat.composer.queued('steer', queued.id);
    await sent;
    await waitFor(chat, 'the end of the turn', () => chat.thread.turn === 'idle', 60_000);
    const entries = chat.thread.entries.slice(before);
    const shown = entries.map((e) => (e.kind === 'user' ? `${e.steered ? 'steered' : 'user'}: ${e.text}` : e.kind));
    // An agent that pulls takes the message after the answer's tool call, and shows it there.
    assert.deepEqual(
      shown.filter((line) => line !== 'notice'),
      ['user: ' + steer.marker, 'assistant', ...(steer.pulled ? ['tool'] : []), 'steered: ' + steer.text, 'assistant'],
      threadToMarkdown({ ...chat.thread, entries }),
    );
    const last = entries.at(-1);
    assert.ok(last?.kind === 'assistant' && last.text === steer.reply, threadToMarkdown({ ...chat.thread, entries }));
    assert.deepEqual(chat.status.queued, [], 'taken off the queue');
    const asked = (await fakeLog(config)).slice(logBefore).filter((r) => r.answered === `reply:${steer.text}`);
    assert.equal(asked.length, 1, 'the model was asked again, with the steered text');
    assert.ok(asked[0]!.userTexts?.includes(steer.marker), 'in the same conversation as the prompt');
    if (steer.pulled) {
      assert.ok(asked[0]!.toolResults?.length, 'after the tool result, in the same turn');
      assert.ok(asked[0]!.lastUserText?.includes(steer.text), JSON.stringify(asked[0]));
    }
  });

  it('an MCP server from the settings: the agent starts it for a new session, with its ${env:...} value resolved', async () => {
    const record = path.join(os.tmpdir(), `acp-real-mcp-${process.pid}-${Date.now()}.json`);
    const secret = process.env.ACP_REAL_MCP_SECRET;
    assert.ok(secret, 'run.mjs sets ACP_REAL_MCP_SECRET');
    const root = path.resolve(__dirname, '../../..');
    const settings = vscode.workspace.getConfiguration('vscode-acp');
    await settings.update(
      'mcpServers',
      [
        {
          name: 'acp-test',
          command: process.execPath,
          args: [path.join(root, 'test/real-agents/mcpServer.mjs'), record],
          env: [{ name: 'MCP_TEST_TOKEN', value: '${env:ACP_REAL_MCP_SECRET}' }],
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    const api = await acpApi();
    const other = api.chats.newChat();
    try {
      other.selectAgent(config.agentId);
      assert.equal(await other.connect(), true, threadToMarkdown(other.thread));
      assert.ok(!other.thread.entries.some((e) => e.kind === 'notice' && /MCP/.test(e.text)), 'nothing was left out');
      const deadline = Date.now() + 30_000;
      while (!fs.existsSync(record) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.ok(fs.existsSync(record), `${config.agent.name} did not start the MCP server within 30 s of session/new`);
      // Give the agent a moment to finish its handshake with the server.
      for (let i = 0; i < 50 && !JSON.parse(fs.readFileSync(record, 'utf8')).requests.includes('tools/list'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const started = JSON.parse(fs.readFileSync(record, 'utf8')) as {
        token: string | null;
        args: string[];
        requests: string[];
      };
      assert.equal(started.token, secret, 'the server got the resolved value');
      assert.deepEqual(started.args, [record]);
      console.log(`    MCP ${config.agentId}: ${started.requests.join(', ')}`);
      // (Claude Code asks `server/discover` first, and initializes when the server does not know it.)
      assert.ok(
        started.requests.includes('initialize') && started.requests.includes('tools/list'),
        started.requests.join(', '),
      );
      // The secret was resolved into the session, and appears nowhere in the chat.
      assert.ok(!JSON.stringify(other.thread).includes(secret!), 'the value is not in the transcript');
    } finally {
      await api.chats.close(other.id);
      await settings.update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(record, { force: true });
    }
  });

  it('attachments: a file embedded and an image reach the model (agents that take them)', async function () {
    if (!config.expect.attachments) return this.skip();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const notes = vscode.Uri.joinPath(folder, 'attached-notes.txt');
    const pixel = vscode.Uri.joinPath(folder, 'attached-pixel.png');
    await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode('The secret word is marmalade.\n'));
    await vscode.workspace.fs.writeFile(pixel, PIXEL_PNG);
    await vscode.commands.executeCommand('vscode-acp.attachFiles', [notes, pixel]);
    await waitFor(
      chat,
      'the attachments read',
      () => chat.status.attachments.length === 2 && chat.status.attachments.every((a) => a.state === 'ready'),
    );
    const t = await turn('What is in the attachments?');
    const asked = t.requests.find((r) => (r.lastUserImages?.length ?? 0) > 0);
    assert.ok(asked, `a model request with the image: ${JSON.stringify(t.requests).slice(0, 2000)}`);
    assert.deepEqual(asked!.lastUserImages, [
      { mediaType: 'image/png', data: btoa(String.fromCharCode(...PIXEL_PNG)) },
    ]);
    // The file's text, however the agent puts it before its model (in the prompt, or a context message of its own).
    assert.ok(
      t.requests.some((r) =>
        [r.lastUserText ?? '', ...(r.userTexts ?? [])].some((text) => text.includes('The secret word is marmalade.')),
      ),
      `a model request with the file's text: ${JSON.stringify(t.requests.map((r) => r.lastUserText)).slice(0, 2000)}`,
    );
    assert.equal(t.reply, s.reply.text);
  });

  it("a new file: the prompt shows it, Allow once writes it with the agent's own tool", async () => {
    const t = await turn(s.create.marker, 'allow_once');
    assert.ok(t.prompt && t.tool);
    assert.equal(t.prompt.tool.toolKind, 'edit');
    assert.equal(fs.readFileSync(s.create.file, 'utf8'), s.create.content);
    assert.equal(t.tool.status, 'completed', JSON.stringify(t.tool));
    assert.ok(
      t.tool.content.some((c) => c.type === 'diff' && c.path === s.create.file),
      `the card shows the diff: ${JSON.stringify(t.tool.content)}`,
    );
    assert.equal(t.reply, s.create.doneText);
    cardsAreCalls(t);
  });

  it('an edit of an existing file: Allow once changes it on disk, the card keeps its diff', async function () {
    const edit = s.edit;
    if (!edit) return this.skip();
    const t = await turn(edit.marker, 'allow_once');
    assert.ok(t.tool);
    assert.equal(fs.readFileSync(edit.file, 'utf8'), edit.after);
    assert.equal(t.tool.status, 'completed');
    assert.ok(
      t.tool.content.some((c) => c.type === 'diff' && c.path === edit.file),
      `the card shows the diff: ${JSON.stringify(t.tool.content)}`,
    );
    assert.equal(t.reply, edit.doneText);
    cardsAreCalls(t);
  });

  it('an existing file written whole, its old text not sent: the prompt and the card show what it changes', async function () {
    const rewrite = s.rewrite;
    if (!rewrite) return this.skip();
    const t = await turn(rewrite.marker, 'allow_once');
    assert.ok(t.prompt && t.asked && t.tool);
    // As texts (v1: read from the file; the card at the end, the adapter's own diff, its lines joined without the
    // last newline), or as a structured change (v2) whose hunks remove the old lines and add the new ones.
    const lines = (text: string) => text.replace(/\n$/, '');
    const removed = rewrite.before.split('\n').filter((l) => l && !rewrite.after.split('\n').includes(l));
    const added = rewrite.after.split('\n').filter((l) => l && !rewrite.before.split('\n').includes(l));
    const showsChange = (c: ToolEntry['content'][number] | undefined): boolean => {
      if (c?.type !== 'diff' || c.path !== rewrite.file) return false;
      if (c.change) {
        const hunkLines = (c.hunks ?? []).flatMap((h) => h.lines);
        return [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)].every((l) => hunkLines.includes(l));
      }
      return (
        c.oldText !== null && lines(c.oldText) === lines(rewrite.before) && lines(c.newText) === lines(rewrite.after)
      );
    };
    for (const [what, content] of [
      ['the prompt', t.prompt.tool.content],
      ['the card while the prompt waits', t.asked.content],
      ['the card at the end', t.tool.content],
    ] as const) {
      assert.ok(content.some(showsChange), `${what} shows what the write changes: ${JSON.stringify(content)}`);
    }
    assert.equal(fs.readFileSync(rewrite.file, 'utf8'), rewrite.after);
    assert.equal(t.reply, rewrite.doneText);
    cardsAreCalls(t);
  });

  it("the Changes bar lists what the agent wrote with its own tools; Undo is refused after the user's edit, puts back the agent's edit, a restore keeps the user's edit, Keep All empties it", async () => {
    const api = await acpApi();
    const shown = api.chats.shown;
    const bar = () => chat.status.changes.files.map((f) => `${f.kind} ${f.path}`);
    await waitFor(chat, 'the Changes bar', () => bar().includes(`created ${s.create.file}`), 15_000);
    if (s.edit) assert.ok(bar().includes(`edited ${s.edit.file}`), bar().join('\n'));
    // The user edits the new file: Undo leaves it as the user has it, and says so.
    fs.writeFileSync(s.create.file, "the user's own text\n");
    await shown.changes!.undo(s.create.file);
    assert.equal(fs.readFileSync(s.create.file, 'utf8'), "the user's own text\n");
    assert.match(transcript(chat), /Undo left a file as it is: .* was changed since the agent's change/);
    if (s.edit) {
      await shown.changes!.undo(s.edit.file);
      assert.equal(fs.readFileSync(s.edit.file, 'utf8'), s.edit.before, "the agent's edit is undone, byte for byte");
      fs.writeFileSync(s.edit.file, s.edit.after);
    }
    // Restore to the prompt that created the file: the user's edit in between is kept.
    const window = vscode.window as unknown as {
      showWarningMessage: (m: string, o: { detail?: string }, ...items: string[]) => Promise<string | undefined>;
    };
    const real = window.showWarningMessage;
    let detail = '';
    window.showWarningMessage = async (_m, o, ...items) => ((detail = o.detail ?? ''), items[0]);
    try {
      const createPrompt = chat.thread.entries
        .filter((e) => e.kind === 'user')
        .find((e) => e.kind === 'user' && e.text === s.create.marker);
      assert.ok(
        createPrompt && chat.status.checkpoints.includes(createPrompt.id),
        JSON.stringify(chat.status.checkpoints),
      );
      await shown.changes!.restoreTo(createPrompt.id);
    } finally {
      window.showWarningMessage = real;
    }
    assert.match(detail, /Left as they are[^]*was changed since the agent's change/);
    assert.equal(fs.readFileSync(s.create.file, 'utf8'), "the user's own text\n", "the user's edit is kept");
    fs.writeFileSync(s.create.file, s.create.content);
    // Keep All: the bar empties, the files stay as they are.
    shown.changes!.keep();
    assert.equal(chat.status.changes.total, 0);
    assert.equal(fs.readFileSync(s.create.file, 'utf8'), s.create.content);
  });

  it("the agent's edit reviewed hunk by hunk in its editor: one change kept, the other undone", async function () {
    const edit = s.edit;
    if (!edit) return this.skip();
    // The file as before, and the agent edits it again (in two places a line apart).
    fs.writeFileSync(edit.file, edit.before);
    await turn(edit.marker, 'allow_once');
    assert.equal(fs.readFileSync(edit.file, 'utf8'), edit.after);
    const [before, after] = [edit.before.split('\n'), edit.after.split('\n')];
    const changed = after.map((line, i) => (line === before[i] ? -1 : i)).filter((i) => i >= 0);
    assert.equal(changed.length, 2, 'the scenario changes two lines a line apart');
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(edit.file));
    try {
      const keeps = async () =>
        (
          (await vscode.commands.executeCommand<vscode.CodeLens[]>(
            'vscode.executeCodeLensProvider',
            editor.document.uri,
          )) ?? []
        )
          .filter((l) => l.command?.command === 'vscode-acp.keepChange')
          .map((l) => l.range.start.line);
      for (let i = 0; i < 100 && (await keeps()).length !== 2; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(await keeps(), changed, 'a Keep above each changed line');
      editor.selection = new vscode.Selection(changed[0]!, 0, changed[0]!, 0);
      await vscode.commands.executeCommand('vscode-acp.keepChange');
      for (let i = 0; i < 100 && (await keeps()).length !== 1; i++) await new Promise((r) => setTimeout(r, 100));
      await vscode.commands.executeCommand('vscode-acp.nextChange');
      assert.equal(editor.selection.active.line, changed[1]);
      await vscode.commands.executeCommand('vscode-acp.undoChange');
      const expected = after.map((line, i) => (i === changed[1] ? before[i] : line)).join('\n');
      assert.equal(fs.readFileSync(edit.file, 'utf8'), expected, 'the first change kept, the second undone');
      await waitFor(
        chat,
        'the file out of the Changes bar',
        () => !chat.status.changes.files.some((f) => f.path === edit.file),
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      fs.writeFileSync(edit.file, edit.after);
    }
  });

  it('a shell command: shown as a command line, Allow once runs it', async () => {
    const t = await turn(s.shell.marker, 'allow_once');
    assert.ok(t.prompt && t.tool);
    assert.equal(t.prompt.tool.toolKind, 'execute');
    const shown = t.tool.input ?? t.prompt.tool.input ?? t.tool.title;
    assert.ok(
      shown.includes(s.shell.command) && !shown.trimStart().startsWith('{'),
      `the command as a command line: ${shown}`,
    );
    assert.equal(fs.readFileSync(s.shell.file, 'utf8'), s.shell.fileContent);
    assert.equal(t.tool.status, 'completed');
    assert.equal(t.reply, s.shell.doneText);
    cardsAreCalls(t);
  });

  it('a command rejected: nothing runs, the card says it did not complete', async () => {
    const t = await turn(s.refuse.marker, 'reject');
    assert.ok(t.tool);
    assert.ok(!fs.existsSync(s.refuse.file), 'the command did not run');
    assert.ok(t.tool.status === 'failed' || t.tool.status === 'cancelled', `status ${t.tool.status}`);
    assert.ok(
      t.entries.some((e) => e.kind === 'notice' && e.text.startsWith('Reject: ')),
      'the answer is in the transcript',
    );
  });

  it('control changes: each one is taken by the agent, and a model change reaches the model', async () => {
    for (const change of config.expect.switches) {
      await chat.changeControl(
        change.kind === 'config'
          ? { kind: 'config', id: change.id, value: change.value }
          : { kind: change.kind, id: change.value },
      );
      const shows = () => {
        const c = chat.status.controls;
        if (change.kind === 'mode') return c.modes?.currentModeId === change.value;
        if (change.kind === 'model') return c.models?.currentModelId === change.value;
        return (
          change.kind === 'config' && c.configOptions.some((o) => o.id === change.id && o.currentValue === change.value)
        );
      };
      await waitFor(chat, `the agent to take ${JSON.stringify(change)}`, shows, 15_000);
      assert.ok(!/The agent refused the change/.test(transcript(chat)), transcript(chat));
      if (change.requestModel) {
        const t = await turn(s.reply.prompt);
        const models = t.requests.map((r) => r.model ?? r.path);
        assert.ok(
          models.some((m) => m.includes(change.requestModel!)),
          `the next turn asks ${change.requestModel}: ${JSON.stringify(models)}`,
        );
      }
    }
  });

  it(`Disconnect, then Connect: a new agent process continues the session (${config.expect.continuation}), the model hears the earlier turns`, async () => {
    if (config.expect.loadInNewMinute) {
      const nextMinute = (Math.floor(connectedAt / 60_000) + 1) * 60_000;
      await new Promise((r) => setTimeout(r, Math.max(0, nextMinute - Date.now() + 1_000)));
    }
    const before = transcript(chat);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(
      chat,
      'connected again',
      () => chat.status.connection === 'connected' || chat.status.connection === 'failed',
      90_000,
    );
    assert.equal(chat.status.connection, 'connected', threadToMarkdown(chat.thread));
    const after = transcript(chat);
    assert.ok(after.startsWith(before), 'the transcript stays');
    assert.match(
      after.slice(before.length),
      new RegExp(`The session continues \\(${config.expect.continuation} by the agent\\)\\.`),
    );
    const t = await turn('Do you remember what we did?');
    const told = t.requests.flatMap((r) => r.userTexts ?? []);
    assert.ok(
      told.some((text) => text.includes(s.create.marker)),
      `the model was told the earlier turns: ${JSON.stringify(told)}`,
    );
  });

  it("the chat is in this workspace's history and the Sessions tree; opened from there in a new chat, resumed or loaded as chosen, it continues", async () => {
    const api = await acpApi();
    const shown = api.chats.shown;
    const sessionId = shown.sessionRef?.sessionId;
    assert.ok(sessionId, 'the chat has a session');
    assert.ok(
      (await api.sessions.list()).some((e) => e.sessionId === sessionId),
      'saved after its turns',
    );
    const nodes = await agentSessionNodes(api, config, sessionId);
    const labels = nodes.map((n) => String(api.sessionsTree.getTreeItem(n).label));
    const node = nodes.find(
      (n) => n.kind === 'session' && (n.listed?.sessionId === sessionId || n.saved?.sessionId === sessionId),
    );
    assert.ok(node && node.kind === 'session', `this chat's session is in the tree: ${JSON.stringify(labels)}`);
    assert.equal(!!node.listed, config.expect.lists, `listed by the agent itself: ${JSON.stringify(labels)}`);
    const { canLoad, canResume } = api.sessionsTree.abilities(config.agentId);
    console.log(`    tree: ${labels.length} items, load ${canLoad}, resume ${canResume}`);
    const ways = [...(canResume ? ['resume' as const] : []), ...(canLoad ? ['load' as const] : [])];
    assert.ok(ways.length > 0, 'the agent can continue a session somehow');
    await api.chats.close(shown.id);
    for (const how of ways) {
      if (how === 'load' && config.expect.loadInNewMinute) {
        const nextMinute = (Math.floor(Date.now() / 60_000) + 1) * 60_000;
        await new Promise((r) => setTimeout(r, Math.max(0, nextMinute - Date.now() + 1_000)));
      }
      await vscode.commands.executeCommand(
        how === 'load' ? 'vscode-acp.sessions.loadWithHistory' : 'vscode-acp.sessions.resumeWithoutHistory',
        node,
      );
      const opened = api.chats.shown;
      assert.ok(opened.thread.entries.length > 0, 'the saved transcript is shown at once');
      const before = transcript(chat);
      const t = await turn('Do you remember what we did?');
      const after = transcript(chat);
      let at = 0;
      while (at < before.length && before[at] === after[at]) at++;
      assert.ok(
        after.startsWith(before),
        `the transcript stays; it differs at ${at} of ${before.length}:\n--- before\n${before.slice(Math.max(0, at - 300), at + 300)}\n--- after\n${after.slice(Math.max(0, at - 300), at + 300)}`,
      );
      assert.match(
        after,
        new RegExp(`The session continues \\(${how === 'load' ? 'loaded' : 'resumed'} by the agent\\)\\.`),
      );
      assert.equal(
        chat.thread.entries.filter((e) => e.kind === 'user' && e.text.includes(s.create.marker)).length,
        1,
        `${how}: the earlier prompt once: a load does not show the replay twice:\n${after}`,
      );
      const told = t.requests.flatMap((r) => r.userTexts ?? []);
      const remembers = told.some((text) => text.includes(s.create.marker));
      if (how === 'load' && config.expect.secondLoadForgets) {
        assert.ok(
          !remembers,
          'Gemini CLI now keeps the history on a second load: drop secondLoadForgets and its README note',
        );
      } else assert.ok(remembers, `${how}: the model was told the earlier turns: ${JSON.stringify(told)}`);
      if (how !== ways.at(-1)) await api.chats.close(opened.id);
    }
  });

  it('Disconnect while the agent runs a command ends the agent and the command', async () => {
    assert.ok(agentPids(config).length > 0, 'the agent runs');
    const sent = chat.composer.send(s.long.marker);
    const until = async (what: string, check: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) {
          throw new Error(`not within ${ms / 1000} s: ${what}\n${transcript(chat).slice(-1500)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    // Allowed when asked (an agent may run a harmless command without asking).
    await until(
      `\`${s.long.process}\` running`,
      () => {
        const prompt = chat.status.permissions[0];
        if (prompt) chat.permissions.answer(prompt.requestId, 'allow_once');
        return commandPids(s.long.process).length > 0;
      },
      30_000,
    );
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await sent;
    await until(
      'no agent process and no command left',
      () => agentPids(config).length === 0 && commandPids(s.long.process).length === 0,
      5_000,
    ).catch((e: Error) =>
      assert.ok(
        false,
        `${e.message}: agent ${agentPids(config).join(' ')}, command ${commandPids(s.long.process).join(' ')}`,
      ),
    );
  });

  it('an agent that needs a sign-in: the chat offers the methods the agent names, and connects to nothing when none is picked', async function () {
    const signIn = config.expect.signIn;
    if (!signIn) return this.skip();
    const id = `${config.agentId}-signed-out`;
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        [config.agentId]: config.agent,
        [id]: {
          ...config.agent,
          name: `${config.agent.name}, signed out`,
          env: { ...config.agent.env, ...signIn.env },
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    await chat.refreshAgents();
    chat.selectAgent(id);
    // The test's window API is the extension's (the same extension): see what the pick offers, and pick nothing.
    type Pick = (
      items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
    ) => Promise<undefined>;
    const window = vscode.window as unknown as { showQuickPick: Pick };
    const real = window.showQuickPick;
    let offered: string[] | undefined;
    window.showQuickPick = async (items) => {
      offered = (await items).map((i) => i.label);
      return undefined;
    };
    try {
      if (signIn.atPrompt) {
        // Sessions open; the first prompt is refused, and the chat's notice offers Sign in.
        await vscode.commands.executeCommand('vscode-acp.connect');
        await waitFor(
          chat,
          'connected',
          () => chat.status.connection === 'connected' || chat.status.connection === 'failed',
          90_000,
        );
        assert.equal(chat.status.connection, 'connected', transcript(chat));
        await chat.composer.send(s.reply.prompt);
        await waitFor(chat, 'the refused turn to end', () => chat.thread.turn === 'idle', 60_000);
        const notice = chat.thread.entries.at(-1);
        assert.ok(notice?.kind === 'notice' && notice.action === 'signIn', transcript(chat).slice(-800));
        // The notice's Sign in button.
        await (await acpApi()).chats.shown.signIn();
        await vscode.commands.executeCommand('vscode-acp.disconnect');
      } else {
        await vscode.commands.executeCommand('vscode-acp.connect');
        await waitFor(
          chat,
          'the connect to give up',
          () => chat.status.connection === 'failed' || chat.status.connection === 'disconnected',
          60_000,
        );
      }
    } finally {
      window.showQuickPick = real;
    }
    assert.equal(JSON.stringify(offered), JSON.stringify(signIn.methods));
    assert.match(
      transcript(chat),
      signIn.atPrompt
        ? /needs you to sign in before it can start a session\.\n$/
        : /needs you to sign in before it can start a session\./,
    );
    const deadline = Date.now() + 5_000;
    while (agentPids(config).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.equal(agentPids(config).join(' '), '', 'the agent was ended');
  });
});
