/**
 * Starting an agent: transport, `initialize`, then a session (sessionOpen.ts).
 * Returns a connected client and session, or throws a message meant for the
 * user.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { clientCapabilities } from '../capabilities';
import { AgentClient, type ClientHandlers, type ClientIdentity } from '../connection/agentClient';
import { describeExit } from '../connection/errors';
import type { ConnectContext, HostCapabilities, Platform } from '../platform';
import { FileRequests } from './fileRequests';
import type { PermissionQueue } from './permissionQueue';
import { TerminalRequests } from './terminalRequests';
import type { SessionSetup } from '../shared/sessionControls';
import { openSession, type Continuation, type EarlierSession } from './sessionOpen';

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

/** How long a failed start waits for the agent's exit report (the client waits up to 2 s for it). */
const EXIT_REPORT_WAIT_MS = 3_000;

const delay = (ms: number) => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms));

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

/** File handlers exactly where the capabilities say we offer them. */
function fileHandlers(platform: Platform, capabilities: HostCapabilities, context: ConnectContext): Partial<ClientHandlers> {
  if (!platform.files || !capabilities.fileRead) return {};
  const files = new FileRequests(platform.files, context.log);
  return {
    readTextFile: (params) => files.read(params),
    ...(capabilities.fileWrite ? { writeTextFile: (params: acp.WriteTextFileRequest) => files.write(params) } : {}),
  };
}
