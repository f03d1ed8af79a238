/**
 * Starting an agent: transport, `initialize`, sign-in when the agent asks,
 * `session/new`. Returns a connected client and session, or throws a message
 * meant for the user.
 */
import * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import { clientCapabilities } from '../capabilities';
import { AgentClient, AUTH_REQUIRED, type ClientHandlers, type ClientIdentity } from '../connection/agentClient';
import type { ConnectContext, HostCapabilities, Platform } from '../platform';
import { FileRequests } from './fileRequests';
import type { PermissionQueue } from './permissionQueue';
import { TerminalRequests } from './terminalRequests';
import type { SessionSetup } from '../shared/sessionControls';

export interface StartedSession {
  readonly client: AgentClient;
  /** The agent's terminals, where this host offers them. */
  readonly terminals?: TerminalRequests;
  readonly sessionId: string;
  readonly cwd: string;
  /** What the session response said about modes, config options and models. */
  readonly setup: SessionSetup;
  /** The agent's title (or name) and version, for the header. */
  readonly agentLabel: string;
  /** How an earlier session was continued, when one was asked for. */
  readonly continuation?: Continuation;
}

/** A session shown in the chat that a new connection should continue. */
export interface EarlierSession {
  readonly sessionId: string;
  readonly cwd: string;
}

export type Continuation =
  | { readonly how: 'resumed' | 'loaded'; readonly state: readonly acp.SessionUpdate[] }
  | { readonly how: 'new'; readonly why: string };

/** How long a failed start waits for the agent's exit report (the client waits up to 2 s for it). */
const EXIT_REPORT_WAIT_MS = 3_000;

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));

/** Replayed updates worth keeping after `session/load`: the transcript itself is already on screen. */
export const STATE_UPDATES = new Set<string>(['available_commands_update', 'current_mode_update', 'config_option_update', 'session_info_update', 'usage_update']);

/**
 * Starts the agent and a session. Aborting `signal` (the user pressed Cancel
 * or Disconnect) ends the agent at once, even while it does not answer.
 */
export async function startAgentSession(
  platform: Platform, agentId: string, identity: ClientIdentity, context: ConnectContext,
  handlers: ClientHandlers, permissions: PermissionQueue, signal: AbortSignal, earlier?: EarlierSession,
): Promise<StartedSession | undefined> {
  const transport = await platform.connect(agentId, context);
  if (!transport) return undefined;
  if (signal.aborted) {
    transport.dispose();
    return undefined;
  }
  const cwd = transport.cwd;
  const capabilities = platform.capabilities();
  const terminals = capabilities.terminals && platform.terminals ? new TerminalRequests(() => platform.terminals!(cwd), permissions) : undefined;
  const client = new AgentClient(transport, identity, context.log, { ...handlers, ...fileHandlers(platform, capabilities, context), ...(terminals ? { terminals } : {}) });
  const abort = () => client.dispose();
  signal.addEventListener('abort', abort);
  // Rejects with why the agent is gone (exit code, stderr), once it is.
  const closed = new Promise<never>((_, reject) => client.onDidClose((exit) => reject(new Error(describeExit(exit)))));
  closed.catch(() => undefined); // after a successful start, a later close is the controller's business
  try {
    const init = await Promise.race([client.initialize(identity, clientCapabilities(capabilities)), closed]);
    if (signal.aborted) throw new Error('cancelled');
    const opened = await Promise.race([openSession(client, init, cwd, earlier, context.log), closed]);
    if (signal.aborted) throw new Error('cancelled');
    const info = init.agentInfo;
    const label = [info?.title || info?.name, info?.version].filter(Boolean).join(' ');
    return { client, ...(terminals ? { terminals } : {}), ...opened, cwd, agentLabel: label };
  } catch (error) {
    // A request that failed because the agent went away says only "connection closed";
    // its exit (code, stderr) says why, and comes within the client's grace period.
    const gone = client.isClosed ? await Promise.race([closed.catch((why: unknown) => why), delay(EXIT_REPORT_WAIT_MS)]) : undefined;
    client.dispose();
    void terminals?.dispose();
    if (signal.aborted) return undefined;
    throw gone ?? error;
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

/**
 * Continues the earlier session where the agent can (`session/resume`, else
 * `session/load`), else starts a new one and says why.
 */
async function openSession(
  client: AgentClient, init: acp.InitializeResponse, cwd: string, earlier: EarlierSession | undefined, log: vscode.LogOutputChannel,
): Promise<{ sessionId: string; setup: SessionSetup; continuation?: Continuation }> {
  const fresh = async (why?: string) => {
    const response = await withSignIn(client, init, () => client.newSession(cwd));
    return { sessionId: response.sessionId, setup: sessionSetup(response), ...(why ? { continuation: { how: 'new', why } as const } : {}) };
  };
  if (!earlier) return fresh();
  const { sessionId } = earlier;
  if (earlier.cwd !== cwd) return fresh(`the agent now works in ${cwd}, not ${earlier.cwd}`);
  const caps = init.agentCapabilities;
  if (!caps?.sessionCapabilities?.resume && !caps?.loadSession) return fresh('the agent cannot continue a session after a reconnect');
  try {
    if (caps.sessionCapabilities?.resume) {
      const response = await withSignIn(client, init, () => client.resumeSession(sessionId, cwd));
      return { sessionId, setup: sessionSetup(response), continuation: { how: 'resumed', state: [] } };
    }
    const state: acp.SessionUpdate[] = [];
    const response = await withSignIn(client, init, () => client.loadSession(sessionId, cwd, (update) => {
      if (STATE_UPDATES.has(update.sessionUpdate)) state.push(update);
    }));
    return { sessionId, setup: sessionSetup(response), continuation: { how: 'loaded', state } };
  } catch (error) {
    if (client.isClosed) throw error;
    log.warn(`Continuing session ${sessionId} failed: ${errorMessage(error)}`);
    return fresh(`the agent could not continue it (${errorMessage(error)})`);
  }
}

/** Runs `open`; when the agent answers "authentication required", signs in and runs it once more. */
async function withSignIn<T>(client: AgentClient, init: acp.InitializeResponse, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof acp.RequestError) || error.code !== AUTH_REQUIRED) throw error;
    const method = await pickAuthMethod(init.authMethods ?? []);
    if (!method) throw new Error('The agent needs you to sign in before it can start a session.');
    await client.authenticate(method);
    return open();
  }
}

/** Offers the sign-in methods the client can perform itself (`agent` type). */
async function pickAuthMethod(methods: readonly acp.AuthMethod[]): Promise<string | undefined> {
  // Terminal sign-in (running the agent's login in a terminal) is not offered yet.
  const usable = methods.filter((m) => !('type' in m && m.type === 'terminal'));
  if (usable.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    usable.map((m) => ({ label: m.name, detail: m.description ?? undefined, id: m.id })),
    { title: 'The agent needs you to sign in', placeHolder: 'Choose how to sign in' },
  );
  return picked?.id;
}

/** File handlers exactly where the capabilities say we offer them. */
function fileHandlers(platform: Platform, capabilities: HostCapabilities, context: ConnectContext): Partial<ClientHandlers> {
  if (!platform.files || !capabilities.fileRead) return {};
  const files = new FileRequests(platform.files, context.log);
  return {
    readTextFile: (params) => files.read(params),
    ...(capabilities.fileWrite ? { writeTextFile: (params: acp.WriteTextFileRequest) => files.write(params) } : {}),
  };
}

/** The parts of a session response that set up controls (`models` is a legacy, unstable field). */
export function sessionSetup(response: Pick<acp.NewSessionResponse, 'modes' | 'configOptions'>): SessionSetup {
  return { modes: response.modes, configOptions: response.configOptions, models: (response as { models?: unknown }).models };
}

export function describeExit(exit: { message: string; stderrTail?: string }): string {
  return exit.stderrTail ? `${exit.message}\n${exit.stderrTail}` : exit.message;
}

export function errorMessage(error: unknown): string {
  if (error instanceof acp.RequestError) return error.data ? `${error.message} (${JSON.stringify(error.data).slice(0, 500)})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
