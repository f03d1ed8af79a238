/**
 * Node host: after the agent process died, connecting again continues the
 * session on screen with what the agent offers: `session/load` (its replayed
 * history must not be shown twice), or a new session that says so.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { activeChat, lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';

function scenario(agentCapabilities: object, replayAfterLoad = false): string {
  return JSON.stringify({
    agentCapabilities,
    replayAfterLoad,
    onNewSession: [
      {
        update: {
          sessionUpdate: 'available_commands_update',
          availableCommands: [{ name: 'review', description: 'Review code' }],
        },
      },
    ],
    turns: [
      { match: 'crash', steps: [{ text: 'About to crash.' }, { crash: { exitCode: 3 } }] },
      { match: 'recall', steps: [{ reportHistory: true }] },
      {
        match: '',
        steps: [
          { thought: 'Thinking.' },
          { toolCall: { toolCallId: 'read-1', title: 'Read a.txt', kind: 'read', status: 'completed' } },
          { text: 'Hello.' },
        ],
      },
    ],
  });
}

describe('continuing a session after the agent died', function () {
  this.timeout(60_000);
  let chat: Chat;

  before(async () => {
    const root = path.resolve(__dirname, '../../..');
    const sessions = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-continue-'));
    const agent = (name: string, capabilities: object, replayAfterLoad?: boolean) => ({
      name,
      command: process.execPath,
      args: [path.join(root, 'dist/test/agent.js'), scenario(capabilities, replayAfterLoad), '--sessions', sessions],
    });
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        loads: agent('Loading Agent', { loadSession: true }),
        loadsLate: agent('Late Replaying Agent', { loadSession: true }, true),
        forgets: agent('Forgetful Agent', {}),
      },
      vscode.ConfigurationTarget.Global,
    );
    chat = await activeChat();
    await chat.refreshAgents();
  });

  async function talkThenCrash(agentId: string): Promise<string> {
    chat.selectAgent(agentId);
    await vscode.commands.executeCommand('vscode-acp.newChat');
    await chat.composer.send('hello');
    await chat.composer.send('crash now');
    await waitFor(chat, 'the agent to die', () => chat.status.connection === 'failed' && chat.status.turn === 'idle');
    const before = transcript(chat);
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    const after = transcript(chat);
    assert.ok(after.startsWith(before), `the transcript must stay:\n--- before\n${before}\n--- after\n${after}`);
    return after.slice(before.length);
  }

  it('session/load: the replayed history is not shown twice, the commands come back, the agent remembers', async () => {
    const added = await talkThenCrash('loads');
    assert.equal(added, '\n> info: The session continues (loaded by the agent).\n');
    assert.equal((transcript(chat).match(/## User\n\nhello\n/g) ?? []).length, 1);
    assert.equal((transcript(chat).match(/Read a\.txt/g) ?? []).length, 1);
    await waitFor(chat, 'the replayed commands', () => chat.status.controls.commands.some((c) => c.name === 'review'));
    await chat.composer.send('recall');
    assert.match(lastReply(chat), /^\[history of sess-\d+-[0-9a-f]+-\d+: hello \| crash now \| recall\]$/);
  });

  it('session/load whose replay comes after its answer (Gemini CLI): still not shown twice, the commands come back', async () => {
    const added = await talkThenCrash('loadsLate');
    await waitFor(chat, 'the replayed commands', () => chat.status.controls.commands.some((c) => c.name === 'review'));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(added, '\n> info: The session continues (loaded by the agent).\n');
    assert.equal((transcript(chat).match(/## User\n\nhello\n/g) ?? []).length, 1, transcript(chat));
    assert.equal((transcript(chat).match(/Read a\.txt/g) ?? []).length, 1);
    await chat.composer.send('recall');
    assert.match(lastReply(chat), /^\[history of sess-\d+-[0-9a-f]+-\d+: hello \| crash now \| recall\]$/);
  });

  it('an agent that cannot continue gets a new session, and the chat says so', async () => {
    const added = await talkThenCrash('forgets');
    assert.equal(
      added,
      '\n> warning: This is a new session: the agent cannot continue a session after a reconnect. The agent does not remember the conversation above.\n',
    );
    await chat.composer.send('recall');
    assert.match(lastReply(chat), /^\[history of sess-\d+-[0-9a-f]+-\d+: recall\]$/);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
