/**
 * Saving the workspace's history: it observes the open chats (Chats'
 * HistoryEvent) and saves each one that was used, brings a saved copy up to
 * date when its changes are recorded, and follows a session the agent
 * replaced. Opening a saved chat reads its transcript here, so the chat
 * model never touches the history's files.
 */
import * as vscode from 'vscode';
import type { Platform } from '../platform';
import { sessionKey, type HistoryEntry } from '../shared/saved/savedSessions';
import type { Thread } from '../shared/thread/thread';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import type { HistoryEvent } from '../chats/chatEvents';
import type { HistoryStore } from './historyStore';

export function saveHistory(
  chats: Chats,
  store: HistoryStore,
  platform: Pick<Platform, 'checkpoints'>,
  log: vscode.LogOutputChannel,
): vscode.Disposable & { written(): Promise<unknown> } {
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
   * One save waits per chat and session; a use asked while a refresh waits makes that one a use. A chat whose session
   * changed meanwhile (Restart Agent anew) saves the session asked for, with the transcript as it was then.
   */
  const waiting = new Map<string, { title: string | undefined; refresh: boolean; thread: Thread }>();
  const save = (chat: Chat, title: string | undefined, refresh = false, at = asOf(chat)): Promise<void> => {
    const { session: asked, thread } = at;
    if (!asked) return Promise.resolve();
    const key = `${chat.id}\n${sessionKey(asked)}`;
    const queued = waiting.get(key);
    if (queued) {
      if (!refresh) Object.assign(queued, { title, refresh: false });
      queued.thread = thread;
      return Promise.resolve();
    }
    const ask = { title, refresh, thread };
    waiting.set(key, ask);
    const done = () => waiting.get(key) === ask && waiting.delete(key);
    return store
      .save(
        () => {
          done();
          // The transcript is an immutable value: the one asked with is the session's as it was then.
          const same = chat.sessionRef !== undefined && sessionKey(chat.sessionRef) === sessionKey(asked);
          return { ...asked, title: ask.title, thread: same ? chat.thread : ask.thread, changes: chat.changes?.toSave };
        },
        () => ask.refresh,
      )
      .finally(done);
  };
  /** Saves asked for that wait for a turn's changes to be recorded: a window closing waits for them too. */
  const waitingForChanges = new Set<Promise<void>>();
  const listening = chats.onDidChangeHistory((event: HistoryEvent) => {
    switch (event.kind) {
      case 'used': {
        // Once the turn's changes are recorded (a pass over the workspace): one write with all of it, of the session
        // the turn was in.
        const at = asOf(event.chat);
        const saved = (event.chat.changes?.settled ?? Promise.resolve()).then(() =>
          save(event.chat, event.title, false, at),
        );
        waitingForChanges.add(saved);
        void saved.finally(() => waitingForChanges.delete(saved));
        return;
      }
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
        if (event.chat.sessionRef) void store.rename(event.chat.sessionRef, event.title);
        return;
    }
  });
  return {
    dispose: () => listening.dispose(),
    // A window reloaded while a turn's changes are still being recorded keeps that turn: its save is still to come.
    written: async () => {
      await Promise.all(waitingForChanges);
      await store.flushed();
    },
  };
}

/** The chat's session and transcript now. */
function asOf(chat: Chat): { session: Chat['sessionRef']; thread: Thread } {
  return { session: chat.sessionRef, thread: chat.thread };
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
