// What a step sees while it plays, plus helpers shared by all step handlers.
import type * as acp from '@agentclientprotocol/sdk';
import type { Session } from './session';

export interface StepContext {
  /** Calls client-side ACP methods (session/update, fs, terminal, permission). */
  client: acp.AgentContext;
  /** The session the steps play in; undefined in onInitialize. */
  session: Session | undefined;
  /** Aborts on session/cancel (or $/cancel_request of the prompt). */
  signal: AbortSignal;
  /** The prompt being answered (empty outside session/prompt). */
  prompt: acp.ContentBlock[];
}

/** This process's sessions, as the agent keeps them (set by the agent). */
export const agentProcess: { openSessions: () => number; cancelled: string[] } = {
  openSessions: () => 0,
  cancelled: [],
};

/** What the client said about itself in `initialize` (one client per agent process). */
export const client: { capabilities?: acp.ClientCapabilities } = {};

/** A step's result: a stop reason ends the steps early; nothing means go on. */
export type StepOutcome = acp.StopReason | void;

function requireSession(ctx: StepContext): Session {
  if (!ctx.session) throw new Error('this step needs a session');
  return ctx.session;
}

/** Sends a session/update for the context's session and (unless `record` is false) records it for session/load. */
export async function sendUpdate(ctx: StepContext, update: acp.SessionUpdate, record = true): Promise<void> {
  const session = requireSession(ctx);
  if (session.messageId && update.sessionUpdate === 'agent_message_chunk' && update.messageId === undefined) {
    update = { ...update, messageId: session.messageId };
  }
  if (record) session.record(update);
  await ctx.client.notify('session/update', { sessionId: session.id, update });
}

/** Sends an agent_message_chunk with plain text. */
export function sendText(ctx: StepContext, text: string): Promise<void> {
  return sendUpdate(ctx, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
}

export function sessionId(ctx: StepContext): string {
  return requireSession(ctx).id;
}

/** Waits `ms` (0 = one event-loop turn). Resolves false if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      clearImmediate(immediate);
      resolve(false);
    };
    const finish = () => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    };
    const timer = ms > 0 ? setTimeout(finish, ms) : undefined;
    const immediate = ms > 0 ? undefined : setImmediate(finish);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Error text for reports: the message, plus JSON-RPC error data when the client sent some. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const data = (error as { data?: unknown }).data;
  return data === undefined || data === null ? error.message : `${error.message} ${JSON.stringify(data)}`;
}
