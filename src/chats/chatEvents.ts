/**
 * What the open chats tell of one chat as it changes: a turn ended, it asks the user something, what the workspace's
 * history must save. Chats fires these; views/chatNotifier.ts and history/historySaver.ts listen.
 */
import type { Disposable } from '../shared/events';
import type { SessionRef } from '../session/sessionOpen';
import type { Chat } from '../chat/chat';

/** Why a chat wants the user. */
export type NeedUser = 'finished' | 'failed' | 'permission' | 'question';

/** What this workspace's history keeps up with (history/historySaver.ts saves on each). */
export type HistoryEvent =
  /** Used (a turn ended, it was opened): saved, at the top of the history, under `title`. */
  | { readonly kind: 'used'; readonly chat: Chat; readonly title: string | undefined }
  /** Its changes were recorded (a turn's pass over the workspace, Keep, Undo): the saved copy is brought up to date, in its place. */
  | { readonly kind: 'changed'; readonly chat: Chat }
  /** The agent could not continue `before`: the chat goes on in `after`, and so does its saved entry. */
  | { readonly kind: 'replaced'; readonly before: SessionRef; readonly after: SessionRef }
  /** The user named the chat (Rename): its saved entry takes `title`, in its place. */
  | { readonly kind: 'renamed'; readonly chat: Chat; readonly title: string };

/** Where what `chat` tells goes. */
export interface ChatListener {
  /** Any change of the chat. */
  changed(): void;
  /** A turn ended (the prompt's answer is over). */
  turnEnded(): void;
  needUser(why: NeedUser): void;
  history(event: HistoryEvent): void;
}

/** Listens to `chat` and tells `to` what its changes mean; disposing stops it. */
export function watchChat(chat: Chat, to: ChatListener): Disposable {
  let turn = chat.thread.turn;
  let asking = { permissions: 0, questions: 0 };
  const subscriptions = [
    // A session the agent could not continue: its saved entry becomes the new session's (no ghost under a dead id).
    chat.onDidReplaceSession(({ before, after }) => to.history({ kind: 'replaced', before, after })),
    chat.onDidChange(() => {
      const now = chat.thread.turn;
      if (turn === 'running' && now === 'idle') to.turnEnded();
      turn = now;
      const asks = { permissions: chat.permissions.prompts.length, questions: chat.elicitations.views.length };
      if (asks.permissions > asking.permissions) to.needUser('permission');
      if (asks.questions > asking.questions) to.needUser('question');
      asking = asks;
      to.changed();
    }),
    // The changes of a turn are known just after it ends (a pass over the workspace), and Keep and Undo change them.
    ...(chat.changes ? [chat.changes.onDidRecord(() => to.history({ kind: 'changed', chat }))] : []),
  ];
  return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
}
