/**
 * A real agent through the extension: Claude Code's ACP agent
 * (@agentclientprotocol/claude-agent-acp, run by Node 24) against the local
 * fake Anthropic endpoint of test/real-agents/, in code-server's Node
 * extension host. The fake model asks for a tool (Write, Bash); Claude Code
 * asks the extension's permission queue; the test answers like a user would
 * and checks the prompt, the tool call card, the effect on disk, the final
 * text and what came back to the model.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { PermissionChoice, PermissionPrompt } from '../../../src/shared/permissions';
import type { Entry, ToolEntry } from '../../../src/shared/thread';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from '../shared/assert';
import { activeChat, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { fakeLog, realAgentConfig, type FakeRequest, type RealAgentConfig } from './config';


interface Turn {
  /** The permission prompt as the chat showed it. */
  readonly prompt: PermissionPrompt;
  /** The entries this turn added. */
  readonly entries: readonly Entry[];
  /** The tool call the prompt was about, as the thread has it at the end of the turn. */
  readonly tool: ToolEntry;
  /** The turn's last assistant text. */
  readonly reply: string;
  /** The fake endpoint's requests during the turn. */
  readonly requests: readonly FakeRequest[];
  readonly ms: number;
}

suite('Claude Code (real agent, fake model) through the extension', function () {
  this.timeout(180_000);
  let chat: Chat;
  let config: RealAgentConfig;

  /** Sends `text`, waits for exactly one permission prompt, answers it with `choice`, waits for the turn to end. */
  async function turnWithPermission(text: string, choice: PermissionChoice): Promise<Turn> {
    const started = Date.now();
    const before = chat.thread.entries.length;
    const logBefore = (await fakeLog(config)).length;
    const turn = chat.send(text);
    // A scripted turn asks within ~2 s; 30 s leaves room for a slow machine, and keeps a broken
    // run (four turns) inside the runner's time limit.
    await waitFor(chat, `the permission prompt for "${text}"`, () => chat.status.permissions.length > 0, 30_000);
    assert.equal(chat.status.permissions.length, 1, 'one permission prompt at a time');
    const prompt = chat.status.permissions[0];
    // It waits for the user: still there a moment later, the turn still running.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(chat.status.permissions[0]?.requestId, prompt.requestId);
    assert.equal(chat.thread.turn, 'running');
    chat.permissions.answer(prompt.requestId, choice);
    await turn;
    await waitFor(chat, 'the end of the turn', () => chat.thread.turn === 'idle', 30_000);
    assert.equal(chat.status.permissions.length, 0, 'no prompt left');
    const entries = chat.thread.entries.slice(before);
    const tool = entries.find((e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === prompt.tool.toolCallId);
    assert.ok(tool, `a tool call entry for ${prompt.tool.toolCallId}:\n${threadToMarkdown(chat.thread)}`);
    const replies = entries.filter((e) => e.kind === 'assistant').map((e) => e.text);
    const reply = replies[replies.length - 1] ?? '';
    const requests = (await fakeLog(config)).slice(logBefore);
    return { prompt, entries, tool, reply, requests, ms: Date.now() - started };
  }

  /** The tool results the agent sent the model during a turn. */
  const toolResults = (turn: Turn) => turn.requests.flatMap((r) => r.toolResults ?? []);

  suiteSetup(async function () {
    config = realAgentConfig();
    chat = await activeChat();
    await vscode.workspace.getConfiguration('vscode-acp').update('agents', { [config.agentId]: config.agent }, vscode.ConfigurationTarget.Global);
    await chat.refreshAgents();
    chat.selectAgent(config.agentId);
    assert.equal(chat.status.selectedAgentId, config.agentId, JSON.stringify(chat.status.agents));
    const started = Date.now();
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected' || chat.status.connection === 'failed', 60_000);
    assert.equal(chat.status.connection, 'connected', threadToMarkdown(chat.thread));
    console.log(`    connected to ${chat.status.agentLabel} in ${Date.now() - started} ms`);
  });

  teardown(async function () {
    // A failed test must not leave a turn (or a prompt) for the next one.
    if (chat?.thread.turn === 'running') {
      await vscode.commands.executeCommand('vscode-acp.stop');
      await waitFor(chat, 'the stopped turn', () => chat.thread.turn === 'idle', 15_000).catch(() => undefined);
    }
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });

  test('the agent is connected with its name and version, in the "default" permission mode', () => {
    assert.equal(chat.status.agentLabel, `Claude Agent ${config.agentVersion}`);
    const modes = chat.status.controls.modes;
    assert.equal(modes?.currentModeId, 'default', JSON.stringify(modes));
  });

  test('Write: the prompt shows the new file as a diff; Reject writes nothing', async () => {
    const w = config.scenario.write;
    const turn = await turnWithPermission(w.marker, 'reject');
    const { tool } = turn.prompt;
    assert.equal(tool.title, 'Write greeting.txt');
    assert.equal(tool.toolKind, 'edit');
    const diff = tool.content.find((c) => c.type === 'diff');
    assert.ok(diff && diff.type === 'diff', JSON.stringify(tool.content));
    assert.equal(diff.path, w.file);
    assert.equal(diff.oldText, null, 'a new file');
    assert.equal(diff.newText, w.content);
    assert.equal(tool.locations[0]?.path, w.file);
    assert.equal(turn.prompt.choices.join(','), 'allow_once,allow_always,reject');
    assert.equal(turn.prompt.agentOptions.length, 3);

    assert.ok(!fs.existsSync(w.file), 'no file after Reject');
    assert.equal(turn.tool.status, 'failed');
    assert.equal(turn.reply, w.refusedText);
    const results = toolResults(turn);
    assert.equal(results.length, 1, JSON.stringify(turn.requests));
    assert.equal(results[0].isError, true, 'the model heard of the refusal');
    assert.ok(turn.entries.some((e) => e.kind === 'notice' && e.text === 'Reject: Write greeting.txt'), 'the answer is in the transcript');
    console.log(`    rejected Write turn: ${turn.ms} ms`);
  });

  test('Write: Allow once writes the file, the tool call completes, the result reaches the model', async () => {
    const w = config.scenario.write;
    const turn = await turnWithPermission(w.marker, 'allow_once');
    assert.equal(turn.prompt.tool.title, 'Write greeting.txt');
    assert.equal(fs.readFileSync(w.file, 'utf8'), w.content);
    assert.equal(turn.tool.toolKind, 'edit');
    assert.equal(turn.tool.status, 'completed');
    assert.ok(turn.tool.content.some((c) => c.type === 'diff' && c.path === w.file && c.newText === w.content), JSON.stringify(turn.tool.content));
    assert.equal(turn.reply, w.doneText);
    const results = toolResults(turn);
    assert.equal(results.length, 1, JSON.stringify(turn.requests));
    assert.equal(results[0].isError, false);
    assert.match(results[0].text, /greeting\.txt/);
    console.log(`    allowed Write turn: ${turn.ms} ms`);
  });

  test('Bash: the prompt shows the command; Reject runs nothing', async () => {
    const b = config.scenario.bash;
    const turn = await turnWithPermission(b.marker, 'reject');
    const { tool } = turn.prompt;
    assert.equal(tool.title, b.command);
    assert.equal(tool.toolKind, 'execute');
    assert.ok((tool.input ?? '').includes(b.command), `the command in the prompt: ${tool.input}`);
    assert.ok(turn.prompt.choices.includes('allow_once') && turn.prompt.choices.includes('reject'), turn.prompt.choices.join(','));

    assert.ok(!fs.existsSync(b.file), 'the command did not run');
    assert.equal(turn.tool.status, 'failed');
    assert.equal(turn.reply, b.refusedText);
    const results = toolResults(turn);
    assert.equal(results.length, 1, JSON.stringify(turn.requests));
    assert.equal(results[0].isError, true);
    console.log(`    rejected Bash turn: ${turn.ms} ms`);
  });

  test('Bash: Allow once runs the command; its output streams into the tool call', async () => {
    const b = config.scenario.bash;
    const turn = await turnWithPermission(b.marker, 'allow_once');
    assert.equal(fs.readFileSync(b.file, 'utf8'), b.fileContent);
    assert.equal(turn.tool.toolKind, 'execute');
    assert.equal(turn.tool.status, 'completed');
    const terminal = turn.tool.content.find((c) => c.type === 'terminal');
    assert.ok(terminal && terminal.type === 'terminal', JSON.stringify(turn.tool.content));
    assert.match(terminal.output, new RegExp(b.output));
    assert.equal(turn.reply, b.doneText);
    const results = toolResults(turn);
    assert.equal(results.length, 1, JSON.stringify(turn.requests));
    assert.equal(results[0].isError, false);
    assert.match(results[0].text, new RegExp(b.output));
    console.log(`    allowed Bash turn: ${turn.ms} ms`);
  });

  test('Disconnect, then Connect: a new agent process resumes the session, and the model hears the earlier turns', async () => {
    const before = transcript(chat);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected' || chat.status.connection === 'failed', 60_000);
    assert.equal(chat.status.connection, 'connected', threadToMarkdown(chat.thread));
    const after = transcript(chat);
    assert.ok(after.startsWith(before), `the transcript stays:\n--- before\n${before.slice(-500)}\n--- after\n${after.slice(before.length - 500)}`);
    assert.match(after.slice(before.length), /The session continues \(resumed by the agent\)\./);
    const logBefore = (await fakeLog(config)).length;
    await chat.send('Do you remember what we did?');
    await waitFor(chat, 'the reply', () => chat.thread.turn === 'idle', 30_000);
    const asked = (await fakeLog(config)).slice(logBefore).filter((r) => r.lastUserText?.includes('Do you remember'));
    assert.ok(asked.length > 0, 'the prompt reached the model');
    const told = asked[asked.length - 1].userTexts ?? [];
    assert.ok(told.some((t) => t.includes(config.scenario.write.marker)), `the model was told the earlier turns: ${JSON.stringify(told)}`);
  });

  test('the agent only ever called the fake endpoint at paths it knows', async () => {
    const log = await fakeLog(config);
    const unknown = log.filter((r) => r.path !== '/v1/messages' && r.path !== '/v1/messages/count_tokens');
    assert.equal(unknown.length, 0, JSON.stringify(unknown));
    assert.ok(log.filter((r) => r.answered?.startsWith('tool_use:')).length >= 4, JSON.stringify(log.map((r) => r.answered)));
  });
});
