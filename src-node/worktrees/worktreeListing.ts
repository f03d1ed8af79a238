/**
 * The worktrees the Sessions view lists (issue 49): those whose chat is not open, neither applied nor discarded, so
 * that no agent's work is forgotten when its chat is closed or the window reloads. Clicking one opens its chat: the
 * open one, else its saved session (the history's newest at the worktree), else a new chat there.
 */
import * as vscode from 'vscode';
import type { Chat } from '../../src/chat/chat';
import type { Chats } from '../../src/chats/chats';
import type { HistoryStore } from '../../src/history/historyStore';
import { openSavedChat } from '../../src/history/historySaver';
import type { WorktreeListing } from '../../src/history/sessionsTree';
import { chatWorkingIn, placeOf, worktreeLabel, type WorktreeRecords } from './worktreeRecords';

export function worktreeListing(records: WorktreeRecords, chats: Chats): WorktreeListing {
  return {
    list: () =>
      records
        .all()
        .filter((r) => r.appliedAt === undefined && !chatWorkingIn(chats, r.path))
        .map((r) => ({
          id: r.id,
          label: r.task ? `${r.task.agent}, ${r.task.label}` : `Worktree, ${worktreeLabel(r)}`,
          description: new Date(r.created).toLocaleString(),
          tooltip: `A chat's worktree at ${r.path}, not applied to your workspace. Open its chat, or apply, open or discard it from its menu.`,
        })),
    onDidChange: (listener) => {
      const subscriptions = [records.onDidChange(listener), chats.onDidChangeList(listener)];
      return new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose()));
    },
  };
}

/** Opens the chat of the worktree `id`: open, saved, or new there. */
export async function openWorktreeChat(
  records: WorktreeRecords,
  chats: Chats,
  store: HistoryStore,
  id: string,
): Promise<Chat | undefined> {
  const record = records.get(id);
  if (!record) return undefined;
  const open = chatWorkingIn(chats, record.path);
  if (open) {
    chats.show(open.id);
    return open;
  }
  // A chat closed right after its turn may still be on its way to the history.
  await store.flushed();
  const saved = (await store.list())
    .filter((entry) => entry.cwd === record.path)
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  return saved ? openSavedChat(chats, store, saved) : chats.newChatAt(placeOf(record), record.agentId);
}
