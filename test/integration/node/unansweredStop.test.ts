/**
 * Node host: Stop must end the turn even when the agent ignores
 * `session/cancel` and never answers the prompt: within 1.5 s the chat is idle
 * (the UI test measures 2 s from the click to Send being back),
 * the turn marked cancelled, and it offers Restart, which continues the
 * session in a new agent process (ACP: Restart Agent starts a new one).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

suite('an agent that ignores Stop', function () {
  this.timeout(40_000);
  let chat: Chat;

  suiteSetup(async () => {
    const sessions = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-stop-'));
    const scenario = {
      agentCapabilities: { loadSession: true },
      turns: [
        { match: 'ignore', steps: [{ text: 'Working on it.' }, { hang: true }] },
        { match: '', steps: [{ reportHistory: true }] },
      ],
    };
    chat = await chatWithAgents({ deaf: scenarioAgent('Deaf Agent', scenario, '--sessions', sessions) }, 'deaf');
  });

  test('Stop ends the turn within 1.5 s and offers Restart; Restart continues the session', async () => {
    void chat.send('ignore my stop');
    await waitFor(chat, 'the agent to start answering', () => lastReply(chat) === 'Working on it.');
    const stoppedAt = Date.now();
    await vscode.commands.executeCommand('vscode-acp.stop');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle', 5_000);
    const took = Date.now() - stoppedAt;
    assert.ok(took >= 1_400 && took <= 1_800, `the turn ended ${took} ms after Stop (the grace is 1,500 ms)`);
    const last = chat.thread.entries[chat.thread.entries.length - 1];
    assert.equal(last?.kind === 'notice' ? last.action : undefined, 'restart', 'the chat offers Restart');
    assert.match(
      transcript(chat),
      /Working on it\.\n\n> info: Stopped\.\n\n> warning: The agent did not confirm the stop/,
    );
    assert.equal(chat.status.connection, 'connected');

    // The notice's Restart (what its button asks for): the session goes on.
    await (await acpApi()).chats.shown.restart({ continueSession: true });
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected');
    assert.match(transcript(chat), /The session continues \(loaded by the agent\)\./);
    await chat.send('what do you remember');
    await waitFor(chat, 'the reply', () => chat.status.turn === 'idle' && lastReply(chat).startsWith('[history'));
    assert.match(lastReply(chat), /ignore my stop \| what do you remember\]$/);
  });

  test('a second Stop ends the turn at once', async () => {
    void chat.send('ignore this one too');
    await waitFor(chat, 'the agent to start answering', () => lastReply(chat) === 'Working on it.');
    await vscode.commands.executeCommand('vscode-acp.stop');
    const second = Date.now();
    await vscode.commands.executeCommand('vscode-acp.stop');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle', 5_000);
    assert.ok(Date.now() - second < 500, 'ended by the second Stop');
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
