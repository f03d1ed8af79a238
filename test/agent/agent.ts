// The scripted agent: ACP request handlers driven by a Scenario.
import * as acp from '@agentclientprotocol/sdk';
import * as unstable from '@agentclientprotocol/sdk/unstable';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import type { Scenario, Step } from './scenario';
import { Session } from './session';
import { playSteps } from './steps';
import { agentProcess, client, type StepContext } from './context';
import type { SessionStore } from './sessionStore';
import { agentProtocolRouter, type Stream } from '@agentclientprotocol/sdk/experimental/v2';
import { v2App } from './v2Agent';

function promptText(prompt: acp.ContentBlock[]): string {
  return prompt
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter(Boolean)
    .join('\n');
}

export class ScriptedAgent {
  private readonly sessions = new Map<string, Session>();
  /** Sessions closed (`session/close`): still there to fork, as real agents keep them. */
  private readonly closed = new Map<string, Session>();
  private nextSessionNumber = 1;
  /** Requests of each method so far, for scenario.hang. */
  private readonly requestsSeen = new Map<string, number>();
  private authenticated = false;
  /** signInReadAtStart: whether the sign-in file was there when this process started. */
  private readonly signedInAtStart: boolean;

  constructor(
    private readonly scenario: Scenario,
    private readonly store?: SessionStore,
  ) {
    agentProcess.openSessions = () => this.sessions.size;
    agentProcess.cancelled = [];
    this.signedInAtStart = !!scenario.signInFile && existsSync(scenario.signInFile);
    this.event(`start ${process.pid}`);
  }

  async initialize(c: acp.AgentRequestContext<acp.InitializeRequest>): Promise<acp.InitializeResponse> {
    client.capabilities = c.params.clientCapabilities;
    await this.play(this.scenario.onInitialize, c, undefined);
    const { agentInfo, agentCapabilities, authMethods, steering, titles } = this.scenario;
    const sessionCapabilities = { ...agentCapabilities.sessionCapabilities, ...(titles ? { title: {} } : {}) };
    return {
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: { ...agentCapabilities, sessionCapabilities },
      authMethods,
      agentInfo,
      ...(steering ? { _meta: { steering: { supported: true } } } : {}),
    };
  }

  async authenticate(c: acp.AgentRequestContext<acp.AuthenticateRequest>): Promise<acp.AuthenticateResponse> {
    await this.hangIfAsked(c);
    const known = this.scenario.authMethods.map((method) => method.id);
    if (known.length > 0 && !known.includes(c.params.methodId)) {
      throw acp.RequestError.invalidParams({ methodId: c.params.methodId }, `unknown auth method ${c.params.methodId}`);
    }
    this.authenticated = true;
    return {};
  }

  /** `logout` (where the scenario advertises `auth.logout`): signed out, the sign-in file removed. */
  logout(): acp.LogoutResponse {
    if (!this.scenario.agentCapabilities.auth?.logout) throw acp.RequestError.methodNotFound('logout');
    this.authenticated = false;
    if (this.scenario.signInFile) rmSync(this.scenario.signInFile, { force: true });
    return {};
  }

  async newSession(c: acp.AgentRequestContext<acp.NewSessionRequest>): Promise<acp.NewSessionResponse> {
    this.event('session/new');
    await this.hangIfAsked(c);
    this.checkAuth();
    // Stored sessions outlive this process: their ids must not repeat in the next one (a pid alone can:
    // a CI run starts more than the 32,768 processes a container's pids wrap at).
    const id = this.store
      ? `sess-${process.pid}-${randomBytes(4).toString('hex')}-${this.nextSessionNumber++}`
      : `sess-${this.nextSessionNumber++}`;
    this.store?.create({ id, cwd: c.params.cwd });
    const session = this.newSessionObject(id, c.params.cwd);
    session.mcpServers = c.params.mcpServers;
    session.additionalDirectories = this.directoriesOf(c.params);
    this.sessions.set(session.id, session);
    await this.play(this.scenario.onNewSession, c, session);
    return { sessionId: session.id, ...session.setupFields() };
  }

  /** Replays a known session's updates; an unknown one plays onLoadSession (if any). */
  async loadSession(c: acp.AgentRequestContext<acp.LoadSessionRequest>): Promise<acp.LoadSessionResponse> {
    if (!this.scenario.agentCapabilities.loadSession) throw acp.RequestError.methodNotFound(c.method);
    this.checkAuth();
    const { sessionId, cwd } = c.params;
    const directories = this.directoriesOf(c.params);
    const known = this.known(sessionId, cwd);
    if (known) {
      known.mcpServers = c.params.mcpServers;
      known.additionalDirectories = directories;
      const replay = async () => {
        for (const update of known.history) await c.client.notify('session/update', { sessionId, update });
      };
      // After this answer is written (a timer runs after the SDK sends it).
      if (this.scenario.replayAfterLoad) setTimeout(() => void replay(), 0);
      else await replay();
      return known.setupFields();
    }
    if (!this.scenario.onLoadSession) throw acp.RequestError.sessionNotFound(sessionId);
    const session = new Session(sessionId, cwd, this.scenario);
    session.mcpServers = c.params.mcpServers;
    session.additionalDirectories = directories;
    this.sessions.set(sessionId, session);
    await this.play(this.scenario.onLoadSession, c, session);
    return session.setupFields();
  }

  /**
   * Continues a known session (this process's or the store's) without replaying it. `always`: whatever the scenario
   * advertises (ACP v2, where resume is a base method).
   */
  resumeSession(c: acp.AgentRequestContext<acp.ResumeSessionRequest>, always = false): acp.ResumeSessionResponse {
    const advertised = this.scenario.agentCapabilities.sessionCapabilities?.resume;
    if (!advertised && !always) throw acp.RequestError.methodNotFound(c.method);
    this.checkAuth();
    const directories = this.directoriesOf(c.params);
    const session = this.known(c.params.sessionId, c.params.cwd);
    if (!session) throw acp.RequestError.sessionNotFound(c.params.sessionId);
    session.mcpServers = c.params.mcpServers ?? [];
    session.additionalDirectories = directories;
    return session.setupFields();
  }

  setMode(c: acp.AgentRequestContext<acp.SetSessionModeRequest>): acp.SetSessionModeResponse {
    const session = this.session(c.params.sessionId);
    const modes = this.scenario.modes?.availableModes;
    if (modes && !modes.some((mode) => mode.id === c.params.modeId)) {
      throw acp.RequestError.invalidParams({ modeId: c.params.modeId }, `unknown mode ${c.params.modeId}`);
    }
    session.modeId = c.params.modeId;
    return {};
  }

  setConfigOption(c: acp.AgentRequestContext<acp.SetSessionConfigOptionRequest>): acp.SetSessionConfigOptionResponse {
    const session = this.session(c.params.sessionId);
    const options = session.configOptions ?? [];
    const index = options.findIndex((option) => option.id === c.params.configId);
    if (index < 0) throw acp.RequestError.invalidParams({ configId: c.params.configId }, 'unknown config option');
    options[index] = { ...options[index], currentValue: c.params.value } as acp.SessionConfigOption;
    return { configOptions: options };
  }

  async prompt(c: acp.AgentRequestContext<acp.PromptRequest>): Promise<acp.PromptResponse> {
    const session = this.session(c.params.sessionId);
    for (const content of c.params.prompt) session.record({ sessionUpdate: 'user_message_chunk', content });
    const picked = session.pickTurn(promptText(c.params.prompt));
    const turn = session.startTurn(c.signal);
    try {
      const ctx: StepContext = { client: c.client, session, signal: turn.signal, prompt: c.params.prompt };
      return { stopReason: await playSteps(picked.steps, ctx) };
    } finally {
      turn.done();
      // After this answer is written (a timer runs after the SDK sends it).
      const after = picked.after;
      if (after) {
        setTimeout(
          () => void playSteps(after, { client: c.client, session, signal: new AbortController().signal, prompt: [] }),
          0,
        );
      }
    }
  }

  /** Legacy `session/set_model` (Gemini CLI's way): checks the id against `models`. */
  setModel(params: { sessionId: string; modelId: string }): Record<string, never> {
    const session = this.session(params.sessionId);
    if (!this.scenario.models?.availableModels.some((m) => m.modelId === params.modelId)) {
      throw acp.RequestError.invalidParams({ modelId: params.modelId }, `unknown model ${params.modelId}`);
    }
    session.modelId = params.modelId;
    return {};
  }

  /** `_session/steering`: into the session's running turn (see the scenario's `steering`). */
  steer(params: SteerParams): unknown {
    const steering = this.scenario.steering;
    if (!steering) throw acp.RequestError.methodNotFound('_session/steering');
    if (typeof steering === 'object') return steering.answer;
    const taken = this.session(params.sessionId).steer(params.prompt);
    return taken ? { outcome: 'injected' } : { outcome: 'promptRequired', reason: 'noRunningTurn' };
  }

  /** `session/set_title` (scenario `titles`): the title stored, trimmed and cut; the answer says what was stored. */
  setTitle(params: TitleParams): unknown {
    const titles = this.scenario.titles;
    if (!titles) throw acp.RequestError.methodNotFound('session/set_title');
    this.event(`session/set_title ${params.title}`);
    if (typeof titles === 'object') {
      if ('error' in titles) throw acp.RequestError.internalError(undefined, titles.error);
      return titles.answer;
    }
    const title = params.title.trim().slice(0, 100);
    if (!title) throw acp.RequestError.invalidParams(params, 'the title is empty');
    this.session(params.sessionId).title = title;
    return { title };
  }

  cancel(params: acp.CancelNotification): void {
    this.sessions.get(params.sessionId)?.cancel();
  }

  /** This process's sessions and the store's, newest first, in pages (`listPageSize`); `cursor` is an offset. */
  async listSessions(c: acp.AgentRequestContext<acp.ListSessionsRequest>): Promise<acp.ListSessionsResponse> {
    if (!this.scenario.agentCapabilities.sessionCapabilities?.list) throw acp.RequestError.methodNotFound(c.method);
    await this.hangIfAsked(c);
    this.checkAuth();
    if (this.scenario.listError) {
      throw new acp.RequestError(this.scenario.listError.code, this.scenario.listError.message);
    }
    // known() adds a stored session to this process's: read them first, then list each once.
    for (const id of this.store?.ids() ?? []) if (!this.sessions.has(id)) this.known(id, this.store!.read(id)!.cwd);
    const all = [...this.sessions.values()]
      .filter((s) => !c.params.cwd || s.cwd === c.params.cwd)
      .map((s) => s.info())
      .sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)));
    const listed = [...all, ...this.scenario.listedSessions];
    const { listPageSize: size, listCursorLoop: loop, listCursorInProcess: inProcess } = this.scenario;
    const [owner, offset] =
      inProcess && c.params.cursor ? c.params.cursor.split(':') : [String(process.pid), c.params.cursor];
    if (owner !== String(process.pid)) {
      throw acp.RequestError.invalidParams({ cursor: c.params.cursor }, "this cursor is not one of this process's");
    }
    const start = Number(offset ?? 0) || 0;
    const page = listed.slice(start, start + size);
    const next = loop ? String(start) : start + size < listed.length ? String(start + size) : undefined;
    if (inProcess && next !== undefined) return { sessions: page, nextCursor: `${process.pid}:${next}` };
    return { sessions: page, ...(next !== undefined ? { nextCursor: next } : {}) };
  }

  /** Forgets a session (and its stored file); an unknown id is -32002. */
  deleteSession(c: acp.AgentRequestContext<acp.DeleteSessionRequest>): acp.DeleteSessionResponse {
    if (!this.scenario.agentCapabilities.sessionCapabilities?.delete) throw acp.RequestError.methodNotFound(c.method);
    const { sessionId } = c.params;
    if (!this.sessions.has(sessionId) && !this.store?.read(sessionId)) {
      throw acp.RequestError.sessionNotFound(sessionId);
    }
    this.sessions.get(sessionId)?.cancel();
    this.sessions.delete(sessionId);
    this.store?.delete(sessionId);
    return {};
  }

  /**
   * `session/fork` (gate `sessionCapabilities.fork`): a new session with the source's history, up to the end of the
   * turn of the message `_meta.jetbrains.air.fork.messageId` (as Claude Code's adapter and codex-acp take it), else all.
   */
  forkSession(params: ForkParams): acp.NewSessionResponse {
    const caps = this.scenario.agentCapabilities.sessionCapabilities as { fork?: unknown } | undefined;
    if (!caps?.fork) throw acp.RequestError.methodNotFound('session/fork');
    this.event('session/fork');
    const source = this.known(params.sessionId, params.cwd) ?? this.closed.get(params.sessionId);
    if (!source) throw acp.RequestError.sessionNotFound(params.sessionId);
    const meta = params._meta as { jetbrains?: { air?: { fork?: { messageId?: unknown } } } } | undefined;
    const messageId = meta?.jetbrains?.air?.fork?.messageId;
    const history = source.historyUpTo(typeof messageId === 'string' ? messageId : undefined);
    if (!history) throw acp.RequestError.invalidParams({ messageId }, `no message ${String(messageId)}`);
    const id = this.store
      ? `sess-${process.pid}-${randomBytes(4).toString('hex')}-${this.nextSessionNumber++}`
      : `sess-${this.nextSessionNumber++}`;
    this.store?.create({ id, cwd: source.cwd });
    const session = this.newSessionObject(id, source.cwd);
    for (const update of history) session.record(update);
    session.mcpServers = params.mcpServers;
    session.additionalDirectories = this.directoriesOf(params);
    this.sessions.set(id, session);
    return { sessionId: id, ...session.setupFields() } as acp.NewSessionResponse;
  }

  closeSession(c: acp.AgentRequestContext<acp.CloseSessionRequest>): acp.CloseSessionResponse {
    const session = this.session(c.params.sessionId);
    session.cancel();
    this.sessions.delete(c.params.sessionId);
    this.closed.set(session.id, session);
    return {};
  }

  /**
   * The further folders of a lifecycle request (`additionalDirectories`): refused where the scenario does not
   * advertise them (a client must not send them then), and each must be absolute.
   */
  private directoriesOf(params: { additionalDirectories?: string[] | null }): string[] {
    const directories = params.additionalDirectories ?? [];
    if (directories.length === 0) return [];
    if (!this.scenario.agentCapabilities.sessionCapabilities?.additionalDirectories) {
      throw acp.RequestError.invalidParams({ directories }, 'additionalDirectories is not advertised');
    }
    if (directories.some((d) => typeof d !== 'string' || !d.startsWith('/'))) {
      throw acp.RequestError.invalidParams({ directories }, 'additionalDirectories must be absolute paths');
    }
    return [...directories];
  }

  /** scenario.hang: the n-th request of a method in this process waits for the client to give it up. */
  private async hangIfAsked(c: acp.AgentRequestContext<unknown>): Promise<void> {
    const seen = (this.requestsSeen.get(c.method) ?? 0) + 1;
    this.requestsSeen.set(c.method, seen);
    if (this.scenario.hang[c.method] !== seen) return;
    this.event(`hanging ${c.method}`);
    await new Promise<void>((resolve) => {
      if (c.signal.aborted) resolve();
      else c.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    agentProcess.cancelled.push(c.method);
    this.event(`cancelled ${c.method}`);
    throw acp.RequestError.requestCancelled();
  }

  private async play(steps: Step[], c: acp.AgentRequestContext<unknown>, session: Session | undefined) {
    await playSteps(steps, { client: c.client, session, signal: c.signal, prompt: [] });
  }

  private newSessionObject(id: string, cwd: string): Session {
    const store = this.store;
    return new Session(id, cwd, this.scenario, store && ((update) => store.append(id, update)));
  }

  /** A session of this process, else one from the store (loaded into this process); its cwd must match. */
  private known(sessionId: string, cwd: string): Session | undefined {
    let session = this.sessions.get(sessionId);
    if (!session) {
      const stored = this.store?.read(sessionId);
      if (!stored) return undefined;
      session = this.newSessionObject(sessionId, stored.cwd);
      session.history.push(...stored.history);
      session.updatedAt = stored.updatedAt;
      this.sessions.set(sessionId, session);
    }
    if (session.cwd !== cwd) {
      throw acp.RequestError.invalidParams({ cwd }, `session ${sessionId} belongs to ${session.cwd}`);
    }
    return session;
  }

  /** What a session of this process has sent so far (for a v2 resume's replay); an unknown id is -32002. */
  historyOf(sessionId: string): readonly acp.SessionUpdate[] {
    return this.session(sessionId).history;
  }

  private session(sessionId: string): Session {
    const session = this.sessions.get(sessionId);
    if (!session) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  }

  private event(line: string): void {
    if (this.scenario.eventsFile) appendFileSync(this.scenario.eventsFile, `${line}\n`);
  }

  private checkAuth(): void {
    const signedIn = this.scenario.signInReadAtStart
      ? this.signedInAtStart
      : !!this.scenario.signInFile && existsSync(this.scenario.signInFile);
    if (this.scenario.requireAuth && !this.authenticated && !signedIn) throw acp.RequestError.authRequired();
  }
}

const setModelParams = {
  parse(params: unknown): { sessionId: string; modelId: string } {
    const p = params as { sessionId?: unknown; modelId?: unknown } | null;
    if (typeof p?.sessionId !== 'string' || typeof p.modelId !== 'string') {
      throw acp.RequestError.invalidParams(params, 'sessionId and modelId must be strings');
    }
    return { sessionId: p.sessionId, modelId: p.modelId };
  },
};

interface ForkParams {
  sessionId: string;
  cwd: string;
  mcpServers: acp.McpServer[];
  additionalDirectories?: string[];
  _meta?: unknown;
}

const forkParams = {
  parse(params: unknown): ForkParams {
    const p = params as {
      sessionId?: unknown;
      cwd?: unknown;
      mcpServers?: unknown;
      additionalDirectories?: unknown;
      _meta?: unknown;
    } | null;
    if (typeof p?.sessionId !== 'string' || typeof p.cwd !== 'string') {
      throw acp.RequestError.invalidParams(params, 'sessionId and cwd must be strings');
    }
    const mcpServers = Array.isArray(p.mcpServers) ? (p.mcpServers as acp.McpServer[]) : [];
    const dirs = Array.isArray(p.additionalDirectories) ? (p.additionalDirectories as string[]) : undefined;
    return {
      sessionId: p.sessionId,
      cwd: p.cwd,
      mcpServers,
      ...(dirs ? { additionalDirectories: dirs } : {}),
      _meta: p._meta,
    };
  },
};

interface TitleParams {
  sessionId: string;
  title: string;
}

const titleParams = {
  parse(params: unknown): TitleParams {
    const p = params as { sessionId?: unknown; title?: unknown };
    if (typeof p?.sessionId !== 'string' || typeof p.title !== 'string') {
      throw acp.RequestError.invalidParams(params, 'sessionId and title are required');
    }
    return { sessionId: p.sessionId, title: p.title };
  },
};

interface SteerParams {
  sessionId: string;
  prompt: acp.ContentBlock[];
}

const steerParams = {
  parse(params: unknown): SteerParams {
    const p = params as { sessionId?: unknown; prompt?: unknown; _meta?: { steering?: { idleBehavior?: unknown } } };
    if (typeof p?.sessionId !== 'string' || !Array.isArray(p.prompt) || p.prompt.length === 0) {
      throw acp.RequestError.invalidParams(params, 'sessionId and a non-empty prompt are required');
    }
    // As Claude Code's adapter: a client that does not opt in would get a turn started for it; this agent asks it to.
    if (p._meta?.steering?.idleBehavior !== 'promptRequired') {
      throw acp.RequestError.invalidParams(params, 'the test agent steers only with idleBehavior "promptRequired"');
    }
    return { sessionId: p.sessionId, prompt: p.prompt as acp.ContentBlock[] };
  },
};

/** A connection of the scripted agent, whichever ACP version it speaks. */
export interface ScriptedConnector {
  connect(stream: Stream): { readonly closed: Promise<void> };
}

/**
 * Builds the agent for a scenario, speaking the ACP versions it names (`protocol`); connect it to a stream to serve
 * a client.
 */
export function createAgent(scenario: Scenario, store?: SessionStore): ScriptedConnector {
  const agent = new ScriptedAgent(scenario, store);
  // An agent that takes MCP-over-ACP reads `session/new` as the unstable schema has it (an `acp` MCP server).
  const takesAcp = (scenario.agentCapabilities.mcpCapabilities as { acp?: unknown } | undefined)?.acp === true;
  if (scenario.protocol === 'v1' || takesAcp) {
    return v1App(agent, takesAcp ? (unstable.agent as unknown as typeof acp.agent) : acp.agent);
  }
  const router = agentProtocolRouter().withV2(v2App(agent, scenario));
  return scenario.protocol === 'auto' ? router.withV1(v1App(agent)) : router;
}

/** The ACP v1 app (a v1-only one answers version 1 whatever version the client asks for). */
function v1App(agent: ScriptedAgent, app: typeof acp.agent = acp.agent): acp.AgentApp {
  return app({ name: 'test-agent' })
    .onRequest('initialize', (c) => agent.initialize(c))
    .onRequest('authenticate', (c) => agent.authenticate(c))
    .onRequest('logout', () => agent.logout())
    .onRequest('session/new', (c) => agent.newSession(c))
    .onRequest('session/load', (c) => agent.loadSession(c))
    .onRequest('session/resume', (c) => agent.resumeSession(c))
    .onRequest('session/set_mode', (c) => agent.setMode(c))
    .onRequest('session/set_config_option', (c) => agent.setConfigOption(c))
    .onRequest('session/close', (c) => agent.closeSession(c))
    .onRequest('session/fork', forkParams, (c) => agent.forkSession(c.params))
    .onRequest('session/list', (c) => agent.listSessions(c))
    .onRequest('session/delete', (c) => agent.deleteSession(c))
    .onRequest('session/set_model', setModelParams, (c) => agent.setModel(c.params))
    .onRequest('_session/steering', steerParams, (c) => agent.steer(c.params))
    .onRequest('session/set_title', titleParams, (c) => agent.setTitle(c.params))
    .onRequest('session/prompt', (c) => agent.prompt(c))
    .onNotification('session/cancel', (c) => agent.cancel(c.params));
}
