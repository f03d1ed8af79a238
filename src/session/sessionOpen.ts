/**
 * Opening the chat's session on a started agent: a new one, or the earlier
 * one continued where the agent can (`session/resume`, else `session/load`,
 * else a new one that says why), or a fork of it (`session/fork`, at a
 * message where the agent takes that), signing in when the agent asks.
 */
import * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import type { AgentClient } from '../connection/agentClient';
import type { SessionHandlers } from '../connection/clientRequests';
import { errorMessage } from '../errorText';
import { ReconnectAfterSignIn, SignInError, withSignIn, type SignedIn } from '../connection/signIn/signIn';
import type { SessionSetup } from '../shared/sessionControls';
import { setupOf } from './sessionAnswer';
import { keptFromReplay } from '../shared/updateKinds';
import { quirksOf } from '../agents/agentQuirks';
import type { WorkRoots } from '../connection/workRoots';

/** A session that a new connection should continue. */
export interface EarlierSession {
  readonly sessionId: string;
  readonly cwd: string;
  /** Only this way (the user chose: Load Session with History, Resume Session without History); else resume, else load. */
  readonly how?: 'load' | 'resume';
  /**
   * Not continued: forked (a branch of the conversation, chat/rewindCut.ts), after the agent's message `messageId` where
   * it forks at a message, else whole where `whole` (nothing after the cut); otherwise, or when the fork fails, a new
   * session (the caller tells it the earlier turns).
   */
  readonly fork?: { readonly messageId?: string; readonly whole: boolean };
}

/** An agent's session, and the folder it runs in. */
export type SessionRef = EarlierSession & { agentId: string };

export type Continuation =
  /** `state`: the updates to apply: the replay's state updates only when the transcript is on screen, else all of it. */
  | { readonly how: 'resumed' | 'loaded'; readonly state: readonly acp.SessionUpdate[]; readonly replayShown: boolean }
  | { readonly how: 'new'; readonly why: string }
  /** A fork of the earlier session (EarlierSession.fork). */
  | { readonly how: 'forked' };

/**
 * Continues the earlier session where the agent can (`session/resume`, else
 * `session/load`), else starts a new one and says why.
 */
export async function openSession(
  client: AgentClient,
  init: acp.InitializeResponse,
  roots: WorkRoots,
  earlier: EarlierSession | undefined,
  handlers: SessionHandlers,
  log: vscode.LogOutputChannel,
  /** The conversation is on screen already: a load's replay must not be shown again (and resume is enough). */
  onScreen: boolean,
  /** The session's MCP servers: one snapshot for every attempt here (a sign-in retry, a fallback to a new session). */
  mcpServers: readonly acp.McpServer[],
  /** Signs in when the agent asks (at most once for this call); undefined: no sign-in is offered. */
  signIn: (() => Promise<SignedIn>) | undefined,
  /** The open is given up (the user cancelled): the agent is told of the request under way, and nothing more is sent. */
  signal: AbortSignal,
): Promise<{ sessionId: string; setup: SessionSetup; continuation?: Continuation }> {
  const fresh = async (why?: string) => {
    signal.throwIfAborted();
    const response = await withSignIn(
      () => client.openSession({ how: 'new' }, roots, [...mcpServers], handlers, signal),
      signIn,
    );
    return {
      sessionId: response.sessionId,
      setup: setupOf(response),
      ...(why ? { continuation: { how: 'new', why } as const } : {}),
    };
  };
  if (!earlier) return fresh();
  const { sessionId } = earlier;
  if (earlier.cwd !== roots.cwd) return fresh(`the agent now works in ${roots.cwd}, not ${earlier.cwd}`);
  if (earlier.fork) {
    // A branch: the caller gives a new session the earlier turns when there is no fork.
    const point = client.opens.has('fork') ? forkPoint(init, earlier.fork) : undefined;
    if (!point) return fresh();
    try {
      const response = await withSignIn(
        () => client.openSession({ how: 'fork', sessionId, ...point }, roots, [...mcpServers], handlers, signal),
        signIn,
      );
      return { sessionId: response.sessionId, setup: setupOf(response), continuation: { how: 'forked' } };
    } catch (error) {
      if (signal.aborted || client.isClosed || error instanceof SignInError || error instanceof ReconnectAfterSignIn) {
        throw error;
      }
      log.warn(`Forking session ${sessionId} failed: ${errorMessage(error)}`);
      return fresh();
    }
  }
  const canLoad = client.opens.has('load') && earlier.how !== 'resume';
  // No conversation on screen (its saved transcript could not be read): a load shows it again, where there is one.
  const canResume = client.opens.has('resume') && earlier.how !== 'load' && (onScreen || !canLoad);
  if (!canResume && !canLoad) {
    return fresh(
      earlier.how
        ? `the agent cannot ${earlier.how} a session`
        : 'the agent cannot continue a session after a reconnect',
    );
  }
  try {
    if (canResume) {
      const response = await withSignIn(
        () => client.openSession({ how: 'resume', sessionId }, roots, [...mcpServers], handlers, signal),
        signIn,
      );
      return {
        sessionId,
        setup: setupOf(response),
        continuation: { how: 'resumed', state: [], replayShown: false },
      };
    }
    const state: acp.SessionUpdate[] = [];
    const response = await withSignIn(
      () =>
        client.openSession(
          {
            how: 'load',
            sessionId,
            onReplay: (update) => {
              if (!onScreen || keptFromReplay(update.sessionUpdate)) state.push(update);
            },
          },
          roots,
          [...mcpServers],
          handlers,
          signal,
        ),
      signIn,
    );
    return { sessionId, setup: setupOf(response), continuation: { how: 'loaded', state, replayShown: !onScreen } };
  } catch (error) {
    // Given up, or not signed in (or signed in through a terminal: the agent restarts first): no fresh session instead.
    if (signal.aborted || client.isClosed || error instanceof SignInError || error instanceof ReconnectAfterSignIn) {
      throw error;
    }
    log.warn(`Continuing session ${sessionId} failed: ${errorMessage(error)}`);
    return fresh(`the agent could not continue it (${errorMessage(error)})`);
  }
}

/**
 * Where an agent that forks sessions forks for `fork`: at its message where it takes a fork point (agentQuirks.ts),
 * else whole where that is what was asked; undefined: no fork (a new session, told the earlier turns).
 */
function forkPoint(
  init: acp.InitializeResponse,
  fork: NonNullable<EarlierSession['fork']>,
): { messageId?: string } | undefined {
  if (fork.messageId !== undefined && quirksOf(init.agentInfo?.name).forksAtMessage) {
    return { messageId: fork.messageId };
  }
  return fork.whole ? {} : undefined;
}
