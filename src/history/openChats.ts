/**
 * The chats open in the window, kept in the workspace's state so that a window reload brings them back: which were
 * open (those in the history: a chat is saved once a turn in it ended), which was shown, their ids (the page keeps
 * each chat's unsent text under its id while VS Code hides it), that unsent text and the prompts queued behind a
 * turn. Reopened, a chat shows its saved transcript, its unsent and queued text back in its prompt box (no turn runs
 * to queue behind), and connects only when the user sends or connects (Chats.reopen).
 */
import type * as vscode from 'vscode';
import { z } from 'zod';
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { MAX_QUEUED } from '../chat/composer/promptQueue';
import { MAX_DRAFT_CHARS } from '../shared/page/protocol';
import type { HistoryStore } from './historyStore';

const KEY = 'vscode-acp.openChats';

const recordSchema = z.object({
  idsUsed: z.number().int().nonnegative(),
  shown: z.string().max(64).optional(),
  chats: z
    .array(
      z.object({
        id: z.string().max(64),
        agentId: z.string().max(256),
        sessionId: z.string().max(1024),
        draft: z.string().max(MAX_DRAFT_CHARS).optional(),
        queued: z.array(z.string().max(MAX_DRAFT_CHARS)).max(MAX_QUEUED).optional(),
      }),
    )
    .max(100),
});
type OpenChatsRecord = z.infer<typeof recordSchema>;

/** What the last window left (nothing, for a record that does not parse: another version's, or damaged). */
export function lastOpenChats(state: vscode.Memento): OpenChatsRecord | undefined {
  const parsed = recordSchema.safeParse(state.get(KEY));
  return parsed.success ? parsed.data : undefined;
}

/** Keeps the record up to date as chats open, close, are shown and get saved. */
export function rememberOpenChats(chats: Chats, state: vscode.Memento): vscode.Disposable {
  let last = '';
  const write = () => {
    const record: OpenChatsRecord = {
      idsUsed: chats.idsUsed,
      shown: chats.shown.id,
      chats: chats.all.flatMap((chat) =>
        chat.sessionRef
          ? [
              {
                id: chat.id,
                agentId: chat.sessionRef.agentId,
                sessionId: chat.sessionRef.sessionId,
                ...(chat.draft ? { draft: chat.draft } : {}),
                ...(chat.composer.queuedTexts.length > 0 ? { queued: chat.composer.queuedTexts } : {}),
              },
            ]
          : [],
      ),
    };
    const text = JSON.stringify(record);
    if (text === last) return;
    last = text;
    void state.update(KEY, record);
  };
  // The list changes when a chat opens, closes or is shown; the history, when a chat gets a session worth keeping.
  // A chat changes often (each streamed update): written only when its queue did.
  const queues = new WeakMap<Chat, number>();
  const queueChanged = (chat: Chat) => {
    if ((queues.get(chat) ?? 0) === chat.composer.queueVersion) return;
    queues.set(chat, chat.composer.queueVersion);
    write();
  };
  const subscriptions = [
    chats.onDidChangeList(write),
    chats.onDidChangeHistory(write),
    chats.onDidChangeDraft(write),
    chats.onDidChangeChat(queueChanged),
  ];
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}

/** Brings back the chats of `record` that the history has. */
export async function reopenChats(
  chats: Chats,
  store: HistoryStore,
  record: OpenChatsRecord | undefined,
): Promise<void> {
  if (!record || record.chats.length === 0 || !store.available) return;
  const saved = await store.list();
  const reopened = [];
  for (const { id, agentId, sessionId, draft, queued } of record.chats) {
    const entry = saved.find((e) => e.agentId === agentId && e.sessionId === sessionId);
    const text = [draft ?? '', ...(queued ?? [])].filter((t) => t.trim() !== '').join('\n\n');
    if (entry) reopened.push({ chatId: id, entry, saved: await store.transcript(entry), draft: text });
  }
  chats.reopen(reopened, record.shown);
}
