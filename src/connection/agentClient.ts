/** One ACP connection to one agent: `initialize`, sessions, prompts, cancel, and the single report of why it ended. */
import * as acp from '@agentclientprotocol/sdk';
import type { McpOverAcpProvider, McpRequestHandler, McpServerRegistration } from '@agentclientprotocol/sdk/unstable';
import { forkAnswer, forkParams, type OpenedSession, type SessionOpening } from './sessionOpening';

export type { OpenedSession, SessionOpening } from './sessionOpening';
import type * as vscode from 'vscode';
import { type Disposable, Emitter } from '../shared/events';
import { AgentUnreachableError, type AgentExit, type AgentTransport } from '../platform';
import { afterPendingNotifications } from './wire/drain';
import { abandonable } from './abandon';
import { rootsParams, type WorkRoots } from './workRoots';
import { describeExit } from '../errorText';
import { SessionUpdateRouter } from './sessionUpdateRouter';
import { UnknownUpdateCounts, withoutUnknownUpdates } from './wire/unknownUpdates';
import { withinWireBounds } from './wire/wireBounds';
import { steeringAnswer, STEERING_METHOD, steersIn, type SteerOutcome } from './steering';
import { clientRequests, type RelayedEditor, type ClientHandlers, type SessionHandlers } from './clientRequests';
import type { V2Wire } from './v2/wire';

export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

/** JSON-RPC error code for "authentication required". */
export const AUTH_REQUIRED = -32000;

/** How long to wait for a process to report its exit after its pipe closed. */
const EXIT_GRACE_MS = 2_000;

export class AgentClient implements Disposable {
  private readonly _onDidClose = new Emitter<AgentExit>();
  /** Fires once, when the agent is gone (exit, crash, broken pipe, dispose). */
  readonly onDidClose = this._onDidClose.event;
  /** Rejects once the agent is gone, with why (exit code, stderr); never resolves. For racing a request against the agent's end. */
  readonly gone: Promise<never>;
  private readonly router = new SessionUpdateRouter();
  /** The sessions this connection opened (new, load, resume) and not closed: the only ones its requests may name, each served by its own handlers. */
  private readonly openSessions = new Map<string, SessionHandlers>();
  private readonly _onDidIgnoreUpdate = new Emitter<string>();
  /** Fires once per `session/update` kind this client does not know (each is ignored, see unknownUpdates.ts). */
  readonly onDidIgnoreUpdate = this._onDidIgnoreUpdate.event;
  /** How many updates of each unknown kind were ignored. */
  readonly ignoredUpdates = new UnknownUpdateCounts();
  private readonly connection: acp.ClientConnection;
  private readonly mcp: McpOverAcpProvider | undefined;
  /** The editor servers a bridge serves for this connection's sessions (sessionEditor.ts), by server id. */
  readonly relayed = new Map<string, RelayedEditor>();
  private closed = false;
  initializeResponse: acp.InitializeResponse | undefined;

  constructor(
    private readonly transport: AgentTransport,
    identity: ClientIdentity,
    private readonly log: vscode.LogOutputChannel,
    handlers: ClientHandlers,
    /** Observers of each direction (diagnostics), passing every message on. */
    tap?: {
      readonly incoming: TransformStream<acp.AnyMessage, acp.AnyMessage>;
      readonly outgoing: TransformStream<acp.AnyMessage, acp.AnyMessage>;
    },
    /** ACP v2 asked for (the draft, `vscode-acp.protocol.v2`): spoken to the agent if it answers in it (v2/wire.ts). */
    private readonly wire?: V2Wire,
  ) {
    // A connection lost (not the agent's own end, nor a refusal) may be there again on the next try.
    this.gone = new Promise<never>((_, reject) =>
      this._onDidClose.event((exit) =>
        reject(exit.lost ? new AgentUnreachableError(describeExit(exit)) : new Error(describeExit(exit))),
      ),
    );
    this.gone.catch(() => undefined); // nobody racing it: the close is reported by onDidClose
    this.mcp = handlers.mcp;
    const app = clientRequests(
      identity.name,
      handlers,
      this.openSessions,
      (sessionId, update) => this.router.dispatch(sessionId, update),
      this.relayed,
    );
    // Agent -> (diagnostics) -> (v2 as v1) -> unknown kinds out -> the SDK's client, and back the other way.
    let incoming = tap ? transport.stream.readable.pipeThrough(tap.incoming) : transport.stream.readable;
    if (wire) incoming = incoming.pipeThrough(wire.incoming);
    const readable = incoming
      .pipeThrough(withoutUnknownUpdates((kind) => this.onUnknownUpdate(kind)))
      .pipeThrough(withinWireBounds());
    let writable = transport.stream.writable;
    for (const stage of [tap?.outgoing, wire?.outgoing]) {
      if (!stage) continue;
      stage.readable.pipeTo(writable).catch(() => undefined); // a broken pipe is reported by the connection's close
      writable = stage.writable;
    }
    this.connection = app.connect({ writable, readable });
    void this.connection.closed.then(() => this.onConnectionClosed());
    void transport.exited.then((exit) => this.finish(exit));
  }

  private onUnknownUpdate(kind: string): void {
    if (!this.ignoredUpdates.add(kind)) return;
    this.log.warn(
      `The agent sent a session update of a kind this client does not know (${JSON.stringify(kind.slice(0, 80))}): ignored, and counted.`,
    );
    this._onDidIgnoreUpdate.fire(kind);
  }

  get isClosed(): boolean {
    return this.closed || this.connection.signal.aborted;
  }

  /**
   * `initialize`. Where v2 is asked for, an agent that answers in v1 (or refuses the request) is asked again in v1 on
   * the same connection (agents accept a repeated `initialize`), and spoken to in v1.
   */
  async initialize(
    identity: ClientIdentity,
    clientCapabilities: acp.ClientCapabilities,
  ): Promise<acp.InitializeResponse> {
    const ask = () =>
      this.connection.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities,
        clientInfo: { name: identity.name, version: identity.version },
      });
    if (this.wire) {
      try {
        const answer = await ask();
        if (this.wire.version === 2) return (this.initializeResponse = answer);
        this.log.info('The agent answered in ACP v1: it is asked again in v1, and spoken to in v1.');
      } catch (error) {
        if (this.isClosed) throw error;
        this.log.info(`The agent refused ACP v2 (${String(error)}): it is asked again in v1.`);
      }
      this.wire.speakV1();
    }
    return (this.initializeResponse = await ask());
  }

  /** The ACP version spoken: 2 where it was asked for and the agent answered in it. */
  get protocolVersion(): 1 | 2 {
    return this.wire?.version === 2 ? 2 : 1;
  }

  /** Signs in with the agent's own method; `signal`: the user gave up (the agent is told). */
  authenticate(methodId: string, signal?: AbortSignal): Promise<unknown> {
    return abandonable((o) => this.connection.agent.request('authenticate', { methodId }, o), signal);
  }

  /** The agent's capabilities, as `initialize` answered (none before). */
  private get caps(): acp.AgentCapabilities | undefined {
    return this.initializeResponse?.agentCapabilities;
  }

  /** The ways the agent opens a session: `new` always; `load`, `resume` and `fork` (unstable) where it says so. */
  get opens(): ReadonlySet<SessionOpening['how']> {
    const sessions = this.caps?.sessionCapabilities as { resume?: unknown; fork?: unknown } | undefined;
    const offered = { new: true, load: this.caps?.loadSession, resume: sessions?.resume, fork: sessions?.fork };
    return new Set((['new', 'load', 'resume', 'fork'] as const).filter((how) => offered[how]));
  }

  /** Ends the signed-in state: where the agent offers `logout`. */
  get logout(): (() => Promise<unknown>) | undefined {
    if (!this.caps?.auth?.logout) return undefined;
    return () => this.connection.agent.request<unknown>('logout', {});
  }

  /** One page of the agent's sessions in `cwd`: where it offers `session/list`; `signal`: given up (the agent is told). */
  get listSessions():
    ((cwd: string, cursor: string | undefined, signal?: AbortSignal) => Promise<acp.ListSessionsResponse>) | undefined {
    if (!this.caps?.sessionCapabilities?.list) return undefined;
    return (cwd, cursor, signal) => {
      const params = { cwd, ...(cursor !== undefined ? { cursor } : {}) };
      return abandonable((o) => this.connection.agent.request('session/list', params, o), signal);
    };
  }

  /** Deletes the agent's own copy of a session: where it offers `session/delete`. */
  get deleteSession(): ((sessionId: string) => Promise<void>) | undefined {
    if (!this.caps?.sessionCapabilities?.delete) return undefined;
    return async (sessionId) => {
      this.openSessions.delete(sessionId);
      await this.connection.agent.request('session/delete', { sessionId });
    };
  }

  /**
   * Gives a session a title the agent stores: where it offers `session/set_title` (unstable); resolves with the title
   * the agent stored (it may normalize it), or undefined when its answer names none (the client keeps its own).
   */
  get setSessionTitle():
    ((sessionId: string, title: string, signal?: AbortSignal) => Promise<string | undefined>) | undefined {
    if (!(this.caps?.sessionCapabilities as { title?: unknown } | undefined)?.title) return undefined;
    return async (sessionId, title, signal) => {
      const answer = await abandonable(
        (o) => this.connection.agent.request<unknown>('session/set_title', { sessionId, title }, o),
        signal,
      );
      const stored = (answer as { title?: unknown } | null)?.title;
      return typeof stored === 'string' ? stored : undefined;
    };
  }

  /**
   * Opens a session as `opening` says, served by `handlers` once the agent answers; `signal`: the open is given up (the
   * agent is told; a session it opens anyway is still answered, to be closed).
   */
  async openSession(
    opening: SessionOpening,
    roots: WorkRoots,
    mcpServers: acp.McpServer[],
    handlers: SessionHandlers,
    signal?: AbortSignal,
  ): Promise<OpenedSession> {
    const params = { ...rootsParams(roots), mcpServers };
    const agent = this.connection.agent;
    const send = async (o?: acp.SendRequestOptions): Promise<OpenedSession> => {
      switch (opening.how) {
        case 'new':
          return agent.request('session/new', params, o);
        case 'fork':
          return forkAnswer(await agent.request<unknown>('session/fork', forkParams(opening, params), o));
        case 'resume':
        case 'load': {
          const { sessionId } = opening;
          return { ...(await agent.request(`session/${opening.how}`, { sessionId, ...params }, o)), sessionId };
        }
      }
    };
    // A load's replay comes before its answer: its updates go to `onReplay`, not to the session's listener.
    const replay = opening.how === 'load' ? this.router.listen(opening.sessionId, opening.onReplay) : undefined;
    try {
      const opened = await abandonable(send, signal, true);
      this.openSessions.set(opened.sessionId, handlers);
      if (replay) await afterPendingNotifications();
      return opened;
    } finally {
      replay?.dispose();
    }
  }

  /**
   * The chat is done with the session: its requests are refused from now on, and the agent is told with `session/close`
   * where it advertises it.
   */
  async closeSession(sessionId: string, signal?: AbortSignal): Promise<void> {
    if (!this.openSessions.delete(sessionId) || this.isClosed) return;
    if (!this.caps?.sessionCapabilities?.close) return;
    try {
      await abandonable((o) => this.connection.agent.request('session/close', { sessionId }, o), signal);
    } catch (error) {
      this.log.warn(`session/close failed: ${String(error)}`);
    }
  }

  /** Serves an MCP server to the agent over this connection (MCP-over-ACP), where the host does: declare it in `mcpServers`. */
  serveMcp(name: string, handler: McpRequestHandler): McpServerRegistration | undefined {
    return this.mcp?.registerServer(this.connection.agent, { name, handler, maxActiveRequests: 16 });
  }

  setMode(sessionId: string, modeId: string): Promise<unknown> {
    return this.connection.agent.request('session/set_mode', { sessionId, modeId });
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string | boolean,
  ): Promise<acp.SessionConfigOption[]> {
    const params: acp.SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    return (await this.connection.agent.request('session/set_config_option', params)).configOptions;
  }

  /** Legacy model switch: left the schema, still expected by Gemini CLI and older adapters. */
  setModel(sessionId: string, modelId: string): Promise<unknown> {
    return this.connection.agent.request<unknown>('session/set_model', { sessionId, modelId });
  }

  onSessionUpdate(sessionId: string, listener: (update: acp.SessionUpdate) => void): Disposable {
    return this.router.listen(sessionId, listener);
  }

  /** Sends a prompt; resolves with the stop reason once the turn's updates have been delivered. */
  async prompt(sessionId: string, prompt: acp.ContentBlock[]): Promise<acp.StopReason> {
    const response = await this.connection.agent.request('session/prompt', { sessionId, prompt });
    await afterPendingNotifications();
    return response.stopReason;
  }

  /**
   * Puts a prompt into the session's running turn: where the agent offers `_session/steering` (see steering.ts for what
   * each outcome means).
   */
  get steer(): ((sessionId: string, prompt: acp.ContentBlock[]) => Promise<SteerOutcome>) | undefined {
    if (!steersIn(this.initializeResponse)) return undefined;
    return async (sessionId, prompt) => {
      const answer = await this.connection.agent.request<unknown>(STEERING_METHOD, {
        sessionId,
        prompt,
        // Without a running turn the agent answers so instead of starting one on its own: the chat sends it as a prompt.
        _meta: { steering: { idleBehavior: 'promptRequired' } },
      });
      await afterPendingNotifications();
      return steeringAnswer(answer);
    };
  }

  cancel(sessionId: string): void {
    this.connection.agent
      .notify('session/cancel', { sessionId })
      .catch((error: unknown) => this.log.warn(`session/cancel failed: ${String(error)}`));
  }

  /** Ends the connection and the agent; `exit` is what every chat on it is told. */
  dispose(exit: AgentExit = { message: 'Disconnected.' }): void {
    this.finish(exit);
  }

  private async onConnectionClosed(): Promise<void> {
    if (this.closed) return;
    // The pipe closed or the stream broke; the process usually reports its
    // exit right after, and that report says more (exit code, stderr).
    const timeout = new Promise<AgentExit>((resolve) =>
      setTimeout(() => resolve({ message: 'The agent closed the connection.' }), EXIT_GRACE_MS),
    );
    this.finish(await Promise.race([this.transport.exited, timeout]));
  }

  private finish(exit: AgentExit): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.close();
    this.transport.dispose();
    this._onDidClose.fire(exit);
    this._onDidClose.dispose();
    this._onDidIgnoreUpdate.dispose();
  }
}
