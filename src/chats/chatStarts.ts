/**
 * How a chat the list opens starts: with a saved session's transcript (or why it could not be read), or as a branch
 * named after its source, or in a worktree; which chat nobody would miss when a new one takes its place; and what
 * connected chats say when the folder becomes trusted.
 */
import type { Chat } from '../chat/chat';
import type { HistoryEntry, SavedTranscript } from '../shared/saved/savedSessions';
import { withFreshIds } from '../shared/saved/savedSessions';
import type { HostCapabilities, WorkPlace } from '../platform';

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

/** What a chat in a worktree says first: where it works, and that the user's files are not touched. */
export function placeText(place: WorkPlace): string {
  return `This chat works in its own worktree (${place.label}) at ${place.path}: the agent reads, writes and runs commands there, never in your workspace folder. Apply, open or discard it with the worktree buttons or the commands "ACP: Apply Worktree to My Workspace", "ACP: Open Worktree in New Window" and "ACP: Discard Worktree".`;
}

/**
 * The user trusted the folder. An agent connected before was offered no file access or terminals (capabilities are
 * fixed at `initialize`): on a host that offers them, each connected chat says that a restart gives them, with the
 * button. New connections get them (see the agents' retire).
 */
export function trustedNow(chats: readonly Chat[], offered: HostCapabilities): void {
  if (!offered.fileRead && !offered.terminals) return;
  for (const chat of chats) {
    if (chat.connection !== 'connected') continue;
    chat.say(
      'info',
      'This folder is trusted now. Restart the agent to give it file access and terminals (the session continues where the agent can).',
      'restart',
    );
  }
}
