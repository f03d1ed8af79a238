/**
 * A chat's session on a shared agent process: a lease on the process
 * (agentConnections.ts), the session opened (or an earlier one continued,
 * sessionOpen.ts) with this chat's own permission prompts and terminals, and
 * the way back out (`session/close`, then the lease).
 */
import type * as vscode from 'vscode';
import { type Disposable } from '../shared/events';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionHandlers } from '../connection/clientRequests';
import { aborted, type AgentPool, type ConnectionLease } from '../connection/agentConnections';
import type { AgentExit, Platform } from '../platform';
import { planNotice, planSummary } from '../mcp/planText';
import { sessionMcp } from '../mcp/sessionMcp';
import type { McpPlan } from '../mcp/mcpPlan';
import { once, ReconnectAfterSignIn } from '../connection/signIn/signIn';
import type { SessionSetup } from '../shared/sessionControls';
import type { PermissionQueue } from './permissionQueue';
import { openSession, type Continuation, type EarlierSession } from './sessionOpen';
import { TerminalRequests } from './terminalRequests';
import { allRoots, rootsNotice } from '../connection/workRoots';
import { deadline } from '../connection/abandon';
import { errorMessage } from '../errorText';
import { startSessionEditor, type EditorServerDeps, type SessionEditor } from './sessionEditor';

export interface ChatSession {
  readonly lease: ConnectionLease;
  readonly sessionId: string;
  readonly cwd: string;
  /** This session's terminals, where the host offers them. */
  readonly terminals?: TerminalRequests;
  /** What the session response said about modes, config options and models. */
  readonly setup: SessionSetup;
  /** How an earlier session was continued, when one was asked for. */
  readonly continuation?: Continuation;
  /** What the chat says about MCP servers that were left out, if any were. */
  readonly mcpNotice?: string;
  /** What the chat says about workspace folders the agent was not given, if any were not. */
  readonly rootsNotice?: string;
  /** The session's editor server (sessionEditor.ts), closed with it. */
  readonly editor?: SessionEditor;
  /** Why the agent gets no editor server, when that is the agent's doing. */
  readonly editorNotice?: string;
}

export interface SessionDeps {
  readonly platform: Platform;
  readonly agents: AgentPool;
  readonly log: vscode.LogOutputChannel;
  /** What the editor server answers from; none: no session gets one. */
  readonly editorServer?: EditorServerDeps;
}

/** What the agent asks of the user in a chat's session: the chat answers (its permission and elicitation prompts). */
export type SessionRequests = Omit<SessionHandlers, 'terminals'>;

/** How long closing waits for the agent's answer to `session/close` before giving the process back. */
const CLOSE_WAIT_MS = 2_000;

/**
 * Opens a session for a chat; undefined when cancelled (by `signal` or the
 * user). Throws a message meant for the user. When the agent asks, the user
 * signs in; when the agent still refuses after a terminal sign-in, it is
 * restarted (every chat on it reconnects) and the session asked for once more.
 */
export async function openChatSession(
  deps: SessionDeps,
  agentId: string,
  permissions: PermissionQueue,
  requests: SessionRequests,
  signal: AbortSignal,
  earlier?: EarlierSession,
  onScreen = true,
): Promise<ChatSession | undefined> {
  // The MCP servers are worked out once: the attempt after a sign-in sends the same.
  const snapshot: { plan?: McpPlan } = {};
  const open = (signInAllowed: boolean) =>
    openOnce(deps, agentId, permissions, requests, signal, earlier, onScreen, signInAllowed, snapshot);
  try {
    return await open(true);
  } catch (error) {
    if (!(error instanceof ReconnectAfterSignIn) || signal.aborted) throw error;
    deps.agents.restartAfterSignIn(agentId);
    return open(false);
  }
}

async function openOnce(
  deps: SessionDeps,
  agentId: string,
  permissions: PermissionQueue,
  requests: SessionRequests,
  signal: AbortSignal,
  earlier: EarlierSession | undefined,
  onScreen: boolean,
  signInAllowed: boolean,
  snapshot: { plan?: McpPlan },
): Promise<ChatSession | undefined> {
  const lease = await deps.agents.acquire(agentId, signal);
  if (!lease) return undefined;
  const { connection } = lease;
  const { platform } = deps;
  const terminals =
    connection.offered.terminals && platform.terminals
      ? new TerminalRequests(() => platform.terminals!(allRoots(connection.roots)), permissions)
      : undefined;
  const handlers: SessionHandlers = { ...requests, ...(terminals ? { terminals } : {}) };
  let editor: SessionEditor | undefined;
  const giveUp = () => {
    lease.release();
    void terminals?.dispose();
    editor?.dispose();
    return undefined;
  };
  let mcp = snapshot.plan;
  try {
    mcp ??= snapshot.plan = await Promise.race([
      sessionMcp(connection.folder, connection.init.agentCapabilities?.mcpCapabilities, {
        ...platform.mcpHost,
        os: connection.agentOs,
        ...(connection.offered.localEnv
          ? {}
          : {
              env: () => undefined,
              envUnset:
                "names an environment variable: this machine's values are not given to an agent served elsewhere",
            }),
      }),
      connection.client.gone,
      aborted(signal),
    ]);
  } catch (error) {
    giveUp();
    throw error;
  }
  // Given up (Disconnect, another agent) while the config was read: nothing is started.
  if (!mcp || signal.aborted || connection.client.isClosed) return giveUp();
  deps.log.info(planSummary(mcp));
  const mcpNotice = planNotice(mcp);
  const agentMcp = connection.init.agentCapabilities?.mcpCapabilities;
  const roots = allRoots(connection.roots);
  const started = await startSessionEditor(
    platform,
    connection.offered,
    deps.editorServer,
    agentMcp,
    roots,
    mcp.servers,
    agentId,
    { serveMcp: (name, handler) => connection.client.serveMcp(name, handler), relayed: connection.client.relayed },
  ).catch((error: unknown) => void deps.log.warn(`The editor server did not start: ${errorMessage(error)}`));
  if (started && 'server' in started) editor = started;
  if (signal.aborted || connection.client.isClosed) return giveUp();
  const name = connection.agentLabel || agentId;
  const foldersNotice = rootsNotice(connection.roots);
  const signIn = once(() => connection.signIn(), name, !signInAllowed);
  const opening = openSession(
    connection.client,
    connection.init,
    connection.roots,
    earlier,
    handlers,
    deps.log,
    onScreen,
    editor ? [...mcp.servers, editor.server] : mcp.servers,
    signIn,
    signal,
  );
  try {
    // The agent's end (why it went) and the user's Cancel both end the wait.
    const opened = await Promise.race([opening, connection.client.gone, aborted(signal)]);
    if (!opened || signal.aborted) {
      // Given up while the agent was still opening it (a hung agent ends here, with the last
      // lease); the session, should it open after all, is closed again.
      void opening.then(
        (late) => connection.client.closeSession(late.sessionId),
        () => undefined,
      );
      return giveUp();
    }
    return {
      lease,
      ...opened,
      cwd: connection.cwd,
      ...(terminals ? { terminals } : {}),
      ...(mcpNotice ? { mcpNotice } : {}),
      ...(foldersNotice ? { rootsNotice: foldersNotice } : {}),
      ...(editor ? { editor } : {}),
      ...(started && 'notice' in started ? { editorNotice: started.notice } : {}),
    };
  } catch (error) {
    giveUp();
    throw error;
  }
}

/**
 * Ends the chat's part: its commands stop, its grants go, the agent is told
 * (`session/close` where advertised), and once it answered the lease is
 * given back (the process ends with the last one). A Connect after this
 * waits for it: an agent asked to resume a session it is still closing
 * refuses (Codex: "Session ... is closing").
 */
export async function endChatSession(session: ChatSession): Promise<void> {
  void session.terminals?.dispose();
  session.editor?.dispose();
  // Bounded: an agent that does not answer is told it is given up, and still loses the lease (and, with the last
  // one, its process).
  const wait = deadline(CLOSE_WAIT_MS, 'session/close was not answered in time');
  await session.lease.connection.client.closeSession(session.sessionId, wait.signal);
  wait.clear();
  session.lease.release();
}

/** What a session and its process report, as the chat takes it. */
export interface SessionListener {
  update(update: SessionUpdate): void;
  /** The process is gone (crash, exit, dropped connection, Restart). */
  gone(exit: AgentExit): void;
  /** Said to every chat on the process (stray output, unknown update kinds). */
  warn(text: string): void;
  terminalOutput(terminalId: string, data: string): void;
  terminalExit(terminalId: string, exit: { exitCode: number | null; signal: string | null }): void;
}

/** Subscribes `listener` to the session; dispose the result to stop. */
export function followSession(session: ChatSession, listener: SessionListener): Disposable[] {
  const { client } = session.lease.connection;
  return [
    client.onSessionUpdate(session.sessionId, (update) => listener.update(update)),
    client.onDidClose((exit) => listener.gone(exit)),
    session.lease.connection.onDidWarn((text) => listener.warn(text)),
    ...(session.terminals
      ? [
          session.terminals.onOutput((terminalId, data) => listener.terminalOutput(terminalId, data)),
          session.terminals.onExit((terminalId, exit) => listener.terminalExit(terminalId, exit)),
        ]
      : []),
  ];
}
