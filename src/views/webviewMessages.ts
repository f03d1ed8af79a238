/**
 * What a message from a chat page does, for the chat it names. The chat
 * view and the editor tabs differ only in which chat "show" shows.
 */
import * as vscode from 'vscode';
import type { WebviewMessage } from '../shared/page/pageMessages';
import { attachData, attachUris } from '../attachments/attach';
import { pickAttachments } from '../attachments/attachPick';
import type { Mentions } from '../attachments/mentions';
import type { HostMessage } from '../shared/page/protocol';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { openSetting } from '../settings/settings';
import { manageWorkspaceTrust, sayRestricted } from '../workspaceTrust';
import type { LinkOpener } from './linkOpener';
import type { MessageDocuments } from './messageDocuments';
import { openWalkthrough, walkthroughStep } from '../walkthrough';

export interface PageServices {
  readonly chats: Chats;
  readonly links: LinkOpener;
  readonly messages: MessageDocuments;
  readonly log: vscode.LogOutputChannel;
  readonly mentions: Mentions;
  /** Answers this page (and only it). */
  reply(message: HostMessage): void;
  /** Shows `chatId` in this page (the view switches; a tab switches what it shows). */
  show(chatId: string): void;
}

export async function handlePageMessage(
  message: WebviewMessage,
  chat: Chat | undefined,
  page: PageServices,
): Promise<void> {
  switch (message.type) {
    case 'ready':
      return page.chats.refreshAgents();
    case 'showChat':
      return page.show(message.chatId);
    case 'closeChat':
      return page.chats.close(message.chatId);
    case 'renameChat':
      return void (await vscode.commands.executeCommand('vscode-acp.renameChat', message.chatId));
    case 'newChat':
      return void (await vscode.commands.executeCommand('vscode-acp.newChat'));
    case 'openLink':
      return page.links.openLink(message.href);
    case 'openLocation':
      return page.links.openLocation(message.path, message.line);
    case 'openPlace':
      return page.links.openPlace(message.uri, message.line);
    case 'copyText':
      return void vscode.env.clipboard.writeText(message.text);
    case 'openEntry':
      return void (await page.messages.open(message.entryId));
    case 'copyEntry':
      return page.messages.copy(message.entryId);
    case 'openWalkthrough':
      return openWalkthrough();
    default:
      break;
  }
  // The rest act on a chat: one closed meanwhile is gone, and so is what was asked of it.
  if (!chat) return page.log.warn(`Dropped "${message.type}" from the chat view: its chat is closed.`);
  switch (message.type) {
    case 'selectAgent':
      return page.chats.selectAgent(chat, message.agentId);
    case 'installAgent':
      return page.chats.installAgent(chat, message.agentId);
    case 'connect':
      return void (await chat.connect());
    case 'disconnect':
      return chat.disconnect();
    case 'prompt':
      // The page's box is empty now: the draft kept for a window reload goes at once, not when the page says so.
      page.chats.keepDraft(chat, '');
      walkthroughStep('prompted');
      return chat.composer.send(message.text);
    case 'cancel':
      return chat.stop();
    case 'cancelPending':
      return chat.composer.cancelPending();
    case 'queued':
      return chat.composer.queued(message.action, message.id);
    case 'draftTaken':
      return chat.composer.draftTaken(message.id);
    case 'attachFiles':
      // Back to the prompt box, whatever was picked.
      await pickAttachments(chat.composer.attachments);
      return chat.composer.focus();
    case 'attachUris':
      return attachUris(chat.composer.attachments, message.uris);
    case 'attachData':
      return attachData(chat.composer.attachments, message.name, message.base64);
    case 'removeAttachment':
      return chat.composer.attachments.remove(message.id);
    case 'mentionQuery':
      // Typing "@" in Restricted Mode: said once, when the "@" is typed, with the way to trust the folder.
      if (!vscode.workspace.isTrusted && message.query === '') {
        void sayRestricted(
          'Files, folders and problems can be attached only in a trusted workspace: this folder is in Restricted Mode.',
        );
      }
      return page.reply({
        type: 'mentions',
        requestId: message.requestId,
        items: await page.mentions.search(message.query),
      });
    case 'attachMention':
      return void page.mentions.attach(chat.composer.attachments, message.id);
    // The Restart a chat offers after a Stop the agent did not confirm: the conversation goes on.
    case 'restart':
      return void (await chat.restart({ continueSession: true }));
    case 'openEarlier':
      return chat.openEarlier();
    case 'openReplaced': {
      const entry = chat.thread.entries.find((e) => e.id === message.entryId);
      const replaced = entry?.kind === 'notice' ? entry.replaced : undefined;
      return void (replaced && (await vscode.commands.executeCommand('vscode-acp.openSavedSession', replaced)));
    }
    case 'signIn':
      return chat.signIn();
    case 'draft':
      return page.chats.keepDraft(chat, message.text);
    case 'install':
      return chat.agentId ? page.chats.installAgent(chat, chat.agentId) : undefined;
    case 'openSettings':
      return openSetting('agents');
    case 'retry':
      return void (await chat.connect());
    case 'manageTrust':
      return void (await manageWorkspaceTrust());
    case 'worktree': {
      const command = { apply: 'applyWorktree', open: 'openWorktree', discard: 'discardWorktree' }[message.action];
      return void (
        chat.place && (await vscode.commands.executeCommand(`vscode-acp.${command}`, { path: chat.place.path }))
      );
    }
    case 'setConfigOption':
      return chat.changeControl({ kind: 'config', id: message.configId, value: message.value });
    case 'setMode':
      return chat.changeControl({ kind: 'mode', id: message.modeId });
    case 'setModel':
      return chat.changeControl({ kind: 'model', id: message.modelId });
    case 'answerPermission':
      return chat.permissions.answer(message.requestId, message.choice);
    case 'changes':
      walkthroughStep('reviewed');
      return changesAction(chat, message.action, message.path);
    case 'restoreCheckpoint':
      return void (await chat.changes?.restoreTo(message.entryId));
    case 'setFollow':
      return chat.setFollow(message.on);
    case 'answerElicitation':
      return chat.elicitations.answer(message.id, message.action, message.values);
    case 'resend':
      return chat.rewind.resend(message.entryId, message.text);
    case 'retryPrompt':
      return chat.rewind.retry();
    case 'branch': {
      const branch = page.chats.branch(chat, message.entryId);
      return branch && page.show(branch.id);
    }
  }
}

/** The Changes bar's buttons: a file's diff, Keep or Undo (no path: every file). */
async function changesAction(chat: Chat, action: 'open' | 'keep' | 'undo', path: string | undefined): Promise<void> {
  const changes = chat.changes;
  if (!changes) return;
  if (action === 'keep') return changes.keep(path);
  if (action === 'undo') return changes.undo(path);
  if (path !== undefined) return changes.open(path);
}
