/**
 * The commands that act on the chat the view shows: connect, disconnect,
 * stop, restart, clear; new, close, open in an editor; focus the view.
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import type { ChatEditorPanels } from '../views/chatEditorPanel';
import type { Chats } from '../chat/chats';
import type { ChatViewProvider } from '../views/chatViewProvider';

export interface ChatCommandDeps {
  readonly chats: Chats;
  readonly panels: ChatEditorPanels;
  readonly view: ChatViewProvider;
}

export function registerChatCommands({ chats, panels, view }: ChatCommandDeps): vscode.Disposable[] {
  const shown = (): Chat => chats.shown;
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
  ];
}
