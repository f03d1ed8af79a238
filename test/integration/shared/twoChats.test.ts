/**
 * Both hosts: two chats with the host's test agent (on the web host, through
 * the bridge) stream at once, each asks permission in its own chat, and the
 * prompts are answered in the other order: each chat gets its own answer.
 */
import * as vscode from 'vscode';
import { threadToMarkdown } from '../../../src/shared/threadMarkdown';
import * as assert from './assert';
import { acpApi, waitFor } from './chatWaits';
import { chatWithTestAgent } from './host';

describe('two chats at once', function () {
  this.timeout(60_000);

  it('both ask permission at once, answered in the other order, each gets its own answer', async () => {
    await chatWithTestAgent();
    const { chats } = await acpApi();
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const first = chats.shown;
    await vscode.commands.executeCommand('vscode-acp.connect');
    await waitFor(first, 'connected', () => first.connection === 'connected');
    // A chat with nothing in it is closed by New Chat (nobody would miss it): this one has a turn.
    await first.composer.send('which capabilities');
    await vscode.commands.executeCommand('vscode-acp.newChat');
    const second = chats.shown;
    assert.ok(second !== first && chats.get(first.id), 'another chat, and the one before stays');
    await waitFor(second, 'connected', () => second.connection === 'connected');
    const turns = [first.composer.send('permission please'), second.composer.send('permission please')];
    await waitFor(first, 'its prompt', () => first.permissions.prompts.length === 1);
    await waitFor(second, 'its prompt', () => second.permissions.prompts.length === 1);
    second.permissions.answer(second.permissions.prompts[0].requestId, 'allow_once');
    await waitFor(second, 'its answer', () => second.thread.turn === 'idle');
    assert.equal(first.thread.turn, 'running', 'the other chat still waits for its answer');
    first.permissions.answer(first.permissions.prompts[0].requestId, 'reject');
    await Promise.all(turns);
    assert.match(threadToMarkdown(second.thread), /\[permission: yes\] done/);
    assert.match(threadToMarkdown(first.thread), /\[permission: no\] done/);
    await chats.close(second.id);
    await chats.close(first.id);
  });
});
