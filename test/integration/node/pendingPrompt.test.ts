/**
 * Node host: a prompt sent before the agent is connected is never lost. It
 * waits (shown as pending) and is sent once connected; cancelled, or when the
 * connection fails, its text goes back to the composer.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent as agent } from './scenarioAgents';

suite('a prompt sent while connecting', function () {
  this.timeout(30_000);
  let chat: Chat;

  suiteSetup(async () => {
    chat = await chatWithAgents({
      slowStart: agent('Slow Starter', {
        onInitialize: [{ sleep: 1500 }],
        turns: [{ match: '', steps: [{ reportHistory: true }] }],
      }),
      neverStarts: agent('Never Starts', { onInitialize: [{ hang: true }] }),
      failsToStart: agent('Fails To Start', {
        onInitialize: [{ crash: { exitCode: 7, stderr: 'no model configured' } }],
      }),
    });
  });

  /** Starts connecting; `connected` settles when connecting is over (wrapped: an async function would wait for it). */
  async function connectingTo(agentId: string): Promise<{ connected: Thenable<unknown> }> {
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    chat.selectAgent(agentId);
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const connected = vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connecting', () => chat.status.connection === 'connecting');
    return { connected };
  }

  test('waits, shown as pending, and is sent once connected', async () => {
    const { connected } = await connectingTo('slowStart');
    const sent = chat.send('sent too early');
    await waitFor(chat, 'the prompt to be pending', () => chat.status.pendingPrompt === 'sent too early');
    assert.equal(chat.thread.entries.length, 0, 'not in the transcript yet');
    assert.equal(chat.status.connection, 'connecting');
    await connected;
    await sent;
    await waitFor(chat, 'the reply', () => chat.status.turn === 'idle' && lastReply(chat).startsWith('[history'));
    assert.equal(chat.status.pendingPrompt, undefined);
    assert.match(
      transcript(chat),
      /## User\n\nsent too early\n\n## Assistant\n\n\[history of [^:]+: sent too early\]\n$/,
    );
  });

  test('Cancel hands it back to the composer, which takes it', async () => {
    await connectingTo('neverStarts');
    void chat.send('keep this text');
    await waitFor(chat, 'pending', () => chat.status.pendingPrompt === 'keep this text');
    chat.cancelPending();
    assert.equal(chat.status.pendingPrompt, undefined);
    const draft = chat.status.returnedDraft;
    assert.equal(draft?.text, 'keep this text');
    // Held until the composer says it took it (the view may be hidden meanwhile).
    assert.equal(chat.status.returnedDraft?.id, draft?.id);
    chat.draftTaken(draft!.id);
    assert.equal(chat.status.returnedDraft, undefined);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });

  test('a connection that fails hands it back too, and says why', async () => {
    await connectingTo('failsToStart');
    void chat.send('do not lose me');
    await waitFor(chat, 'the connection to fail', () => chat.status.connection === 'failed');
    assert.equal(chat.status.pendingPrompt, undefined);
    assert.equal(chat.status.returnedDraft?.text, 'do not lose me');
    assert.match(transcript(chat), /Could not connect to Fails To Start: [^]*no model configured/);
    chat.draftTaken(chat.status.returnedDraft!.id);
  });

  test('two prompts while connecting are sent as one, in order', async () => {
    const { connected } = await connectingTo('slowStart');
    void chat.send('first');
    void chat.send('second');
    await waitFor(chat, 'pending', () => chat.status.pendingPrompt === 'first\n\nsecond');
    await connected;
    await waitFor(chat, 'the reply', () => chat.status.turn === 'idle' && lastReply(chat).startsWith('[history'));
    assert.match(lastReply(chat), /: first\n\nsecond\]$/);
  });
});
