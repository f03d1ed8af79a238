/**
 * Rename, as the user asks for it: the title in an input box, for an open
 * chat (Chats.rename: the list, the header, the history and, where it stores
 * titles, the agent follow) or a saved session that is not open (its saved
 * entry: an agent that stores titles gets it when the chat is open again).
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import type { HistoryEntry } from '../shared/saved/savedSessions';
import { titleText } from '../shared/text/titleText';
import type { HistoryStore } from './historyStore';

/** The new title the user typed (as it will be shown), or undefined when they cancelled or left it unchanged. */
async function askTitle(current: string | undefined): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: 'Rename Chat',
    prompt: 'The name in the chat list, the Sessions view and the history',
    value: current ?? '',
    placeHolder: 'A name for this chat',
    validateInput: (value) => (titleText(value) ? undefined : 'A name needs at least one visible character.'),
  });
  const title = typed === undefined ? '' : titleText(typed);
  return title && title !== current ? title : undefined;
}

export async function renameOpenChat(chats: Chats, chat: Chat): Promise<void> {
  const title = await askTitle(chat.title);
  if (title) await chats.rename(chat, title);
}

/** A saved session from the Sessions view or the history: the open chat on it, else its saved entry. */
export async function renameSaved(chats: Chats, store: HistoryStore, entry: HistoryEntry): Promise<void> {
  const open = chats.chatOn(entry.agentId, entry.sessionId);
  if (open) return renameOpenChat(chats, open);
  const title = await askTitle(entry.title);
  if (title) await store.rename(entry, title);
}
