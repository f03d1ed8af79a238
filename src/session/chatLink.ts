/**
 * A chat's link to its agent: the state machine of connect, reconnect after a dropped connection, disconnect, restart
 * and the agent going away, with the session the next connection continues. Its steps run one at a time
 * (ChatLifecycle), so no race leaves a chat with two live sessions or a stale one. It writes what the session brings
 * into the chat's transcript and ends its turns; what else happened (attached, reconnected, ended) it emits.
 */
import type { Disposable } from '../shared/events';
import type { AgentList } from '../agents/agentList';
import { describeExit, errorMessage } from '../errorText';
import { AgentUnreachableError, type AgentExit, type WindowPort } from '../platform';
import type { ConnectionState } from '../shared/page/protocol';
import type { NoticeLevel } from '../shared/thread/thread';
import {
  endChatSession,
  openChatSession,
  type ChatSession,
  type SessionDeps,
  type SessionRequests,
} from './chatSession';
import { LinkEvents } from './linkEvents';
import { followIntoTranscript, liveSessionRequests, type LinkTranscript, type LinkTurns } from './linkPorts';
import { ChatLifecycle, connectFailure, retryOpen, type OpenOutcome } from './chatLifecycle';
import type { PermissionQueue } from './permissionQueue';
import type { PullAnswer } from '../connection/steering';
import type { ElicitationQueue } from './elicitationQueue';
import type { SessionRef } from './sessionOpen';

export type Link =
  | { state: 'disconnected' | 'failed' }
  | { state: 'connecting'; attempt: AbortController; reconnect?: true }
  | { state: 'connected'; session: ChatSession; subscriptions: Disposable[] };

export interface LinkDeps extends SessionDeps {
  readonly agentList: Pick<AgentList, 'name' | 'agents'>;
  readonly window: WindowPort;
}

export class ChatLink extends LinkEvents implements Disposable {
  private link: Link = { state: 'disconnected' };
  private readonly lifecycle = new ChatLifecycle();
  /** The session the transcript belongs to: the next connection to this agent continues it. */
  private earlier: SessionRef | undefined;
  /** Ends the late replay of a loaded session (see attach): a prompt was sent. */
  private replayEnded: () => void = () => undefined;
  /** The Connect under way: a prompt sent meanwhile waits for it (and its own turn). */
  private connecting: Promise<boolean> | undefined;
  private isClosed = false;
  /** What the agent asks the chat (permissions, questions, steered messages), answered for its live session only. */
  private readonly requests: SessionRequests;

  constructor(
    private readonly deps: LinkDeps,
    private readonly transcript: LinkTranscript,
    private readonly turns: LinkTurns,
    private readonly permissions: PermissionQueue,
    private readonly elicitations: ElicitationQueue,
    /** The agent asks for the messages steered into its running turn (steering.ts): those waiting, taken. */
    pullSteered: () => PullAnswer,
  ) {
    super();
    this.requests = liveSessionRequests(
      () => (this.link.state === 'connected' ? this.link.session : undefined),
      transcript,
      permissions,
      elicitations,
      pullSteered,
    );
  }

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
   * The agent session the chat's transcript belongs to (the next Connect continues it), once there is one; none while a
   * fork of another waits for the next Connect (the transcript is not that session's).
   */
  get sessionRef(): SessionRef | undefined {
    return this.earlier?.fork ? undefined : this.earlier;
  }

  /**
   * The session the next Connect continues (resume, else load, else a new session that says why), or forks (`fork`:
   * chat/rewindCut.ts); none: the next Connect starts a new one.
   */
  continueLater(session: SessionRef | undefined): void {
    this.earlier = session;
  }

  /** The user prompted: a loaded session's late replay is over. */
  endReplay(): void {
    this.replayEnded();
  }

  /**
   * Connects to `agentId`; resolves when connected (and `then`, the prompt that waited, is done), failed or abandoned.
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
   * Moves the chat to `next` (a fork of its session, or a new one when none: chat/rewindCut.ts). Connected, the next
   * session is opened on the same agent process before the one before ends (a process held by no other chat would end
   * between, and a fork is quicker from a live one); else it is what the next Connect opens. False when it could not be
   * opened: the chat is then disconnected, and the next Connect tries again.
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
          this.transcript.notice('error', `Could not open the new session: ${errorMessage(outcome.error)}`);
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
   * Restart: a new agent process (every other chat on the old one reconnects to it, continuing its session) and, unless
   * `continueSession`, a new session for this chat: the session before stays in the history.
   */
  async restart(agentId: string | undefined, continueSession: boolean): Promise<void> {
    await this.disconnect();
    if (agentId) this.deps.agents.end(agentId, { message: 'The agent was restarted.', lost: true });
    if (!continueSession && this.earlier) {
      this.earlier = undefined;
      this.transcript.notice(
        'info',
        "Agent restarted: a new session begins here, and the agent does not remember what is above. The session before is kept in this workspace's history.",
      );
    }
  }

  dispose(): void {
    this.isClosed = true;
    void this.detach(true);
    this.disposeEvents();
  }

  /**
   * One attempt to open (or continue) this chat's session on its agent. 'abandoned': cancelled (the user cancelled a
   * prompt for a token, say).
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
        this.requests,
        attempt.signal,
        earlier,
        // A transcript of notices alone (a saved one that could not be read) is not a conversation: a replay is shown.
        this.transcript.value.entries.some((e) => e.kind !== 'notice'),
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
    const { text, action } = connectFailure(this.deps.agentList, agentId, error);
    this.deps.log.error(text);
    this.transcript.notice('error', text, action);
    this.setLink({ state: 'failed' });
  }

  /**
   * The connection dropped (not the agent's own exit): reconnect with backoff and continue the session. Disconnect (or
   * Cancel) stops trying.
   */
  private reconnect(agentId: string, why: string): Promise<void> {
    const attempt = new AbortController();
    this.setLink({ state: 'connecting', attempt, reconnect: true });
    this.interrupt('warning', `${why} Reconnecting…`);
    return this.lifecycle.run(async () => {
      const outcome = await retryOpen(
        () => this.open(agentId, attempt),
        (error) => error instanceof AgentUnreachableError,
        attempt.signal,
        (error) => this.deps.log.warn(`Reconnecting failed: ${errorMessage(error)}`),
      );
      if (outcome === 'aborted') return;
      if (outcome === 'connected') return this._onDidReconnect.fire();
      if (outcome === 'abandoned') return this.setLink({ state: 'disconnected' });
      this.deps.log.error(`Reconnecting gave up: ${errorMessage(outcome.error)}`);
      this.transcript.notice(
        'error',
        `Could not reconnect: ${errorMessage(outcome.error)} Connect again to continue this session.`,
      );
      this.setLink({ state: 'failed' });
    });
  }

  /**
   * Ends the current link. An attempt that is not aborted was started after the Disconnect asked for this (Disconnect
   * aborts the one it finds): it stays, unless `all`.
   */
  private async detach(all: boolean): Promise<void> {
    const c = this.link;
    if (c.state === 'connecting' && !c.attempt.signal.aborted && !all) return;
    if (c.state === 'connecting') c.attempt.abort();
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    this.turns.cancel();
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
    this.transcript.sessionOpened(session.setup, continuation);
    if (session.mcpNotice) this.transcript.notice('warning', session.mcpNotice);
    if (session.rootsNotice) this.transcript.notice('info', session.rootsNotice);
    if (session.editorNotice) this.transcript.notice('info', session.editorNotice);
    const { subscriptions, endReplay } = followIntoTranscript(session, this.transcript, {
      updated: (update) => this._onDidUpdate.fire(update),
      gone: (exit) => this.onAgentGone(session, exit),
    });
    this.replayEnded = endReplay;
    this.setLink({ state: 'connected', session, subscriptions });
    this._onDidAttach.fire({ session, agentId });
  }

  private onAgentGone(session: ChatSession, exit: AgentExit): void {
    const c = this.link;
    if (c.state !== 'connected' || c.session !== session) return;
    c.subscriptions.forEach((s) => s.dispose());
    void session.terminals?.dispose();
    session.editor?.dispose();
    session.lease.release();
    const message = describeExit(exit);
    this.deps.log.error(`Agent connection ended: ${message}`);
    if (exit.lost && this.earlier) {
      void this.reconnect(this.earlier.agentId, message);
      return;
    }
    this.interrupt('error', `The agent stopped: ${message}`);
    this.setLink({ state: 'failed' });
  }

  /** Ends the running turn with `text`; without one, says it at `level`. */
  private interrupt(level: NoticeLevel, text: string): void {
    if (this.transcript.running) this.turns.fail(text);
    else this.transcript.notice(level, text);
  }

  private setLink(link: Link): void {
    this.link = link;
    if (link.state === 'disconnected' || link.state === 'failed') this._onDidEnd.fire();
    this._onDidChange.fire();
  }
}
