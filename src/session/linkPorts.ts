/**
 * What a chat's link (chatLink.ts) is given: the chat's transcript to write the session into, its turns to end, and
 * the answers to what the agent asks the chat, given for the chat's live session only; and how a live session is
 * written into the transcript.
 */
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { NoticeAction, NoticeLevel, Thread, ToolEntry } from '../shared/thread/thread';
import type { PullAnswer } from '../connection/steering';
import type { AgentExit } from '../platform';
import type { Disposable } from '../shared/events';
import { keptFromReplay } from '../shared/updateKinds';
import { followSession, type ChatSession, type SessionListener, type SessionRequests } from './chatSession';
import type { ElicitationQueue } from './elicitationQueue';
import type { EditorCall } from '../shared/editorCalls';
import type { PermissionQueue } from './permissionQueue';

/** The chat's transcript, as the link writes to it and asks it (chat/chatTranscript.ts). */
export interface LinkTranscript {
  readonly value: Thread;
  /** A turn is running. */
  readonly running: boolean;
  notice(level: NoticeLevel, text: string, action?: NoticeAction): void;
  /** The agent's own warning (a malformed message, say). */
  warn(text: string): void;
  sessionOpened(setup: ChatSession['setup'], continuation: ChatSession['continuation']): void;
  update(update: SessionUpdate): void;
  terminal(
    terminalId: string,
    change: { data: string } | { exit: Parameters<SessionListener['terminalExit']>[1] },
  ): void;
  /** The title of tool call `toolCallId` as the chat shows it, when it has one (an elicitation about it). */
  toolTitle(toolCallId: string): string | undefined;
  /** The agent asked the editor server something (shared/editorCalls.ts). */
  editorCall(call: EditorCall): void;
  /** The tool call a permission request is about, as the chat shows it (`show` false: not shown). */
  permissionAsked(toolCall: RequestPermissionRequest['toolCall'], show: boolean): ToolEntry | undefined;
}

/** The chat's turns, as the link ends them (chat/chatTurns.ts). */
export interface LinkTurns {
  /** Ends the running turn as failed, saying why. */
  fail(message: string): void;
  /** Ends the running turn as cancelled, without a word (the chat disconnected). */
  cancel(): void;
}

/**
 * The answers to what the agent asks the chat: a permission (its tool call shown in the transcript first), a question
 * (with the title of the tool call it is about), the messages steered into its turn. Only the chat's live session
 * (`live`) may ask (the connection routes by session id); any other is refused.
 */
export function liveSessionRequests(
  live: () => ChatSession | undefined,
  transcript: LinkTranscript,
  permissions: PermissionQueue,
  elicitations: ElicitationQueue,
  pullSteered: () => PullAnswer,
): SessionRequests {
  const asking = (sessionId: unknown) => {
    const session = live();
    return session && sessionId === session.sessionId ? session : undefined;
  };
  return {
    requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
      const session = asking(params.sessionId);
      if (!session) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
      // Not shown for a request refused because too many wait: a flood must not flood the chat with cards.
      const known = transcript.permissionAsked(params.toolCall, !permissions.full);
      const connection = session.lease.connection;
      return permissions.request(params, known, signal, (path) => connection.fileNow(path));
    },
    elicit(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
      if (!asking((params as { sessionId?: unknown }).sessionId)) return Promise.resolve({ action: 'cancel' });
      const toolCallId = (params as { toolCallId?: unknown }).toolCallId;
      const toolTitle = typeof toolCallId === 'string' ? transcript.toolTitle(toolCallId) : undefined;
      return elicitations.request(params, toolTitle, signal);
    },
    elicitationDone: (id) => elicitations.complete(id),
    pullSteered,
  };
}

/**
 * Writes a live session into the transcript: its updates (each then `updated`), terminals, warnings and calls to the
 * editor server. A loaded
 * session's replay can go on after the load's answer (Gemini CLI sends nearly all of it then): until `endReplay` (the
 * next prompt), only its state updates apply, as the transcript is on screen already.
 */
export function followIntoTranscript(
  session: ChatSession,
  transcript: LinkTranscript,
  on: { updated(update: SessionUpdate): void; gone(exit: AgentExit): void },
): { subscriptions: Disposable[]; endReplay: () => void } {
  let replaying = session.continuation?.how === 'loaded' && !session.continuation.replayShown;
  const subscriptions = followSession(session, {
    update: (update) => {
      if (replaying && !keptFromReplay(update.sessionUpdate)) return;
      transcript.update(update);
      on.updated(update);
    },
    gone: on.gone,
    warn: (text) => transcript.warn(text),
    terminalOutput: (terminalId, data) => transcript.terminal(terminalId, { data }),
    terminalExit: (terminalId, exit) => transcript.terminal(terminalId, { exit }),
  });
  if (session.editor) subscriptions.push(session.editor.onDidCall((call) => transcript.editorCall(call)));
  return { subscriptions, endReplay: () => (replaying = false) };
}
