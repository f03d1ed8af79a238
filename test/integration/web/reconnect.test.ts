/**
 * The socket to the bridge drops mid-turn (the harness's proxy cuts it, as a
 * network drop would): the chat keeps its transcript, reconnects and the
 * agent continues the same session.
 */
import * as assert from '../shared/assert';
import * as vscode from 'vscode';
import { activeChat, lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { BRIDGE_URL_FILE, DROP_URL_FILE, harnessFile } from './harnessFiles';

const dropUrl = () => harnessFile(DROP_URL_FILE);

describe('a dropped connection to the bridge', function () {
  this.timeout(60_000);
  let chat: Chat;

  before(async () => {
    chat = await activeChat();
  });

  it('drop the socket mid-turn, two attempts refused: the transcript stays, the chat reconnects and the session continues', async () => {
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const turn = chat.composer.send('keep talking');
    await waitFor(
      chat,
      'the agent to start answering',
      () => lastReply(chat) === 'Part one.' && chat.status.turn === 'running',
    );
    // The turn is over after the drop: compare without the "running" marker.
    const before = transcript(chat).replace(/\n_\(turn running\)_\n$/, '');

    // The network stays down for the first two attempts: the chat must keep trying.
    const response = await fetch(`${await dropUrl()}?refuse=2`);
    assert.equal(await response.text(), 'dropped');
    await turn;
    await waitFor(chat, 'the turn to end as lost', () => chat.status.turn === 'idle');
    assert.match(transcript(chat), /> error: The connection to the bridge was lost \(code 1006\)\. Reconnecting…\n/);
    await waitFor(chat, 'reconnected', () => chat.status.connection === 'connected', 20_000);
    assert.equal(
      await (await fetch((await dropUrl()).replace(/__drop$/, '__refusing'))).text(),
      '0',
      'both refused attempts were made before the one that connected',
    );

    const after = transcript(chat);
    assert.ok(
      after.startsWith(before),
      `nothing shown before the drop may be lost:\n--- before\n${before}\n--- after\n${after}`,
    );
    assert.match(after, /> info: The session continues \(resumed by the agent\)\.\n$/);
    assert.equal(chat.status.agentLabel, 'Test Agent 1.2.3');

    // A new agent process, the same session: it knows what was said before the drop.
    await chat.composer.send('recall the history');
    assert.match(lastReply(chat), /^\[history of sess-\d+-[0-9a-f]+-\d+: keep talking \| recall the history\]$/);
  });

  it('Disconnect while reconnecting stops trying and keeps the transcript', async () => {
    const turn = chat.composer.send('keep talking');
    await waitFor(
      chat,
      'the agent to start answering',
      () => lastReply(chat) === 'Part one.' && chat.status.turn === 'running',
    );
    await fetch(await dropUrl());
    await turn;
    await waitFor(chat, 'reconnecting', () => chat.status.connection === 'reconnecting');
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    assert.equal(chat.status.connection, 'disconnected');
    // Well past the first retry: nothing reconnected behind the user's back.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal(chat.status.connection, 'disconnected');
    assert.match(transcript(chat), /recall the history[^]*keep talking\n\n## Assistant\n\nPart one\./);
    // Connecting again continues the session.
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    await chat.composer.send('recall the history');
    assert.match(
      lastReply(chat),
      /^\[history of sess-\d+-[0-9a-f]+-\d+: keep talking \| recall the history \| keep talking \| recall the history\]$/,
    );
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });

  it('a refusal while reconnecting (the token changed) stops the retries and says what to do', async () => {
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    const turn = chat.composer.send('keep talking');
    await waitFor(
      chat,
      'the agent to start answering',
      () => lastReply(chat) === 'Part one.' && chat.status.turn === 'running',
    );
    assert.equal(
      await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', 'not-the-bridge-token-0123456789'),
      true,
    );
    await fetch(await dropUrl());
    await turn;
    // The first retry is refused; a refusal is not retried.
    await waitFor(chat, 'the retries to stop', () => chat.status.connection === 'failed', 10_000);
    assert.match(
      transcript(chat),
      /> error: Could not reconnect: The bridge refused the token\. Run "ACP: Set Bridge Token" and paste the URL the bridge printed\. Connect again to continue this session\.\n$/,
    );
    // With the right token again, Connect continues the session.
    assert.equal(
      await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', await harnessFile(BRIDGE_URL_FILE)),
      true,
    );
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected', () => chat.status.connection === 'connected');
    await chat.composer.send('recall the history');
    assert.match(lastReply(chat), /keep talking \| recall the history\]$/);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
