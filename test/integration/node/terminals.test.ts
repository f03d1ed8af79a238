/**
 * Node host: the agent runs commands through the extension: each
 * terminal/create asks the user (unless "always allow" matches), output shows
 * in the tool call, and no process outlives the connection.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithTestAgent } from '../shared/host';
import { processes } from './processes';

describe('agent terminals (Node host)', function () {
  this.timeout(40_000);
  let chat: Chat;

  before(async () => {
    chat = await chatWithTestAgent();
    await vscode.commands.executeCommand('vscode-acp.newChat');
  });

  it('terminal/create asks first, shows the resolved launch, and the output lands in the tool call', async () => {
    const turn = chat.composer.send('run echo');
    await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1);
    const prompt = chat.status.permissions[0];
    assert.equal(prompt.tool.toolKind, 'execute');
    assert.match(prompt.tool.input ?? '', /\/echo/); // the resolved absolute executable
    assert.match(prompt.tool.input ?? '', /hello terminal/);
    assert.match(
      prompt.tool.input ?? '',
      new RegExp(vscode.workspace.workspaceFolders![0].uri.fsPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    chat.permissions.answer(prompt.requestId, 'allow_once');
    await turn;
    assert.match(lastReply(chat), /\[terminal: exit 0\] hello terminal/);
    const tool = chat.thread.entries.find((e) => e.kind === 'tool' && e.toolCallId === 'term-echo');
    assert.ok(tool && tool.kind === 'tool');
    const terminal = tool.content.find((c) => c.type === 'terminal');
    assert.ok(terminal && terminal.type === 'terminal');
    assert.match(terminal.output, /hello terminal/);
    assert.equal(terminal.exitCode, 0);
  });

  it('a refused command does not run', async () => {
    const turn = chat.composer.send('run echo');
    await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0].requestId, 'reject');
    await turn;
    assert.match(lastReply(chat), /\[error: The user refused to run this command\./);
  });

  it('"always allow" covers repeats of the same launch; the 9th terminal is refused', async () => {
    const turn = chat.composer.send('nine terminals');
    await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0].requestId, 'allow_always');
    await turn;
    const reply = lastReply(chat);
    assert.equal((reply.match(/\[terminal: exit 0\]/g) ?? []).length, 8, reply);
    assert.match(reply, /\[error: [^\]]*(8|eight|too many)/i);
    assert.equal(chat.status.permissions.length, 0, 'no further prompts after always allow');
  });

  it('Clear Chat revokes "always allow": the same command asks again', async () => {
    // A new session first: the eight terminals of the last test still hold their slots.
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const first = chat.composer.send('run echo');
    await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0].requestId, 'allow_always');
    await first;
    const again = chat.composer.send('run echo');
    await again;
    assert.match(lastReply(chat), /hello terminal/);
    assert.equal(chat.status.permissions.length, 0, 'the grant covered the repeat');
    await vscode.commands.executeCommand('vscode-acp.clearChat');
    assert.equal(chat.thread.entries.length, 0);
    assert.equal(chat.status.connection, 'connected');
    const third = chat.composer.send('run echo');
    await waitFor(chat, 'a new consent prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0].requestId, 'allow_once');
    await third;
  });

  /**
   * In a new chat, the sleeper command allowed and running (it and its
   * background child), then `command`; resolves with what is left of its
   * process tree once the turn ended ('' when nothing).
   */
  async function sleeperAfter(command: string, beforeCommand?: () => void): Promise<string> {
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const turn = chat.composer.send('run sleeper');
    await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1);
    chat.permissions.answer(chat.status.permissions[0].requestId, 'allow_once');
    for (let i = 0; i < 50 && !(processes('sleep 318') && processes('sleep 317')); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(
      processes('sleep 318') !== '' && processes('sleep 317') !== '',
      'the command and its background child run',
    );
    beforeCommand?.();
    await vscode.commands.executeCommand(command);
    await turn;
    for (let i = 0; i < 80 && processes('sleep 31[78]'); i++) await new Promise((r) => setTimeout(r, 100));
    return processes('sleep 31[78]');
  }

  it("Restart Agent ends the chat's commands and starts a fresh agent process, with a new session for the chat", async () => {
    const api = await acpApi();
    assert.equal(
      await sleeperAfter('vscode-acp.restart', () => (sessionBefore = api.chats.shown.sessionRef?.sessionId)),
      '',
      "no process of the command's tree is left",
    );
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected');
    const after = api.chats.shown.sessionRef?.sessionId;
    assert.ok(sessionBefore && after && after !== sessionBefore, `a new session: ${sessionBefore} then ${after}`);
    assert.match(transcript(chat), /Agent restarted: a new session begins here/);
    assert.match(transcript(chat), /run sleeper/, 'the transcript stays');
  });
  let sessionBefore: string | undefined;

  it("Disconnect ends the chat's commands, leaving no process behind", async () => {
    assert.equal(await sleeperAfter('vscode-acp.disconnect'), '', 'no process of the tree is left');
  });
});
