/**
 * Both hosts: Continue with Another Agent (issue 49). A chat with a conversation is continued in a new chat, shown,
 * whose first prompt carries the conversation as an embedded Markdown resource (the transcript, the agent it was
 * with); the old chat stays open and says where it went on. A chat with no conversation is not continued.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { lastReply, waitFor } from './chatWaits';
import { hostSetup, newChatWithTestAgent } from './host';
import { answeringInfo } from './dialogs';

type OpenChat = Awaited<ReturnType<typeof newChatWithTestAgent>>['chat'];

describe('Continue with Another Agent', function () {
  this.timeout(60_000);

  it('opens a new chat whose prompt carries the conversation as Markdown; the old chat says where it went on', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('hello there');
    await waitFor(
      chat,
      'the first answer',
      () => chat.thread.turn === 'idle' && lastReply(chat) !== '(last entry is user)',
    );
    const fresh = await vscode.commands.executeCommand<OpenChat>('vscode-acp.continueWithAgent', hostSetup.agentId);
    assert.ok(fresh && fresh !== chat && api.chats.shown === fresh, 'a new chat, shown');
    assert.equal(fresh.composer.status.attachments.length, 1, 'the conversation, attached');
    await fresh.composer.send('report prompt of the handover');
    await waitFor(fresh, 'its answer', () => fresh.thread.turn === 'idle' && lastReply(fresh).startsWith('[prompt:'));
    const blocks = JSON.parse(
      lastReply(fresh)
        .replace(/^\[prompt: /, '')
        .replace(/\]$/, ''),
    ) as Array<{
      type: string;
      uri?: string;
      mimeType?: string;
      text?: string;
      start?: string;
    }>;
    assert.equal(blocks[0]?.text, 'report prompt of the handover');
    const handed = blocks.find((b) => b.type === 'resource');
    assert.ok(handed, JSON.stringify(blocks));
    assert.equal(handed.uri, 'acp:conversation.md');
    assert.equal(handed.mimeType, 'text/markdown');
    assert.match(handed.start ?? handed.text ?? '', /^This conversation was with /);
    const said = chat.thread.entries.filter((e) => e.kind === 'notice').at(-1) as { text: string } | undefined;
    assert.match(said?.text ?? '', /^Continued with .+ in a new chat\.$/);
    await api.chats.close(fresh.id);
    await api.chats.close(chat.id);
  });

  it('does not continue a chat with no conversation, and says so', async () => {
    const { api, chat } = await newChatWithTestAgent();
    const before = api.chats.all.length;
    const told = await answeringInfo(() =>
      vscode.commands.executeCommand('vscode-acp.continueWithAgent', hostSetup.agentId),
    );
    assert.equal(told, 'Nothing to continue yet: this chat has no conversation.');
    assert.equal(api.chats.all.length, before);
    await api.chats.close(chat.id);
  });
});
