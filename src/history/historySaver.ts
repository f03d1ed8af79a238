/**
 * Saving the workspace's history: it observes the open chats (Chats'
 * HistoryEvent) and saves each one that was used, brings a saved copy up to
 * date when its changes are recorded, and follows a session the agent
 * replaced. Opening a saved chat reads its transcript here, so the chat
 * model never touches the history's files.
 */
import * as vscode from 'vscode';
import type { Platform } from '../platform';
import type { HistoryEntry } from '../shared/savedSessions';
import type { Chat } from '../chat/chat';
import type { Chats, HistoryEvent } from '../chat/chats';
import type { HistoryStore } from './historyStore';

export function saveHistory(
  chats: Chats,
  store: HistoryStore,
  platform: Pick<Platform, 'checkpoints'>,
  log: vscode.LogOutputChannel,
): vscode.Disposable {
  /** Every copy a chat's changes name: the open chats' and the saved ones' (the checkpoints' sweep keeps them). */
  const checkpointHashes = async (): Promise<ReadonlySet<string>> => {
    const keep = new Set<string>();
    for (const chat of chats.all) chat.changes?.hashes(keep);
    await store.changesHashes(keep);
    return keep;
  };
  /**
   * Saves `chat` as it is when its turn in the store's queue comes (not as it was when asked): several changes in a
   * row (a turn's end, its changes, its comments addressed) make one write, and the last state is what is saved.
   * One save waits per chat; a use asked while a refresh waits makes that one a use.
   */
  const waiting = new Map<Chat, { title: string | undefined; refresh: boolean }>();
  const save = (chat: Chat, title: string | undefined, refresh = false): Promise<void> => {
    const queued = waiting.get(chat);
    if (queued) {
      if (!refresh) Object.assign(queued, { title, refresh: false });
      return Promise.resolve();
    }
    const ask = { title, refresh };
    waiting.set(chat, ask);
    const done = () => waiting.get(chat) === ask && waiting.delete(chat);
    return store
      .save(
        () => {
          done();
          const session = chat.session;
          return session && { ...session, title: ask.title, thread: chat.thread, changes: chat.changes?.toSave };
        },
        () => ask.refresh,
      )
      .finally(done);
  };
  return chats.onDidChangeHistory((event: HistoryEvent) => {
    switch (event.kind) {
      case 'used':
        // Once the turn's changes are recorded (a pass over the workspace): one write with all of it.
        void (event.chat.changes?.settled ?? Promise.resolve()).then(() => save(event.chat, event.title));
        return;
      case 'changed': {
        // Not a use: the saved copy keeps its place. A turn under way, or whose changes are being recorded, is saved
        // when that is done (as a use).
        const later = event.chat.thread.turn !== 'idle' || event.chat.changes?.busyFollowing === true;
        const saved = later ? Promise.resolve() : save(event.chat, event.chat.title, true);
        // After the save: the sweep keeps what saved chats name.
        void saved
          .then(() => platform.checkpoints?.sweepIfFull(checkpointHashes))
          .catch((error: unknown) => log.warn(`Checkpoint copies were not swept: ${String(error)}`));
        return;
      }
      case 'replaced':
        void store.moved(event.before, event.after);
        return;
      case 'renamed':
        if (event.chat.session) void store.rename(event.chat.session, event.title);
        return;
    }
  });
}

/** Opens a saved chat: the open chat on its session, else a new one with its saved transcript. */
export async function openSavedChat(
  chats: Chats,
  store: HistoryStore,
  entry: HistoryEntry,
  how?: 'load' | 'resume',
): Promise<Chat> {
  return chats.showChatOn(entry.agentId, entry.sessionId) ?? chats.openSaved(entry, await store.transcript(entry), how);
}
