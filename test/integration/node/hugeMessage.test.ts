/**
 * Node host: one agent message of 8 MiB (one line, no spaces) is kept whole
 * in the transcript, its whole text opens in an editor, and the chat goes on.
 * One over the 16 MiB limit ends the agent, and the chat says why.
 * (What the view is given of it, the first SHOWN_TEXT_LIMIT characters, is
 * checked in the workbench by test/ui/hugeMessage.ui.mjs.)
 */
import * as vscode from 'vscode';
import type { AcpExtensionApi } from '../../../src/extension';
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

const SIZE = 8 * 1024 * 1024;

describe('an 8 MiB message', function () {
  this.timeout(60_000);
  let chat: Chat;

  before(async () => {
    const scenario = {
      turns: [
        { match: 'huge', steps: [{ text: 'before ' }, { bigText: { size: SIZE } }, { text: ' after' }] },
        {
          match: 'too big',
          steps: [{ text: 'here it comes' }, { bigText: { size: 17 * 1024 * 1024 } }, { text: 'never shown' }],
        },
        { match: '', steps: [{ text: 'still here' }] },
      ],
    };
    chat = await chatWithAgents({ huge: scenarioAgent('Huge Agent', scenario) }, 'huge');
  });

  it('is kept whole, opens whole in an editor, and the chat answers the next prompt', async () => {
    await chat.composer.send('something huge');
    await waitFor(chat, 'the turn to end', () => chat.status.turn === 'idle', 45_000);
    const reply = chat.thread.entries[chat.thread.entries.length - 1];
    assert.equal(reply?.kind, 'assistant');
    const text = reply?.kind === 'assistant' ? reply.text : '';
    assert.equal(text.length, 'before '.length + SIZE + ' after'.length);
    assert.ok(text.endsWith('x after'));

    const api = await vscode.extensions.getExtension<AcpExtensionApi>('vscode-acp.vscode-acp')!.activate();
    assert.equal(await api.openMessage(reply!.id), true);
    const document = vscode.window.activeTextEditor?.document;
    assert.equal(document?.uri.scheme, 'vscode-acp-message');
    assert.equal(document?.getText().length, text.length);
    assert.equal(document?.isUntitled, false, 'read-only, nothing to save');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');

    await chat.composer.send('and now?');
    await waitFor(chat, 'the next reply', () => chat.status.turn === 'idle' && lastReply(chat) === 'still here');
  });

  it('a message over the 16 MiB limit: the agent is ended, the chat says why and keeps the transcript', async () => {
    const before = chat.thread.entries.length;
    await chat.composer.send('something too big');
    await waitFor(
      chat,
      'the agent to be ended',
      () => chat.status.connection === 'failed' && chat.status.turn === 'idle',
      30_000,
    );
    assert.match(
      transcript(chat),
      /here it comes\n\n> error: The agent stopped: .* sent a message larger than 16 MiB, the limit, and was ended\.\n/,
    );
    assert.ok(!transcript(chat).includes('never shown'));
    assert.ok(chat.thread.entries.length > before, 'the transcript is kept');
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(chat, 'connected again', () => chat.status.connection === 'connected');
    await chat.composer.send('and now?');
    await waitFor(chat, 'the next reply', () => chat.status.turn === 'idle' && lastReply(chat) === 'still here');
    await vscode.commands.executeCommand('vscode-acp.disconnect');
  });
});
