/**
 * The view model: what a view showing a chat is told of it (`status` messages, src/shared/page/protocol.ts), read from
 * the chat's model each time the view is synced.
 */
import type { Chat } from '../chat/chat';
import type { Chats } from '../chats/chats';
import { redactor } from '../secrets/redactor';
import { noChanges } from '../shared/changes';
import type { ChatStatus, ViewStatus } from '../shared/page/protocol';
import { emptySessionControls } from '../shared/sessionControls';

/** What of a chat its status is read from. */
export type StatusSource = Pick<
  Chat,
  | 'liveConnection'
  | 'thread'
  | 'agents'
  | 'agentId'
  | 'connection'
  | 'permissions'
  | 'elicitations'
  | 'composer'
  | 'changes'
  | 'follow'
  | 'place'
>;

/** One chat as a view shows it. */
export function chatStatus(chat: StatusSource): ChatStatus {
  const connection = chat.liveConnection;
  const thread = chat.thread;
  return {
    agents: chat.agents,
    selectedAgentId: chat.agentId,
    connection: chat.connection,
    agentLabel: connection ? redactor.redact(connection.agentLabel) : undefined,
    turn: thread.turn,
    title: thread.title,
    plan: [...thread.plan],
    ...(thread.plans?.length ? { plans: [...thread.plans] } : {}),
    ...(connection && thread.suggestions?.length ? { suggestions: [...thread.suggestions] } : {}),
    // Controls belong to a live session; a disconnected chat offers none.
    controls: connection ? thread.controls : emptySessionControls,
    permissions: chat.permissions.prompts,
    elicitations: chat.elicitations.views,
    ...chat.composer.status,
    changes: chat.changes?.status ?? noChanges,
    checkpoints: chat.changes?.checkpointEntries ?? [],
    ...(chat.follow.offered ? { follow: chat.follow.enabled } : {}),
    ...(chat.place ? { worktree: { label: chat.place.label, path: chat.place.path } } : {}),
  };
}

/** What the view showing `chat` is told: the chat, the list of open chats, and Restricted Mode's words. */
export function viewStatus(chats: Chats, chat: Chat): ViewStatus {
  return { ...chatStatus(chat), chatId: chat.id, chats: chats.summaries(), restricted: chats.restricted };
}
