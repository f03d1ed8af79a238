/**
 * The commands that act on the chat the view shows: connect, disconnect,
 * stop, restart, clear; new, close, open in an editor; focus the view; the
 * Changes bar's Keep All and Undo All, a prompt's Restore Files, Follow
 * (the view's buttons, in the Command Palette too), Rename and Export.
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import type { ChatEditorPanels } from '../views/chatEditorPanel';
import type { Chats } from '../chats/chats';
import type { ChatViewProvider } from '../views/chatViewProvider';
import type { ChatChanges } from '../changes/chatChanges';
import { titleText } from '../shared/text/titleText';
import { exportChat } from './exportChat';
import { renameOpenChat } from '../history/rename';

export interface ChatCommandDeps {
  readonly chats: Chats;
  readonly panels: ChatEditorPanels;
  readonly view: ChatViewProvider;
}

export function registerChatCommands({ chats, panels, view }: ChatCommandDeps): vscode.Disposable[] {
  const shown = (): Chat => chats.shown;
  /** The shown chat's Changes bar when it lists something; else says there is nothing to keep or undo. */
  const changes = (): ChatChanges | undefined => {
    const bar = shown().changes;
    if (bar && bar.status.total > 0) return bar;
    void vscode.window.showInformationMessage('The agent changed no files in this chat since they were last kept.');
    return undefined;
  };
  return [
    vscode.commands.registerCommand('vscode-acp.connect', () => shown().connect()),
    vscode.commands.registerCommand('vscode-acp.disconnect', () => shown().disconnect()),
    vscode.commands.registerCommand('vscode-acp.newChat', () => void chats.newChat()),
    vscode.commands.registerCommand('vscode-acp.closeChat', () => chats.close(shown().id)),
    vscode.commands.registerCommand('vscode-acp.openChatInEditor', () => panels.open(shown())),
    vscode.commands.registerCommand('vscode-acp.clearChat', () => shown().clear()),
    vscode.commands.registerCommand('vscode-acp.stop', () => shown().stop()),
    vscode.commands.registerCommand('vscode-acp.restart', () => shown().restart()),
    vscode.commands.registerCommand('vscode-acp.focusChat', () => view.reveal()),
    vscode.commands.registerCommand('vscode-acp.keepAllChanges', () => changes()?.keep()),
    vscode.commands.registerCommand('vscode-acp.undoAllChanges', () => changes()?.undo()),
    vscode.commands.registerCommand('vscode-acp.restoreFiles', () => pickRestore(shown())),
    vscode.commands.registerCommand('vscode-acp.exportChat', () => exportChat(shown())),
    // From a chat page's list: the chat it names (one closed meanwhile: nothing); else the shown one.
    vscode.commands.registerCommand('vscode-acp.renameChat', (chatId?: unknown) => {
      const chat = typeof chatId === 'string' ? chats.all.find((c) => c.id === chatId) : shown();
      return chat ? renameOpenChat(chats, chat) : undefined;
    }),
    vscode.commands.registerCommand('vscode-acp.toggleFollow', () => {
      const chat = shown();
      if (!chat.follow.offered) {
        void vscode.window.showInformationMessage('Following the agent needs a trusted local workspace folder.');
      } else chat.setFollow(!chat.follow.enabled);
    }),
  ];
}

/** "Restore files to here", from the Command Palette: the shown chat's prompts that have it, the newest first. */
async function pickRestore(chat: Chat): Promise<void> {
  const changes = chat.changes;
  const entryIds = changes?.checkpointEntries ?? [];
  if (!changes || entryIds.length === 0) {
    void vscode.window.showInformationMessage(
      'No prompt of this chat has files to restore (the agent changed none here).',
    );
    return;
  }
  const prompts = new Map(chat.thread.entries.flatMap((e) => (e.kind === 'user' ? [[e.id, e.text] as const] : [])));
  const items = [...entryIds].reverse().map((entryId) => ({
    label: titleText(prompts.get(entryId) ?? 'An earlier prompt', 100),
    entryId,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Restore files to before a prompt',
    placeHolder: 'The files the agent changed from this prompt on go back as they were before it (you see them first)',
  });
  if (picked) await changes.restoreTo(picked.entryId);
}
