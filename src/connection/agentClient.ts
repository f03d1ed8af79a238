/**
 * One ACP connection to one agent: `initialize`, sessions, prompts, cancel,
 * and the single report of why it ended.
 */
import * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import { type Disposable, Emitter } from '../shared/events';
import { AgentUnreachableError, type AgentExit, type AgentTransport } from '../platform';
import { afterPendingNotifications } from './drain';
import { abandonable } from './abandon';
import { rootsParams, type WorkRoots } from './workRoots';
import { describeExit } from '../errorText';
import { SessionUpdateRouter } from './sessionUpdateRouter';
import { UnknownUpdateCounts, withoutUnknownUpdates } from './unknownUpdates';
import { withinWireBounds } from './wireBounds';
import {
  PULL_METHOD,
  pullParams,
  steeringAnswer,
  STEERING_METHOD,
  steersIn,
  type PullAnswer,
  type SteerOutcome,
} from './steering';
import type { V2Wire } from './v2/wire';

/** `terminal/*`, served for one session. */
export interface TerminalHandlers {
  create(params: acp.CreateTerminalRequest, signal: AbortSignal): Promise<acp.CreateTerminalResponse>;
  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
}

/** What the client answers for one session: the chat that opened it provides these. */
export interface SessionHandlers {
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** `elicitation/create` of this session (where the client offers elicitation). */
  elicit?(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete`: the agent says a URL elicitation is done (its id, whichever session it was). */
  elicitationDone?(elicitationId: string): void;
  /** Present where this host runs terminals (and then required of every session). */
  terminals?: TerminalHandlers;
  /** An agent that pulls steered messages asks for them (steering.ts): those waiting, taken. */
  pullSteered?(): PullAnswer;
}

/** What the client answers for any of its sessions; present only when the client advertises the capability. */
export interface ClientHandlers {
  readTextFile?(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile?(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  /** Whether `terminal/*` is served (each session's own TerminalHandlers answer). */
  terminals?: boolean;
  /** Whether `elicitation/create` is served (each session's own handlers answer). */
  elicitation?: boolean;
}

export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

/** JSON-RPC error code for "authentication required". */
export const AUTH_REQUIRED = -32000;

/** A `session/fork` answer (unstable, so not checked by the SDK): it must name the new session. */
function forkAnswer(answer: unknown): acp.NewSessionResponse {
  const sessionId = (answer as { sessionId?: unknown } | null)?.sessionId;
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 1_000) {
    throw new Error('The agent answered session/fork without a session id.');
  }
  return answer as acp.NewSessionResponse;
}

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
    // A request is served only for a session this connection opened, by that session's
    // handlers: an agent that names another session (or makes one up) is refused, its
    // permission request answered `cancelled`.
    const ours = <R>(params: { sessionId: string }, serve: (session: SessionHandlers) => Promise<R>): Promise<R> => {
      const session = this.openSessions.get(params.sessionId);
      if (session) return serve(session);
      return Promise.reject(
        acp.RequestError.invalidParams({ sessionId: params.sessionId }, 'No session with this id on this connection.'),
      );
    };
    const terminalsOf = (session: SessionHandlers): TerminalHandlers => {
      if (session.terminals) return session.terminals;
      throw acp.RequestError.invalidParams({}, 'This session has no terminals.');
    };
    const app = acp
      .client({ name: identity.name })
      .onNotification('session/update', ({ params }) => this.router.dispatch(params.sessionId, params.update))
      .onRequest('session/request_permission', ({ params, signal }) => {
        const session = this.openSessions.get(params.sessionId);
        return session
          ? session.requestPermission(params, signal)
          : Promise.resolve({ outcome: { outcome: 'cancelled' } });
      });
    app.onRequest(PULL_METHOD, pullParams, ({ params }) =>
      ours(params, async (session) => session.pullSteered?.() ?? { items: [], hasQueuedPrompt: false }),
    );
    if (handlers.elicitation) {
      app
        .onRequest('elicitation/create', ({ params, signal }) => {
          // Tied to a request, not a session (before any session): no chat to ask in.
          const sessionId = (params as { sessionId?: unknown }).sessionId;
          const session = typeof sessionId === 'string' ? this.openSessions.get(sessionId) : undefined;
          return session?.elicit ? session.elicit(params, signal) : Promise.resolve({ action: 'cancel' as const });
        })
        .onNotification('elicitation/complete', ({ params }) => {
          for (const session of this.openSessions.values()) session.elicitationDone?.(params.elicitationId);
        });
    }
    // Methods we do not offer stay unregistered: the SDK answers "method not found".
    const { readTextFile, writeTextFile } = handlers;
    if (readTextFile) app.onRequest('fs/read_text_file', ({ params }) => ours(params, () => readTextFile(params)));
    if (writeTextFile) app.onRequest('fs/write_text_file', ({ params }) => ours(params, () => writeTextFile(params)));
    if (handlers.terminals) {
      app
        .onRequest('terminal/create', ({ params, signal }) =>
          ours(params, async (s) => terminalsOf(s).create(params, signal)),
        )
        .onRequest('terminal/output', ({ params }) => ours(params, async (s) => terminalsOf(s).output(params)))
        .onRequest('terminal/wait_for_exit', ({ params, signal }) =>
          ours(params, async (s) => terminalsOf(s).waitForExit(params, signal)),
        )
        .onRequest('terminal/kill', ({ params }) => ours(params, async (s) => terminalsOf(s).kill(params)))
        .onRequest('terminal/release', ({ params }) => ours(params, async (s) => terminalsOf(s).release(params)));
    }
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

  /** Ends the signed-in state (`logout`, where `agentCapabilities.auth.logout` says so). */
  logout(): Promise<unknown> {
    return this.connection.agent.request<unknown>('logout', {});
  }

  /** `signal`: the open is given up (the agent is told; a session it opens anyway is still answered, to be closed). */
  async newSession(
    roots: WorkRoots,
    mcpServers: acp.McpServer[],
    handlers: SessionHandlers,
    signal?: AbortSignal,
  ): Promise<acp.NewSessionResponse> {
    const response = await abandonable(
      (o) => this.connection.agent.request('session/new', { ...rootsParams(roots), mcpServers }, o),
      signal,
      true,
    );
    this.openSessions.set(response.sessionId, handlers);
    return response;
  }

  /**
   * A new session that starts as a copy of `sessionId` (`sessionCapabilities.fork`, unstable): up to and including
   * the agent's message `messageId` where given (the extension Claude Code's adapter and codex-acp take:
   * `_meta.jetbrains.air.fork`), else whole.
   */
  async forkSession(
    sessionId: string,
    roots: WorkRoots,
    mcpServers: acp.McpServer[],
    handlers: SessionHandlers,
    messageId?: string,
    signal?: AbortSignal,
  ): Promise<acp.NewSessionResponse> {
    const params = {
      sessionId,
      ...rootsParams(roots),
      mcpServers,
      ...(messageId !== undefined ? { _meta: { jetbrains: { air: { fork: { version: 1, messageId } } } } } : {}),
    };
    const response = await abandonable(
      (o) => this.connection.agent.request<unknown>('session/fork', params, o),
      signal,
      true,
    );
    const forked = forkAnswer(response);
    this.openSessions.set(forked.sessionId, handlers);
    return forked;
  }

  /** Continues a session the agent kept, without replaying it (`sessionCapabilities.resume`). */
  async resumeSession(
    sessionId: string,
    roots: WorkRoots,
    mcpServers: acp.McpServer[],
    handlers: SessionHandlers,
    signal?: AbortSignal,
  ): Promise<acp.ResumeSessionResponse> {
    const response = await abandonable(
      (o) => this.connection.agent.request('session/resume', { sessionId, ...rootsParams(roots), mcpServers }, o),
      signal,
      true,
    );
    this.openSessions.set(sessionId, handlers);
    return response;
  }

  /**
   * Reopens a session the agent kept (`loadSession`); the agent replays its
   * history as updates before answering, and `onReplay` gets each of them.
   */
  async loadSession(
    sessionId: string,
    roots: WorkRoots,
    mcpServers: acp.McpServer[],
    handlers: SessionHandlers,
    onReplay: (update: acp.SessionUpdate) => void,
    signal?: AbortSignal,
  ): Promise<acp.LoadSessionResponse> {
    const listening = this.router.listen(sessionId, onReplay);
    try {
      const response = await abandonable(
        (o) => this.connection.agent.request('session/load', { sessionId, ...rootsParams(roots), mcpServers }, o),
        signal,
        true,
      );
      this.openSessions.set(sessionId, handlers);
      await afterPendingNotifications();
      return response;
    } finally {
      listening.dispose();
    }
  }

  /**
   * The chat is done with the session: its requests are refused from now on,
   * and the agent is told with `session/close` where it advertises it.
   */
  async closeSession(sessionId: string, signal?: AbortSignal): Promise<void> {
    if (!this.openSessions.delete(sessionId) || this.isClosed) return;
    if (!this.initializeResponse?.agentCapabilities?.sessionCapabilities?.close) return;
    try {
      await abandonable((o) => this.connection.agent.request('session/close', { sessionId }, o), signal);
    } catch (error) {
      this.log.warn(`session/close failed: ${String(error)}`);
    }
  }

  /** One page of the agent's sessions in `cwd` (`sessionCapabilities.list`); `signal`: given up (the agent is told). */
  listSessions(cwd: string, cursor: string | undefined, signal?: AbortSignal): Promise<acp.ListSessionsResponse> {
    const params = { cwd, ...(cursor !== undefined ? { cursor } : {}) };
    return abandonable((o) => this.connection.agent.request('session/list', params, o), signal);
  }

  /** Deletes the agent's own copy of a session (`session/delete`, where advertised). */
  async deleteSession(sessionId: string): Promise<void> {
    this.openSessions.delete(sessionId);
    await this.connection.agent.request('session/delete', { sessionId });
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

  /** Whether the agent stores a title the user gives a session (`sessionCapabilities.title`, unstable `session/set_title`). */
  get takesTitles(): boolean {
    return !!(this.initializeResponse?.agentCapabilities?.sessionCapabilities as { title?: unknown } | undefined)
      ?.title;
  }

  /**
   * Gives the session `title` (`session/set_title`); resolves with the title the agent stored (it may normalize it),
   * or undefined when its answer names none (then the client keeps its own).
   */
  async setSessionTitle(sessionId: string, title: string, signal?: AbortSignal): Promise<string | undefined> {
    const answer = await abandonable(
      (o) => this.connection.agent.request<unknown>('session/set_title', { sessionId, title }, o),
      signal,
    );
    const stored = (answer as { title?: unknown } | null)?.title;
    return typeof stored === 'string' ? stored : undefined;
  }

  /** Whether the agent takes a message into a running turn (`_session/steering`, see steering.ts). */
  get steers(): boolean {
    return steersIn(this.initializeResponse);
  }

  /** Puts `prompt` into the session's running turn (see steering.ts for what each outcome means). */
  async steer(sessionId: string, prompt: acp.ContentBlock[]): Promise<SteerOutcome> {
    const answer = await this.connection.agent.request<unknown>(STEERING_METHOD, {
      sessionId,
      prompt,
      // Without a running turn the agent answers so instead of starting one on its own: the chat sends it as a prompt.
      _meta: { steering: { idleBehavior: 'promptRequired' } },
    });
    await afterPendingNotifications();
    return steeringAnswer(answer);
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
