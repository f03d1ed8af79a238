/**
 * One chat: one ACP session with its own thread, agent, controls, permission
 * queue, terminals and grants. Its lifecycle steps (connect, restart,
 * disconnect, close) run one at a time (ChatLifecycle), so no race can leave
 * it with two live sessions or a stale one. The agent process is shared with
 * other chats of the same agent (agentConnections.ts).
 */
import * as vscode from 'vscode';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import type { AgentExit } from '../platform';
import { AgentUnreachableError } from '../platform';
import type { ChatStatus, ConnectionState } from '../shared/protocol';
import { emptySessionControls } from '../shared/sessionControls';
import type { Entry, Thread } from '../shared/thread';
import { keptFromReplay } from '../shared/updateKinds';
import type { ThreadAction } from '../shared/threadReducer';
import { describeExit, errorMessage } from '../errorText';
import { DraftAttachments, type DraftAttachment } from '../attachments/draftAttachments';
import { PromptAssembly } from './promptAssembly';
import { ChatChanges } from '../changes/chatChanges';
import { FollowAgent } from './followAgent';
import { noChanges } from '../shared/changes';
import { savedEntryId, type SavedChanges } from '../shared/savedSessions';
import type { AgentList } from '../agents/agentList';
import {
  endChatSession,
  followSession,
  openChatSession,
  type ChatSession,
  type SessionDeps,
} from '../session/chatSession';
import { ChatLifecycle, retryOpen, type OpenOutcome } from '../session/chatLifecycle';
import { ChatThread } from './chatThread';
import { ChatTurns, type TurnTarget } from './chatTurns';
import type { ControlChoices, ControlChange } from './controlChoices';
import { PendingPrompt } from './pendingPrompt';
import { PermissionQueue } from '../session/permissionQueue';
import type { EarlierSession } from '../session/sessionOpen';
import type { TranscriptArchive } from './transcriptArchive';
import { redactor } from '../secrets/redactor';

export interface ChatDeps extends SessionDeps {
  readonly agentList: AgentList;
  readonly choices: ControlChoices;
}

type Link =
  | { state: 'disconnected' | 'failed' }
  | { state: 'connecting'; attempt: AbortController; reconnect?: true }
  | { state: 'connected'; session: ChatSession; subscriptions: vscode.Disposable[] };

export class Chat implements vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires after any change of thread or status; views batch. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidReplaceSession = new vscode.EventEmitter<{
    before: { agentId: string; sessionId: string };
    after: { agentId: string; sessionId: string };
  }>();
  /** The agent could not continue the chat's session and started a new one in its place (the history's entry follows). */
  readonly onDidReplaceSession = this._onDidReplaceSession.event;
  private readonly transcript: ChatThread;
  private link: Link = { state: 'disconnected' };
  /** The agent picked for this chat; until then, the one picked last anywhere. */
  private chosenAgent: string | undefined;
  /** Ends the late replay of a loaded session (see attach): a prompt was sent. */
  private endReplay: () => void = () => undefined;
  /** The session the transcript belongs to: the next connection to this agent continues it. */
  private earlier: (EarlierSession & { agentId: string }) | undefined;
  /** Permission requests waiting for the user: this chat's session's only. */
  readonly permissions = new PermissionQueue();
  /** What the user attached to the prompt being written. */
  readonly attachments: DraftAttachments;
  private readonly pending = new PendingPrompt();
  private readonly assembly: PromptAssembly;
  /** Counts requests to put the caret in this chat's composer (the page acts on a new count). */
  private focusRequests = 0;
  private readonly lifecycle = new ChatLifecycle();
  private readonly turns: ChatTurns;
  /** The Changes bar: what the agent changed since the user last kept it (where the host has checkpoints). */
  readonly changes: ChatChanges | undefined;
  /** Opens the current tool call's location while a turn runs, when the user turned it on. */
  private readonly follow: FollowAgent;
  /** This agent's remembered choices being applied to a new session; a pending prompt waits for them. */
  private restoring: Promise<void> = Promise.resolve();
  /** The Connect under way: a prompt sent meanwhile waits for it (and its own turn). */
  private connecting: Promise<boolean> | undefined;
  private closed = false;

  constructor(
    /** Unique in this window; also the prefix of this chat's entry ids. */
    readonly id: string,
    private readonly deps: ChatDeps,
    /** Keeps the transcript within its bound in memory, and what leaves it. */
    archive: TranscriptArchive,
    /** The agent to talk to; none: whichever is picked when this chat connects. */
    agentId?: string,
  ) {
    this.chosenAgent = agentId;
    this.transcript = new ChatThread(id, archive, () => this._onDidChange.fire());
    this.turns = new ChatTurns(this.transcript);
    this.permissions.onDidChange(() => this._onDidChange.fire());
    this.attachments = new DraftAttachments(deps.platform.attachmentFiles);
    this.attachments.onDidChange(() => this._onDidChange.fire());
    this.assembly = new PromptAssembly(this.attachments, this.pending, this.transcript, () => this._onDidChange.fire());
    this.permissions.onDidAnswer(({ level, text }) => this.transcript.notice(level, text));
    this.follow = new FollowAgent(deps.platform, deps.log);
    if (deps.platform.checkpoints) {
      this.changes = new ChatChanges(deps.platform.checkpoints, (level, text) => this.transcript.notice(level, text));
      this.changes.onDidChange(() => this._onDidChange.fire());
    }
  }

  get thread(): Thread {
    return this.transcript.value;
  }

  /** The agent session this chat's transcript belongs to (the next Connect continues it), once there is one. */
  get session(): (EarlierSession & { agentId: string }) | undefined {
    return this.earlier;
  }

  /**
   * Shows a saved transcript and makes its session the one the next Connect
   * continues (resume, else load, else a new session that says why).
   */
  restore(
    entries: readonly Entry[],
    terminals: Thread['terminals'],
    session: EarlierSession & { agentId: string },
    title?: string,
    changes?: SavedChanges,
  ): void {
    if (this.link.state !== 'disconnected' || this.thread.entries.length > 0) return;
    this.chosenAgent = session.agentId;
    this.earlier = session;
    this.transcript.seed(entries, terminals, title);
    if (changes) void this.changes?.load(changes, (index) => savedEntryId(this.id, index));
  }

  get agentId(): string | undefined {
    return this.chosenAgent ?? this.deps.agentList.selectedId;
  }

  /** The agent connection the chat's session runs on, while connected. */
  get liveConnection(): ChatSession['lease']['connection'] | undefined {
    return this.link.state === 'connected' ? this.link.session.lease.connection : undefined;
  }

  get connection(): ConnectionState {
    const c = this.link;
    return c.state === 'connecting' && c.reconnect ? 'reconnecting' : c.state;
  }

  /** The agent's title for the session, else the start of the first prompt, else nothing yet. */
  get title(): string | undefined {
    return this.transcript.title;
  }

  get status(): ChatStatus {
    const c = this.link;
    const agentList = this.deps.agentList;
    return {
      agents: agentList.agents,
      selectedAgentId: this.agentId,
      connection: this.connection,
      agentLabel: c.state === 'connected' ? redactor.redact(c.session.lease.connection.agentLabel) : undefined,
      turn: this.transcript.value.turn,
      title: this.transcript.value.title,
      plan: [...this.transcript.value.plan],
      // Controls belong to a live session; a disconnected chat offers none.
      controls: c.state === 'connected' ? this.transcript.value.controls : emptySessionControls,
      permissions: this.permissions.prompts,
      pendingPrompt: this.pending.text,
      returnedDraft: this.pending.draft,
      attachments: this.attachments.chips,
      preparing: this.assembly.preparing,
      focusComposer: this.focusRequests,
      changes: this.changes?.status ?? noChanges,
      checkpoints: this.changes?.checkpointEntries ?? [],
      ...(this.follow.offered ? { follow: this.follow.enabled } : {}),
    };
  }

  /** Another agent for this chat: a different conversation partner, so the old session ends. */
  selectAgent(agentId: string): void {
    if (agentId === this.agentId || !this.deps.agentList.agents.some((a) => a.id === agentId)) return;
    void this.disconnect();
    // At once: a Connect right after this is for the new agent (it runs after the disconnect).
    this.chosenAgent = agentId;
    this.deps.agentList.select(agentId);
    this._onDidChange.fire();
  }

  /** Connects the chat's agent; resolves when connected (and a pending prompt's turn is over), failed or abandoned. */
  connect(): Promise<boolean> {
    if (this.link.state === 'connected') return Promise.resolve(true);
    // An attempt being given up (Disconnect, another agent picked) is not this one.
    if (this.link.state === 'connecting' && !this.link.attempt.signal.aborted) {
      return this.connecting ?? Promise.resolve(false);
    }
    const agentId = this.agentId;
    if (!agentId) {
      void vscode.window.showErrorMessage(
        'No ACP agent is available. Install one, or add one in the vscode-acp.agents setting.',
      );
      return Promise.resolve(false);
    }
    const attempt = new AbortController();
    this.setLink({ state: 'connecting', attempt });
    const connected = this.lifecycle.run(async () => {
      if (attempt.signal.aborted || this.closed) return false;
      this.chosenAgent = agentId;
      const outcome = await this.open(agentId, attempt);
      if (outcome === 'abandoned') {
        if (!attempt.signal.aborted) this.setLink({ state: 'disconnected' });
        return false;
      }
      if (outcome === 'connected') return true;
      if (!attempt.signal.aborted) this.reportConnectFailure(agentId, outcome.error);
      return false;
    });
    // The prompt that waited is sent after the step: a turn does not hold up Disconnect.
    const call = connected
      .then(async (ok) => {
        if (ok) await this.sendPending();
        return ok;
      })
      .finally(() => {
        if (this.connecting === call) this.connecting = undefined;
      });
    this.connecting = call;
    return call;
  }

  /**
   * One attempt to open (or continue) this chat's session on its agent.
   * 'abandoned': cancelled (the user cancelled a prompt for a token, say).
   */
  private async open(agentId: string, attempt: AbortController): Promise<OpenOutcome> {
    // Continue the session on screen, if it is this agent's and there is something to continue
    // (or the user asked for it by name: a listed session, loaded with its history).
    const onScreen = this.transcript.value.entries.length > 0;
    const earlier = this.earlier?.agentId === agentId && (onScreen || this.earlier.how) ? this.earlier : undefined;
    try {
      const session = await openChatSession(
        this.deps,
        agentId,
        this.permissions,
        (p, s) => this.onPermissionRequest(p, s),
        attempt.signal,
        earlier,
        onScreen,
      );
      if (!session) return 'abandoned';
      if (attempt.signal.aborted) {
        void endChatSession(session);
        return 'abandoned';
      }
      this.attach(session, agentId);
      return 'connected';
    } catch (error) {
      return { error };
    }
  }

  private reportConnectFailure(agentId: string, error: unknown): void {
    const name = this.deps.agentList.name(agentId);
    this.deps.log.error(`Connecting to ${name} failed: ${errorMessage(error)}`);
    this.transcript.notice('error', `Could not connect to ${name}: ${errorMessage(error)}`);
    this.setLink({ state: 'failed' });
  }

  /**
   * The connection dropped (not the agent's own exit): reconnect with backoff
   * and continue the session. Disconnect (or Cancel) stops trying.
   */
  private reconnect(agentId: string, why: string): Promise<void> {
    const attempt = new AbortController();
    this.setLink({ state: 'connecting', attempt, reconnect: true });
    const text = `${why} Reconnecting…`;
    if (this.turnRunning()) this.turns.fail(text);
    else this.transcript.notice('warning', text);
    return this.lifecycle.run(async () => {
      const outcome = await retryOpen(
        () => this.open(agentId, attempt),
        (error) => error instanceof AgentUnreachableError,
        attempt.signal,
        (error) => this.deps.log.warn(`Reconnecting failed: ${errorMessage(error)}`),
      );
      if (outcome === 'aborted') return;
      if (outcome === 'connected') return void this.sendPending();
      if (outcome === 'abandoned') return this.setLink({ state: 'disconnected' });
      this.deps.log.error(`Reconnecting gave up: ${errorMessage(outcome.error)}`);
      this.transcript.notice(
        'error',
        `Could not reconnect: ${errorMessage(outcome.error)} Connect again to continue this session.`,
      );
      this.setLink({ state: 'failed' });
    });
  }

  /** Ends this chat's session (its permissions, its commands); the agent process stays while other chats use it. */
  disconnect(): Promise<void> {
    // An attempt under way stops at once, not after it would have finished.
    const c = this.link;
    if (c.state === 'connecting') c.attempt.abort();
    this.permissions.cancelAll();
    return this.lifecycle.run(() => this.detach(false));
  }

  /**
   * Ends the current link. An attempt that is not aborted was started after
   * the Disconnect asked for this (Disconnect aborts the one it finds): it
   * stays, unless `all`.
   */
  private async detach(all: boolean): Promise<void> {
    const c = this.link;
    if (c.state === 'connecting' && !c.attempt.signal.aborted && !all) return;
    if (c.state === 'connecting') c.attempt.abort();
    this.permissions.cancelAll();
    this.turns.cancel();
    if (c.state !== 'disconnected' && c.state !== 'failed') this.setLink({ state: 'disconnected' });
    if (c.state === 'connected') {
      c.subscriptions.forEach((s) => s.dispose());
      await endChatSession(c.session);
    }
  }

  /**
   * Restart: a new agent process (every other chat on the old one reconnects
   * to it, continuing its session) and, for this chat, a new session: the
   * transcript stays, marked where the new session begins, and the session
   * before stays in the history. `continueSession` (the Restart a chat
   * offers after a Stop the agent did not confirm) continues this chat's
   * session instead, where the agent can.
   */
  async restart(options: { continueSession?: boolean } = {}): Promise<boolean> {
    const agentId = this.agentId;
    await this.disconnect();
    if (agentId) this.deps.agents.end(agentId, { message: 'The agent was restarted.', lost: true });
    if (!options.continueSession && this.earlier) {
      this.earlier = undefined;
      this.transcript.notice(
        'info',
        "Agent restarted: a new session begins here, and the agent does not remember what is above. The session before is kept in this workspace's history.",
      );
    }
    return this.connect();
  }

  /**
   * The notice's Sign in (an agent that refused a prompt until signed in):
   * the agent's sign-in on this chat's connection; after a terminal sign-in
   * the agent restarts and the session continues.
   */
  async signIn(): Promise<void> {
    const connection = this.liveConnection;
    if (!connection) return void (await this.connect());
    try {
      const done = await connection.signIn();
      if (done === 'reconnect') await this.restart({ continueSession: true });
      this.transcript.notice('info', 'Signed in. Send the prompt again.');
    } catch (error) {
      this.transcript.notice('error', errorMessage(error));
    }
  }

  /**
   * Sends a prompt with the chat's attachments. Without a connection it
   * waits, shown as pending, until one is made (this starts connecting when
   * nothing is under way); it is handed back to the composer if connecting
   * fails.
   */
  async send(text: string): Promise<void> {
    if (this.turnRunning() || this.closed) return;
    if (text.trim() === '' && this.attachments.count === 0) return;
    if (this.assembly.preparing) {
      // The prompt before is still being put together: this text must not be lost.
      this.pending.handBack(text);
      return this._onDidChange.fire();
    }
    const attached = this.attachments.takeAll();
    const c = this.link;
    if (c.state === 'connected' && this.pending.text === undefined) return this.prompt(c, text, attached);
    this.pending.add(text, attached);
    this._onDidChange.fire();
    // Connecting already: that attempt sends it.
    await this.connect();
  }

  /** Asks the page showing this chat to put the caret in its composer (an attachment was added from an editor). */
  focusComposer(): void {
    this.focusRequests++;
    this._onDidChange.fire();
  }

  /** The user cancelled the pending prompt: its text goes back to the composer. */
  cancelPending(): void {
    const attached = this.pending.giveBack();
    if (attached === undefined) return;
    this.attachments.putBack(attached);
    this._onDidChange.fire();
  }

  /** The composer took the text handed back to it. */
  draftTaken(id: number): void {
    if (this.pending.taken(id)) this._onDidChange.fire();
  }

  private async sendPending(): Promise<void> {
    await this.restoring;
    const c = this.link;
    if (c.state !== 'connected' || this.turnRunning()) return;
    const waiting = this.pending.take();
    if (waiting !== undefined) await this.prompt(c, waiting.text, waiting.attachments);
  }

  private async prompt(
    c: Extract<Link, { state: 'connected' }>,
    text: string,
    attached: readonly DraftAttachment[],
  ): Promise<void> {
    this.endReplay();
    const { init, quirks } = c.session.lease.connection;
    const prompt = await this.assembly.assemble(
      text,
      attached,
      init.agentCapabilities?.promptCapabilities,
      quirks,
      () => this.link === c && !this.closed,
    );
    if (!prompt) return;
    const run = (ready?: Promise<unknown>) =>
      this.turns.prompt(target(c.session), text, prompt.blocks, prompt.sent, () => this.link === c, ready);
    // Where the host keeps checkpoints, the turn is one the Changes bar follows.
    if (c.session.lease.connection.offered.checkpoints && this.changes) await this.changes.follow(run);
    else await run();
  }

  /** Stop: cancels the running turn (see ChatTurns.stop); its pending permission requests are answered first (ACP). */
  stop(): void {
    this.permissions.cancelAll();
    const c = this.link;
    if (c.state === 'connected') this.turns.stop(target(c.session));
  }

  /**
   * Clears what is shown without ending anything: the session, its running
   * commands and its controls stay; "always allow" grants are revoked, so the
   * agent has to ask again.
   */
  clear(): void {
    if (this.turnRunning()) return;
    this.transcript.clear();
    this.revokeGrants();
  }

  /** Forgets every "always allow" grant (the view went away, or the chat was cleared). */
  revokeGrants(): void {
    const c = this.link;
    if (c.state === 'connected') c.session.terminals?.revokeGrants();
  }

  /** A config option, mode or model picked in the view: sent to the agent, then remembered for this agent. */
  async changeControl(change: ControlChange): Promise<void> {
    const c = this.link;
    if (c.state !== 'connected') return;
    try {
      const update = await this.deps.choices.apply(c.session.lease.connection.client, c.session.sessionId, change);
      if (this.link !== c) return;
      this.dispatch({ type: 'controlsChanged', id: this.newId(), controls: update(this.transcript.value.controls) });
      this.deps.choices.remember(c.session.lease.connection.agentId, change);
    } catch (error) {
      this.transcript.notice('error', `The agent refused the change: ${errorMessage(error)}`);
    }
  }

  /** Follow the agent on or off (this chat only). */
  setFollow(on: boolean): void {
    if (!this.follow.offered) return;
    this.follow.enabled = on;
    this._onDidChange.fire();
  }

  /** A line from the extension itself in this chat (an install's outcome, say). */
  say(level: 'info' | 'warning' | 'error', text: string): void {
    this.transcript.notice(level, text);
  }

  /** Opens the entries that a long chat moved out of memory. */
  openEarlier(): Promise<void> {
    return this.transcript.openEarlier();
  }

  /** Closing the chat: its session ends (`session/close` where advertised), then nothing more happens here. */
  async close(): Promise<void> {
    this.stop();
    await this.disconnect();
    this.closed = true;
    this.dispose();
  }

  dispose(): void {
    this.closed = true;
    this.turns.end();
    void this.detach(true);
    this.permissions.dispose();
    this.attachments.dispose();
    this.changes?.dispose();
    this.follow.dispose();
    this.transcript.dispose();
    this._onDidChange.dispose();
    this._onDidReplaceSession.dispose();
  }

  private attach(session: ChatSession, agentId: string): void {
    // Without `how`: a later reconnect continues it whichever way the agent can.
    const before = this.earlier;
    this.earlier = { agentId, sessionId: session.sessionId, cwd: session.cwd };
    const continuation = session.continuation;
    if (before && continuation?.how === 'new') this._onDidReplaceSession.fire({ before, after: this.earlier });
    this.transcript.sessionOpened(session.setup, continuation);
    if (session.mcpNotice) this.transcript.notice('warning', session.mcpNotice);
    // A loaded session's replay can go on after the load's answer (Gemini CLI sends nearly all of
    // it then): until the next prompt, only its state updates apply; the transcript is on screen.
    let replaying = continuation?.how === 'loaded' && !continuation.replayShown;
    this.endReplay = () => (replaying = false);
    const subscriptions = followSession(session, {
      update: (update) => {
        if (!replaying || keptFromReplay(update.sessionUpdate)) {
          this.dispatch({ type: 'update', id: this.newId(), update });
        }
        if (this.turnRunning()) this.follow.onUpdate(update);
      },
      gone: (exit) => this.onAgentGone(session, exit),
      warn: (text) => this.transcript.warn(text),
      terminalOutput: (terminalId, data) => this.dispatch({ type: 'terminal', id: this.newId(), terminalId, data }),
      terminalExit: (terminalId, exit) => this.dispatch({ type: 'terminal', id: this.newId(), terminalId, exit }),
    });
    this.setLink({ state: 'connected', session, subscriptions });
    this.restoring = this.restoreChoices(session, agentId);
    // The first checkpoint copies every file once: taken now, the first prompt does not wait for it.
    if (session.lease.connection.offered.checkpoints) this.deps.platform.checkpoints?.warmUp();
  }

  /** Applies this agent's remembered choices to a new session, quietly skipping what it refuses. */
  private async restoreChoices(session: ChatSession, agentId: string): Promise<void> {
    for (const change of this.deps.choices.pending(agentId, this.transcript.value.controls)) {
      const c = this.link;
      if (c.state !== 'connected' || c.session !== session) return;
      try {
        const update = await this.deps.choices.apply(session.lease.connection.client, session.sessionId, change);
        if (this.link === c) {
          this.dispatch({
            type: 'controlsChanged',
            id: this.newId(),
            controls: update(this.transcript.value.controls),
          });
        }
      } catch (error) {
        this.deps.log.warn(`Could not restore ${change.kind} ${change.id}: ${errorMessage(error)}`);
      }
    }
  }

  private onAgentGone(session: ChatSession, exit: AgentExit): void {
    const c = this.link;
    if (c.state !== 'connected' || c.session !== session) return;
    c.subscriptions.forEach((s) => s.dispose());
    void session.terminals?.dispose();
    session.lease.release();
    const message = describeExit(exit);
    this.deps.log.error(`Agent connection ended: ${message}`);
    if (exit.lost && this.earlier) {
      void this.reconnect(this.earlier.agentId, message);
      return;
    }
    const text = `The agent stopped: ${message}`;
    if (this.turnRunning()) this.turns.fail(text);
    else this.transcript.notice('error', text);
    this.setLink({ state: 'failed' });
  }

  private onPermissionRequest(
    params: RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<RequestPermissionResponse> {
    const c = this.link;
    // Only this chat's live session may ask here (the connection routes by session id).
    if (c.state !== 'connected' || params.sessionId !== c.session.sessionId) {
      return Promise.resolve({ outcome: { outcome: 'cancelled' } });
    }
    // Not shown for a request refused because too many wait: a flood must not flood the chat with cards.
    const known = this.transcript.permissionAsked(params.toolCall, !this.permissions.full);
    return this.permissions.request(params, known, signal);
  }

  private setLink(link: Link): void {
    this.link = link;
    // No connection is coming for a pending prompt: its text goes back to the composer.
    if (link.state === 'disconnected' || link.state === 'failed') {
      this.attachments.putBack(this.pending.giveBack() ?? []);
    }
    this._onDidChange.fire();
  }

  private dispatch(action: ThreadAction): void {
    this.transcript.dispatch(action);
  }

  /** A method, not a field read, so that TypeScript does not keep an old narrowing across awaits. */
  private turnRunning(): boolean {
    return this.transcript.running;
  }

  private newId(): string {
    return this.transcript.newId();
  }
}

function target(session: ChatSession): TurnTarget {
  return { client: session.lease.connection.client, sessionId: session.sessionId };
}
