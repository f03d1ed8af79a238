/**
 * How a chat the list opens starts: with a saved session's transcript (or why it could not be read), or as a branch
 * named after its source; and which chat nobody would miss when a new one takes its place.
 */
import type { Chat } from '../chat/chat';
import type { HistoryEntry, SavedTranscript } from '../shared/saved/savedSessions';
import { withFreshIds } from '../shared/saved/savedSessions';

/** A saved session's transcript in `chat` (or why it could not be read), continued on the first Connect (`how`: only that way). */
export function showSaved(
  chat: Chat,
  entry: HistoryEntry,
  saved: SavedTranscript | { error: string },
  how?: 'load' | 'resume',
): void {
  const session = { agentId: entry.agentId, sessionId: entry.sessionId, cwd: entry.cwd, ...(how ? { how } : {}) };
  if ('error' in saved) {
    chat.restore([], {}, session);
    chat.say(
      'warning',
      `This chat's history could not be shown: ${saved.error}. Connect to continue the session where the agent can.`,
    );
  } else {
    // The user's name for it, else the agent's (the index's title may be the first prompt's words).
    const title = entry.titleByUser ? { text: entry.title, byUser: true } : { text: saved.title };
    chat.restore(withFreshIds(saved, chat.id), saved.terminals, session, { title, changes: saved.changes });
  }
}

/** Nothing in it and nothing under way: a chat nobody would miss. */
export function isBlank(chat: Chat): boolean {
  return (
    chat.thread.entries.length === 0 &&
    chat.thread.turn === 'idle' &&
    chat.permissions.prompts.length === 0 &&
    chat.composer.status.pendingPrompt === undefined
  );
}

/** A branch's title until the agent or the user names it: its source's, said to be a branch (a second is numbered, toldApart). */
export function branchTitle(title: string | undefined): string | undefined {
  if (!title) return undefined;
  return title.endsWith(' (branch)') ? title : `${title} (branch)`;
}
