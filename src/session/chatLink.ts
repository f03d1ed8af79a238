/**
 * A chat's link to its agent: the state machine of connect, reconnect after
 * a dropped connection, disconnect, restart and the agent going away, with
 * the session the next connection continues. Its steps run one at a time
 * (ChatLifecycle), so no race leaves a chat with two live sessions or a stale
 * one. What the chat shows and sends is the chat's: the link tells it
 * through LinkHost.
 */
import { type Disposable, Emitter } from '../shared/events';
import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
} from '@agentclientprotocol/sdk';
import type { AgentList } from '../agents/agentList';
import { describeExit, errorMessage } from '../errorText';
import { AgentUnreachableError, type AgentExit, type WindowPort } from '../platform';
import type { ConnectionState } from '../shared/protocol';
import { keptFromReplay } from '../shared/updateKinds';
import type { NoticeAction, NoticeLevel, ToolEntry } from '../shared/thread';
import {
  endChatSession,
  followSession,
  openChatSession,
  type ChatSession,
  type SessionDeps,
  type SessionListener,
} from './chatSession';
import { ChatLifecycle, retryOpen, type OpenOutcome } from './chatLifecycle';
import type { PermissionQueue } from './permissionQueue';
import type { PullAnswer } from '../connection/steering';
import type { ElicitationQueue } from './elicitationQueue';
import type { EarlierSession } from './sessionOpen';

export type Link =
  | { state: 'disconnected' | 'failed' }
  | { state: 'connecting'; attempt: AbortController; reconnect?: true }
  | { state: 'connected'; session: ChatSession; subscriptions: Disposable[] };

/** An agent's session, and the folder it runs in. */
export type SessionRef = EarlierSession & { agentId: string };

/** What the link asks of its chat. */
export interface LinkHost {
  /** Whether the chat shows a transcript (a session to continue rather than start). */
  onScreen(): boolean;
  /**
   * Whether it shows a conversation, not only notices (a saved transcript that could not be read): where it does
   * not, a loaded session's replay is shown.
   */
  showsConversation(): boolean;
  notice(level: NoticeLevel, text: string, action?: NoticeAction): void;
  /** The agent's own warning (a malformed message, say). */
  warn(text: string): void;
  /** Ends the running turn with `text`; without one, says it at `level`. */
  interrupt(level: NoticeLevel, text: string): void;
  /** Stops the running turn without a word (the chat disconnected). */
  cancelTurn(): void;
  /** A session was opened (or continued) on the agent; its updates follow. */
  opened(session: ChatSession): void;
  /** The link is up on that session. */
  attached(session: ChatSession, agentId: string): void;
  /** An update of the live session (a loaded session's late replay left out). */
  update(update: SessionUpdate): void;
  terminal(
    terminalId: string,
    change: { data: string } | { exit: Parameters<SessionListener['terminalExit']>[1] },
  ): void;
  /** The title of tool call `toolCallId` as the chat shows it, when it has one (an elicitation about it). */
  toolTitle(toolCallId: string): string | undefined;
  /** The tool call a permission request is about, as the chat shows it (`show` false: not shown). */
  permissionAsked(toolCall: RequestPermissionRequest['toolCall'], show: boolean): ToolEntry | undefined;
  /** The agent asks for the messages steered into its running turn (steering.ts): those waiting, taken. */
  pullSteered(): PullAnswer;
  /** The link changed. */
  changed(): void;
  /** No connection is coming: what waited for one goes back to the user. */
  ended(): void;
  /** Connected again after a dropped connection: what waited is sent. */
  reconnected(): Promise<void>;
  /** Connecting to `agentId`: the chat's agent from now on. */
  pin(agentId: string): void;
}

export interface LinkDeps extends SessionDeps {
  readonly agentList: Pick<AgentList, 'name' | 'agents'>;
  readonly window: WindowPort;
}

export class ChatLink implements Disposable {
  private readonly _onDidReplaceSession = new Emitter<{ before: SessionRef; after: SessionRef }>();
  /** The agent could not continue the chat's session and started a new one in its place (the history's entry follows). */
  readonly onDidReplaceSession = this._onDidReplaceSession.event;
  private link: Link = { state: 'disconnected' };
  private readonly lifecycle = new ChatLifecycle();
  /** The session the transcript belongs to: the next connection to this agent continues it. */
  private earlier: SessionRef | undefined;
  /** Ends the late replay of a loaded session (see attach): a prompt was sent. */
  private replayEnded: () => void = () => undefined;
  /** The Connect under way: a prompt sent meanwhile waits for it (and its own turn). */
  private connecting: Promise<boolean> | undefined;
  private isClosed = false;

  constructor(
    private readonly deps: LinkDeps,
    private readonly host: LinkHost,
    private readonly permissions: PermissionQueue,
    private readonly elicitations: ElicitationQueue,
  ) {}

  /** The chat was closed (or disposed): nothing more is started or sent. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** The link as it is: compare with `===` to tell whether it changed across an await. */
  get current(): Link {
    return this.link;
  }

  get connection(): ConnectionState {
    const c = this.link;
    return c.state === 'connecting' && c.reconnect ? 'reconnecting' : c.state;
  }

  /** The agent connection the chat's session runs on, while connected. */
  get liveConnection(): ChatSession['lease']['connection'] | undefined {
    return this.link.state === 'connected' ? this.link.session.lease.connection : undefined;
  }

  /**
   * The agent session the chat's transcript belongs to (the next Connect continues it), once there is one; none while
   * a fork of another waits for the next Connect (the transcript is not that session's).
   */
  get session(): SessionRef | undefined {
    return this.earlier?.fork ? undefined : this.earlier;
  }

  /**
   * The session the next Connect continues (resume, else load, else a new session that says why), or forks
   * (`fork`: chat/rewind.ts); none: the next Connect starts a new one.
   */
  continueLater(session: SessionRef | undefined): void {
    this.earlier = session;
  }

  /** The user prompted: a loaded session's late replay is over. */
  endReplay(): void {
    this.replayEnded();
  }

  /**
   * Connects to `agentId`; resolves when connected (and `then`, the prompt
   * that waited, is done), failed or abandoned.
   */
  connect(agentId: string | undefined, then: () => Promise<void>): Promise<boolean> {
    if (this.link.state === 'connected') return Promise.resolve(true);
    // An attempt being given up (Disconnect, another agent picked) is not this one.
    if (this.link.state === 'connecting' && !this.link.attempt.signal.aborted) {
      return this.connecting ?? Promise.resolve(false);
    }
    if (!agentId) {
      this.deps.window.showError(
        'No ACP agent is available. Install one, or add one in the vscode-acp.agents setting.',
      );
      return Promise.resolve(false);
    }
    const attempt = new AbortController();
    this.setLink({ state: 'connecting', attempt });
    const connected = this.lifecycle.run(async () => {
      if (attempt.signal.aborted || this.isClosed) return false;
      this.host.pin(agentId);
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
        if (ok) await then();
        return ok;
      })
      .finally(() => {
        if (this.connecting === call) this.connecting = undefined;
      });
    this.connecting = call;
    return call;
  }

  /**
   * Moves the chat to `next` (a fork of its session, or a new one when none: chat/rewind.ts). Connected, the next
   * session is opened on the same agent process before the one before ends (a process held by no other chat would
   * end between, and a fork is quicker from a live one); else it is what the next Connect opens. False when it could
   * not be opened: the chat is then disconnected, and the next Connect tries again.
   */
  async moveTo(agentId: string, next: SessionRef | undefined): Promise<boolean> {
    const before = this.link;
    if (before.state !== 'connected') {
      await this.disconnect();
      this.earlier = next;
      return true;
    }
    return this.lifecycle.run(async () => {
      this.earlier = next;
      const outcome = await this.open(agentId, new AbortController());
      if (outcome !== 'connected') {
        if (outcome !== 'abandoned') {
          this.host.notice('error', `Could not open the new session: ${errorMessage(outcome.error)}`);
        }
        await this.detach(true);
        this.earlier = next;
        return false;
      }
      before.subscriptions.forEach((s) => s.dispose());
      await endChatSession(before.session);
      return true;
    });
  }

  /** Ends this chat's session (its permissions, its commands); the agent process stays while other chats use it. */
  disconnect(): Promise<void> {
    // An attempt under way stops at once, not after it would have finished.
    const c = this.link;
    if (c.state === 'connecting') c.attempt.abort();
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    return this.lifecycle.run(() => this.detach(false));
  }

  /**
   * Restart: a new agent process (every other chat on the old one reconnects
   * to it, continuing its session) and, unless `continueSession`, a new
   * session for this chat: the session before stays in the history.
   */
  async restart(agentId: string | undefined, continueSession: boolean): Promise<void> {
    await this.disconnect();
    if (agentId) this.deps.agents.end(agentId, { message: 'The agent was restarted.', lost: true });
    if (!continueSession && this.earlier) {
      this.earlier = undefined;
      this.host.notice(
        'info',
        "Agent restarted: a new session begins here, and the agent does not remember what is above. The session before is kept in this workspace's history.",
      );
    }
  }

  dispose(): void {
    this.isClosed = true;
    void this.detach(true);
    this._onDidReplaceSession.dispose();
  }

  /**
   * One attempt to open (or continue) this chat's session on its agent.
   * 'abandoned': cancelled (the user cancelled a prompt for a token, say).
   */
  private async open(agentId: string, attempt: AbortController): Promise<OpenOutcome> {
    // Continue the session on screen, if it is this agent's and there is something to continue
    // (or the user asked for it by name: a listed session, loaded with its history).
    const onScreen = this.host.onScreen();
    const earlier = this.earlier?.agentId === agentId && (onScreen || this.earlier.how) ? this.earlier : undefined;
    try {
      const session = await openChatSession(
        this.deps,
        agentId,
        this.permissions,
        {
          requestPermission: (p, s) => this.onPermissionRequest(p, s),
          elicit: (p, s) => this.onElicitation(p, s),
          elicitationDone: (id) => this.elicitations.complete(id),
          pullSteered: () => this.host.pullSteered(),
        },
        attempt.signal,
        earlier,
        this.host.showsConversation(),
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
    this.host.notice(
      'error',
      `Could not connect to ${name}: ${errorMessage(error)}`,
      this.failureAction(agentId, error),
    );
    this.setLink({ state: 'failed' });
  }

  /**
   * What the error of a failed connect offers: an agent the host cannot find, its install (or its setting, for one with
   * no installer); a bridge that did not answer, another try; an agent that started and failed, its setting (its
   * command, arguments and environment are where such a failure is fixed).
   */
  private failureAction(agentId: string, error: unknown): NoticeAction {
    if (error instanceof AgentUnreachableError) return 'retry';
    const agent = this.deps.agentList.agents.find((a) => a.id === agentId);
    return agent && !agent.available && agent.install ? 'install' : 'openSettings';
  }

  /**
   * The connection dropped (not the agent's own exit): reconnect with backoff
   * and continue the session. Disconnect (or Cancel) stops trying.
   */
  private reconnect(agentId: string, why: string): Promise<void> {
    const attempt = new AbortController();
    this.setLink({ state: 'connecting', attempt, reconnect: true });
    this.host.interrupt('warning', `${why} Reconnecting…`);
    return this.lifecycle.run(async () => {
      const outcome = await retryOpen(
        () => this.open(agentId, attempt),
        (error) => error instanceof AgentUnreachableError,
        attempt.signal,
        (error) => this.deps.log.warn(`Reconnecting failed: ${errorMessage(error)}`),
      );
      if (outcome === 'aborted') return;
      if (outcome === 'connected') return void this.host.reconnected();
      if (outcome === 'abandoned') return this.setLink({ state: 'disconnected' });
      this.deps.log.error(`Reconnecting gave up: ${errorMessage(outcome.error)}`);
      this.host.notice(
        'error',
        `Could not reconnect: ${errorMessage(outcome.error)} Connect again to continue this session.`,
      );
      this.setLink({ state: 'failed' });
    });
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
    this.elicitations.cancelAll();
    this.host.cancelTurn();
    if (c.state !== 'disconnected' && c.state !== 'failed') this.setLink({ state: 'disconnected' });
    if (c.state === 'connected') {
      c.subscriptions.forEach((s) => s.dispose());
      await endChatSession(c.session);
    }
  }

  private attach(session: ChatSession, agentId: string): void {
    // Without `how`: a later reconnect continues it whichever way the agent can.
    const before = this.earlier;
    this.earlier = { agentId, sessionId: session.sessionId, cwd: session.cwd };
    const continuation = session.continuation;
    if (before && continuation?.how === 'new') this._onDidReplaceSession.fire({ before, after: this.earlier });
    // Before subscribing: that replays buffered updates (commands sent before the session/new answer), which land on top.
    this.host.opened(session);
    // A loaded session's replay can go on after the load's answer (Gemini CLI sends nearly all of
    // it then): until the next prompt, only its state updates apply; the transcript is on screen.
    let replaying = continuation?.how === 'loaded' && !continuation.replayShown;
    this.replayEnded = () => (replaying = false);
    const subscriptions = followSession(session, {
      update: (update) => {
        if (!replaying || keptFromReplay(update.sessionUpdate)) this.host.update(update);
      },
      gone: (exit) => this.onAgentGone(session, exit),
      warn: (text) => this.host.warn(text),
      terminalOutput: (terminalId, data) => this.host.terminal(terminalId, { data }),
      terminalExit: (terminalId, exit) => this.host.terminal(terminalId, { exit }),
    });
    this.setLink({ state: 'connected', session, subscriptions });
    this.host.attached(session, agentId);
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
    this.host.interrupt('error', `The agent stopped: ${message}`);
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
    const known = this.host.permissionAsked(params.toolCall, !this.permissions.full);
    const connection = c.session.lease.connection;
    return this.permissions.request(params, known, signal, (path) => connection.fileNow(path));
  }

  private onElicitation(params: CreateElicitationRequest, signal: AbortSignal): Promise<CreateElicitationResponse> {
    const c = this.link;
    const sessionId = (params as { sessionId?: unknown }).sessionId;
    // Only this chat's live session may ask here (the connection routes by session id).
    if (c.state !== 'connected' || sessionId !== c.session.sessionId) return Promise.resolve({ action: 'cancel' });
    const toolCallId = (params as { toolCallId?: unknown }).toolCallId;
    const toolTitle = typeof toolCallId === 'string' ? this.host.toolTitle(toolCallId) : undefined;
    return this.elicitations.request(params, toolTitle, signal);
  }

  private setLink(link: Link): void {
    this.link = link;
    if (link.state === 'disconnected' || link.state === 'failed') this.host.ended();
    this.host.changed();
  }
}
