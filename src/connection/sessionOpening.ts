/** How a session is opened (new, resumed, loaded, forked), and the unstable fork's request and answer. */
import type * as acp from '@agentclientprotocol/sdk';

/**
 * How a session is opened: a new one, or from the agent's session `sessionId`: continued without a replay
 * (`sessionCapabilities.resume`), replayed into `onReplay` before the answer (`loadSession`), or copied into a new one
 * (`sessionCapabilities.fork`, unstable) up to and including the agent's message `messageId` where given (the extension
 * Claude Code's adapter and codex-acp take: `_meta.jetbrains.air.fork`), else whole.
 */
export type SessionOpening =
  | { readonly how: 'new' }
  | { readonly how: 'resume'; readonly sessionId: string }
  | { readonly how: 'load'; readonly sessionId: string; readonly onReplay: (update: acp.SessionUpdate) => void }
  | { readonly how: 'fork'; readonly sessionId: string; readonly messageId?: string };

/** The session opened (the new one, for a fork), with the controls the agent offers in it. */
export type OpenedSession = acp.NewSessionResponse;

export function forkParams(fork: Extract<SessionOpening, { how: 'fork' }>, params: object): object {
  const { sessionId, messageId } = fork;
  const meta = messageId !== undefined ? { _meta: { jetbrains: { air: { fork: { version: 1, messageId } } } } } : {};
  return { sessionId, ...params, ...meta };
}

/** A `session/fork` answer (unstable, so not checked by the SDK): it must name the new session. */
export function forkAnswer(answer: unknown): acp.NewSessionResponse {
  const sessionId = (answer as { sessionId?: unknown } | null)?.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 1_000) {
    throw new Error('The agent answered session/fork without a session id.');
  }
  return answer as acp.NewSessionResponse;
}
