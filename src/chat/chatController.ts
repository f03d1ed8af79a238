/**
 * The chat's state and the user's actions on it: pick an agent, connect,
 * send, stop, start over. Owns the agent connection (client scope).
 */
import * as vscode from 'vscode';
import type { ClientIdentity } from '../connection/agentClient';
import type { AgentExit, Platform } from '../platform';
import type { ConnectionState, ViewStatus } from '../shared/protocol';
import { emptySessionControls } from '../shared/sessionControls';
import type { ToolEntry } from '../shared/thread';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import { PermissionQueue } from './permissionQueue';
import { emptyThread, type Thread } from '../shared/thread';
import { reduceThread, type ThreadAction } from '../shared/threadReducer';
import { describeExit, errorMessage } from '../connection/errors';
import { startAgentSession, type StartedSession } from './agentSession';
import { sessionSetup, STATE_UPDATES, type EarlierSession } from './sessionOpen';
import { AgentList } from './agentList';
import { ControlChoices, type ControlChange } from './controlChoices';
import { PendingPrompt } from './pendingPrompt';
import { AgentUnreachableError } from '../platform';
import type { TranscriptArchive } from './transcriptArchive';


/** Waits before each reconnect attempt after a dropped connection (about a minute in all). */
export const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/** How long Stop waits for the agent to end the turn before the chat ends it itself. */
export const STOP_GRACE_MS = 2_000;

type Connection =
  | { state: 'disconnected' | 'failed' }
  | { state: 'connecting'; attempt: AbortController; reconnect?: true }
  | { state: 'connected'; session: StartedSession; subscriptions: vscode.Disposable[] };

export class ChatController implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires after any change of thread or status; the view batches. */
  readonly onDidChange = this._onDidChange.event;
  private threadState: Thread = emptyThread;
  private connection: Connection = { state: 'disconnected' };
  private readonly agentList: AgentList;
  private nextId = 0;
  /** Warnings held back while a turn streams, so they do not split a message. */
  private heldWarnings: string[] = [];
  /** Ends the late replay of a loaded session (see attach): a prompt was sent. */
  private endReplay: () => void = () => undefined;
  private readonly choices: ControlChoices;
  /** The session the transcript belongs to: the next connection to this agent continues it. */
  private earlier: (EarlierSession & { agentId: string }) | undefined;
  /** Permission requests waiting for the user. */
  readonly permissions = new PermissionQueue();
  /** A prompt sent before there was a connection. */
  private readonly pending = new PendingPrompt();
  /** Counts prompts, so that a late answer ends only its own turn. */
  private turnSeq = 0;
  /** Set between Stop and the end of the turn. */
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  /** This agent's remembered choices being applied to a new session; a pending prompt waits for them. */
  private restoring: Promise<void> = Promise.resolve();

  constructor(
    private readonly platform: Platform,
    private readonly identity: ClientIdentity,
    private readonly log: vscode.LogOutputChannel,
    memento: vscode.Memento,
    /** Keeps the transcript within its bound in memory, and what leaves it. */
    private readonly archive: TranscriptArchive,
  ) {
    this.agentList = new AgentList(platform, memento, log);
    this.choices = new ControlChoices(memento);
    this.permissions.onDidChange(() => this._onDidChange.fire());
    this.permissions.onDidAnswer(({ level, text }) => this.dispatch({ type: 'notice', id: this.newId(), level, text }));
  }

  get thread(): Thread {
    return this.threadState;
  }

  get status(): ViewStatus {
    const c = this.connection;
    return {
      agents: this.agentList.agents,
      selectedAgentId: this.agentList.selectedId,
      connection: (c.state === 'connecting' && c.reconnect ? 'reconnecting' : c.state) as ConnectionState,
      agentLabel: c.state === 'connected' ? c.session.agentLabel : undefined,
      turn: this.threadState.turn,
      title: this.threadState.title,
      plan: [...this.threadState.plan],
      // Controls belong to a live session; a disconnected chat offers none.
      controls: c.state === 'connected' ? this.threadState.controls : emptySessionControls,
      permissions: this.permissions.prompts,
      pendingPrompt: this.pending.text,
      returnedDraft: this.pending.draft,
    };
  }

  /** Re-reads the agent list (settings, PATH, bridge) without blocking activation. */
  async refreshAgents(): Promise<void> {
    await this.agentList.refresh();
    this._onDidChange.fire();
  }

  /** Runs the agent's install command in a terminal (the user asked), then looks for it again. */
  async installAgent(agentId: string): Promise<void> {
    const said = await this.agentList.install(agentId);
    if (said) this.dispatch({ type: 'notice', id: this.newId(), ...said });
    this._onDidChange.fire();
  }

  selectAgent(agentId: string): void {
    if (agentId === this.agentList.selectedId || !this.agentList.agents.some((a) => a.id === agentId)) return;
    // A different agent is a different conversation partner: end the old one.
    this.disconnect();
    this.agentList.select(agentId);
    this._onDidChange.fire();
  }

  /** Connects the selected agent; resolves when connected, failed or abandoned. */
  async connect(): Promise<boolean> {
    if (this.connection.state === 'connected') return true;
    if (this.connection.state === 'connecting') return false;
    const agentId = this.agentList.selectedId;
    if (!agentId) {
      void vscode.window.showErrorMessage('No ACP agent is available. Install one, or add one in the vscode-acp.agents setting.');
      return false;
    }
    const attempt = new AbortController();
    this.setConnection({ state: 'connecting', attempt });
    const outcome = await this.open(agentId, attempt);
    if (outcome === 'abandoned') {
      if (!attempt.signal.aborted) this.setConnection({ state: 'disconnected' });
      return false;
    }
    if (outcome === 'connected') {
      await this.sendPending();
      return true;
    }
    if (attempt.signal.aborted) return false;
    this.reportConnectFailure(agentId, outcome.error);
    return false;
  }

  /**
   * One attempt to start the agent and open (or continue) its session.
   * 'abandoned': no transport (the user cancelled a prompt for a token, say).
   */
  private async open(agentId: string, attempt: AbortController): Promise<'connected' | 'abandoned' | { error: unknown }> {
    // Continue the session on screen, if it is this agent's and there is something to continue.
    const earlier = this.earlier?.agentId === agentId && this.threadState.entries.length > 0 ? this.earlier : undefined;
    try {
      const session = await startAgentSession(this.platform, agentId, this.identity, {
        log: this.log,
        onProtocolWarning: (text) => this.warn(text),
      }, { requestPermission: (params, signal) => this.onPermissionRequest(params, signal) }, this.permissions, attempt.signal, earlier);
      if (!session || attempt.signal.aborted) {
        session?.client.dispose();
        return 'abandoned';
      }
      this.attach(session, agentId);
      return 'connected';
    } catch (error) {
      return { error };
    }
  }

  private reportConnectFailure(agentId: string, error: unknown): void {
    const name = this.agentList.name(agentId);
    this.log.error(`Connecting to ${name} failed: ${errorMessage(error)}`);
    this.dispatch({ type: 'notice', id: this.newId(), level: 'error', text: `Could not connect to ${name}: ${errorMessage(error)}` });
    this.setConnection({ state: 'failed' });
  }

  /**
   * The connection dropped (not the agent's own exit): reconnect with backoff
   * and continue the session. Disconnect (or Cancel) stops trying.
   */
  private async reconnect(agentId: string, why: string): Promise<void> {
    const attempt = new AbortController();
    this.setConnection({ state: 'connecting', attempt, reconnect: true });
    const text = `${why} Reconnecting…`;
    if (this.turnRunning()) this.endTurn({ type: 'turnFailed', id: this.newId(), message: text });
    else this.dispatch({ type: 'notice', id: this.newId(), level: 'warning', text });
    let lastError: unknown;
    for (const delayMs of RECONNECT_DELAYS_MS) {
      if (!(await sleep(delayMs, attempt.signal))) return;
      const outcome = await this.open(agentId, attempt);
      if (attempt.signal.aborted) return;
      if (outcome === 'connected') return this.sendPending();
      if (outcome === 'abandoned') {
        this.setConnection({ state: 'disconnected' });
        return;
      }
      lastError = outcome.error;
      this.log.warn(`Reconnecting failed: ${errorMessage(lastError)}`);
      // Only an unreachable agent is worth another try; a refusal or a crash will not change.
      if (!(lastError instanceof AgentUnreachableError)) break;
    }
    this.log.error(`Reconnecting gave up: ${errorMessage(lastError)}`);
    this.dispatch({ type: 'notice', id: this.newId(), level: 'error', text: `Could not reconnect: ${errorMessage(lastError)} Connect again to continue this session.` });
    this.setConnection({ state: 'failed' });
  }

  disconnect(): void {
    this.permissions.cancelAll();
    const c = this.connection;
    if (c.state === 'connecting') c.attempt.abort();
    if (c.state === 'connected') {
      c.subscriptions.forEach((s) => s.dispose());
      c.session.client.dispose();
      void c.session.terminals?.dispose();
    }
    this.endTurn({ type: 'turnEnded', id: this.newId(), stopReason: 'cancelled' });
    this.setConnection({ state: 'disconnected' });
  }

  /**
   * Sends a prompt. Without a connection it waits, shown as pending, until
   * one is made (this starts connecting when nothing is under way); it is
   * handed back to the composer if connecting fails.
   */
  async send(text: string): Promise<void> {
    if (this.turnRunning() || text.trim() === '') return;
    const c = this.connection;
    if (c.state === 'connected' && this.pending.text === undefined) return this.prompt(c, text);
    this.pending.add(text);
    this._onDidChange.fire();
    // Connecting already: that attempt sends it.
    if (c.state !== 'connecting') await this.connect();
  }

  /** The user cancelled the pending prompt: its text goes back to the composer. */
  cancelPending(): void {
    if (this.pending.giveBack()) this._onDidChange.fire();
  }

  /** The composer took the text handed back to it. */
  draftTaken(id: number): void {
    if (this.pending.taken(id)) this._onDidChange.fire();
  }

  private async sendPending(): Promise<void> {
    await this.restoring;
    const c = this.connection;
    if (c.state !== 'connected' || this.turnRunning()) return;
    const text = this.pending.take();
    if (text !== undefined) await this.prompt(c, text);
  }

  private async prompt(c: Extract<Connection, { state: 'connected' }>, text: string): Promise<void> {
    this.endReplay();
    const turn = ++this.turnSeq;
    this.dispatch({ type: 'prompt', id: this.newId(), text });
    const ours = () => this.connection === c && this.turnSeq === turn && this.turnRunning();
    try {
      const stopReason = await c.session.client.prompt(c.session.sessionId, [{ type: 'text', text }]);
      if (ours()) this.endTurn({ type: 'turnEnded', id: this.newId(), stopReason });
    } catch (error) {
      // A connection that died is reported once, by its close handler.
      if (ours() && !c.session.client.isClosed) {
        this.endTurn({ type: 'turnFailed', id: this.newId(), message: `The agent failed: ${errorMessage(error)}` });
      }
    }
  }

  /**
   * Stop: `session/cancel`; the agent ends the turn with `cancelled`. One
   * that has not within STOP_GRACE_MS (or at a second Stop) has its turn
   * ended here, and the chat offers Restart.
   */
  stop(): void {
    // Cancelling a turn answers its pending permission requests first (ACP).
    this.permissions.cancelAll();
    const c = this.connection;
    if (c.state !== 'connected' || !this.turnRunning()) return;
    if (this.stopTimer !== undefined) return this.abandonTurn();
    c.session.client.cancel(c.session.sessionId);
    this.stopTimer = setTimeout(() => this.abandonTurn(), STOP_GRACE_MS);
  }

  /** Restart: a new agent process, continuing the session on screen where the agent can. */
  async restart(): Promise<boolean> {
    this.disconnect();
    return this.connect();
  }

  private abandonTurn(): void {
    if (!this.turnRunning()) return this.endTurn();
    this.endTurn({ type: 'turnEnded', id: this.newId(), stopReason: 'cancelled' });
    this.dispatch({
      type: 'notice', id: this.newId(), level: 'warning', action: 'restart',
      text: 'The agent did not confirm the stop and may still be working. Restart it to be sure it stopped (the session continues where the agent can).',
    });
  }

  /** Ends the running turn with `action` (none: only forgets a Stop in progress). */
  private endTurn(action?: Extract<ThreadAction, { type: 'turnEnded' | 'turnFailed' }>): void {
    clearTimeout(this.stopTimer);
    this.stopTimer = undefined;
    if (action && this.turnRunning()) this.dispatch(action);
  }

  /** Clears the transcript; a connected agent gets a fresh session. */
  async newChat(): Promise<void> {
    const c = this.connection;
    const agentId = this.earlier?.agentId ?? this.agentList.selectedId ?? '';
    this.stop();
    this.endTurn();
    this.threadState = emptyThread;
    this.archive.clear();
    this.earlier = undefined;
    this._onDidChange.fire();
    if (c.state !== 'connected') return;
    try {
      // The old session's commands end with it, and so do its "always allow" grants.
      await c.session.terminals?.reset();
      const response = await c.session.client.newSession(c.session.cwd);
      if (this.connection !== c) return;
      c.subscriptions.forEach((s) => s.dispose());
      this.attach({ ...c.session, sessionId: response.sessionId, setup: sessionSetup(response), continuation: undefined }, agentId);
    } catch (error) {
      this.dispatch({ type: 'notice', id: this.newId(), level: 'error', text: `Could not start a new session: ${errorMessage(error)}` });
    }
  }

  /**
   * Clears what is shown without ending anything: the session, its running
   * commands and its controls stay; "always allow" grants are revoked, so the
   * agent has to ask again.
   */
  clearChat(): void {
    if (this.turnRunning()) return;
    this.threadState = { ...emptyThread, controls: this.threadState.controls, terminals: this.threadState.terminals };
    this.archive.clear();
    this.revokeGrants();
    this._onDidChange.fire();
  }

  /** Forgets every "always allow" grant (the view went away, or the chat was cleared). */
  revokeGrants(): void {
    const c = this.connection;
    if (c.state === 'connected') c.session.terminals?.revokeGrants();
  }

  /** A config option, mode or model picked in the view: sent to the agent, then remembered for this agent. */
  async changeControl(change: ControlChange): Promise<void> {
    const c = this.connection;
    if (c.state !== 'connected') return;
    try {
      const update = await this.choices.apply(c.session.client, c.session.sessionId, change);
      if (this.connection !== c) return;
      this.dispatch({ type: 'controlsChanged', id: this.newId(), controls: update(this.threadState.controls) });
      if (this.agentList.selectedId) this.choices.remember(this.agentList.selectedId, change);
    } catch (error) {
      this.dispatch({ type: 'notice', id: this.newId(), level: 'error', text: `The agent refused the change: ${errorMessage(error)}` });
    }
  }

  dispose(): void {
    clearTimeout(this.stopTimer);
    this.disconnect();
    this.permissions.dispose();
    this._onDidChange.dispose();
  }

  private attach(session: StartedSession, agentId: string): void {
    this.earlier = { agentId, sessionId: session.sessionId, cwd: session.cwd };
    // Controls first: subscribing replays buffered updates (commands sent
    // before the session/new response), which must land on top of them.
    this.dispatch({ type: 'sessionStarted', id: this.newId(), setup: session.setup });
    const continuation = session.continuation;
    if (continuation?.how === 'new') {
      this.dispatch({ type: 'notice', id: this.newId(), level: 'warning', text: `This is a new session: ${continuation.why}. The agent does not remember the conversation above.` });
    } else if (continuation) {
      for (const update of continuation.state) this.dispatch({ type: 'update', id: this.newId(), update });
      this.dispatch({ type: 'notice', id: this.newId(), level: 'info', text: `The session continues (${continuation.how} by the agent).` });
    }
    // A loaded session's replay can go on after the load's answer (Gemini CLI sends nearly all of
    // it then): until the next prompt, only its state updates apply; the transcript is on screen.
    let replaying = continuation?.how === 'loaded';
    this.endReplay = () => (replaying = false);
    const subscriptions = [
      session.client.onSessionUpdate(session.sessionId, (update) => {
        if (replaying && !STATE_UPDATES.has(update.sessionUpdate)) return;
        this.dispatch({ type: 'update', id: this.newId(), update });
      }),
      session.client.onDidClose((exit) => this.onAgentGone(session, exit)),
      // Said once per kind, after the turn (a notice inside an answer would split it).
      session.client.onDidIgnoreUpdate((kind) => this.warn(`The agent sent updates of a kind this version of the extension does not know (${JSON.stringify(kind.slice(0, 80))}): they are not shown.`)),
      ...(session.terminals ? [
        session.terminals.onOutput((terminalId, data) => this.dispatch({ type: 'terminal', id: this.newId(), terminalId, data })),
        session.terminals.onExit((terminalId, exit) => this.dispatch({ type: 'terminal', id: this.newId(), terminalId, exit })),
      ] : []),
    ];
    this.setConnection({ state: 'connected', session, subscriptions });
    this.restoring = this.restoreChoices(session);
  }

  /** Applies this agent's remembered choices to a new session, quietly skipping what it refuses. */
  private async restoreChoices(session: StartedSession): Promise<void> {
    const agentId = this.agentList.selectedId;
    if (!agentId) return;
    for (const change of this.choices.pending(agentId, this.threadState.controls)) {
      const c = this.connection;
      if (c.state !== 'connected' || c.session.sessionId !== session.sessionId) return;
      try {
        const update = await this.choices.apply(session.client, session.sessionId, change);
        if (this.connection === c) this.dispatch({ type: 'controlsChanged', id: this.newId(), controls: update(this.threadState.controls) });
      } catch (error) {
        this.log.warn(`Could not restore ${change.kind} ${change.id}: ${errorMessage(error)}`);
      }
    }
  }

  private onAgentGone(session: StartedSession, exit: AgentExit): void {
    const c = this.connection;
    if (c.state !== 'connected' || c.session.client !== session.client) return;
    c.subscriptions.forEach((s) => s.dispose());
    void session.terminals?.dispose();
    const message = describeExit(exit);
    this.log.error(`Agent connection ended: ${message}`);
    if (exit.lost && this.earlier) {
      void this.reconnect(this.earlier.agentId, message);
      return;
    }
    const text = `The agent stopped: ${message}`;
    if (this.turnRunning()) this.endTurn({ type: 'turnFailed', id: this.newId(), message: text });
    else this.dispatch({ type: 'notice', id: this.newId(), level: 'error', text });
    this.setConnection({ state: 'failed' });
  }

  private onPermissionRequest(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse> {
    const c = this.connection;
    // Only the session on screen may ask; anything else is not the user's to answer.
    if (c.state !== 'connected' || params.sessionId !== c.session.sessionId) return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    // The request's tool call is an update of the call like any other (as in Zed): a call first
    // seen here (Gemini CLI, Codex's commands) is shown, and what it adds (OpenCode's diff) stays on the card.
    // (Not for a request refused because too many wait: a flood must not flood the chat with cards.)
    if (!this.permissions.full) this.dispatch({ type: 'update', id: this.newId(), update: { sessionUpdate: 'tool_call_update', ...params.toolCall } });
    const known = this.threadState.entries.find((e): e is ToolEntry => e.kind === 'tool' && e.toolCallId === params.toolCall.toolCallId);
    return this.permissions.request(params, known, signal);
  }

  private warn(text: string): void {
    if (this.turnRunning()) this.heldWarnings.push(text);
    else this.dispatch({ type: 'notice', id: this.newId(), level: 'warning', text });
  }

  private setConnection(connection: Connection): void {
    this.connection = connection;
    // No connection is coming for a pending prompt: its text goes back to the composer.
    if (connection.state === 'disconnected' || connection.state === 'failed') this.pending.giveBack();
    this._onDidChange.fire();
  }

  /** Opens the entries that a long chat moved out of memory. */
  openEarlier(): Promise<void> {
    return this.archive.open();
  }

  private dispatch(action: ThreadAction): void {
    this.threadState = this.archive.keepWithinBound(reduceThread(this.threadState, action), action);
    if (!this.turnRunning() && this.heldWarnings.length > 0) {
      for (const text of this.heldWarnings.splice(0)) this.threadState = reduceThread(this.threadState, { type: 'notice', id: this.newId(), level: 'warning', text });
    }
    this._onDidChange.fire();
  }

  /** A method, not a field read, so that TypeScript does not keep an old narrowing across awaits. */
  private turnRunning(): boolean {
    return this.threadState.turn === 'running';
  }

  private newId(): string {
    return `e${++this.nextId}`;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
