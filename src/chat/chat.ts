/**
 * One chat: its thread, agent, composer and turns, controls, permission
 * prompts and Changes bar, on one ACP session at a time. The link to the
 * agent (connect, reconnect, disconnect, restart, the agent going away) is
 * session/chatLink.ts; the agent process is shared with other chats of the
 * same agent (agentConnections.ts).
 */
import { type Disposable, Emitter } from '../shared/events';
import type { ConnectionState } from '../shared/page/protocol';
import type { Entry, NoticeAction, Thread } from '../shared/thread/thread';
import { errorMessage } from '../errorText';
import type { PrepareAttachment } from '../attachments/prepareAttachment';
import { ChatComposer, turnTarget } from './composer/chatComposer';
import type { ChatChanges } from '../changes/chatChanges';
import { FollowAgent } from './followAgent';
import { savedEntryId, type SavedChanges } from '../shared/saved/savedSessions';
import type { AgentList } from '../agents/agentList';
import type { ChatSession } from '../session/chatSession';
import { ChatLink, type LinkDeps } from '../session/chatLink';
import type { SessionRef } from '../session/sessionOpen';
import { ChatTranscript } from './chatTranscript';
import { ChatTurns } from './chatTurns';
import { ChatControls } from './chatControls';
import type { RememberedControls, ControlChange } from './rememberedControls';
import { PermissionQueue } from '../session/permissionQueue';
import { ElicitationQueue } from '../session/elicitationQueue';
import type { Archive, SavedTitle } from './chatTranscript';
import { renameChat, titleToAgent, type Renamed } from './chatTitle';
import type { Cut } from './rewindCut';
import type { WorkPlace } from '../platform';
import { allRoots } from '../connection/workRoots';
import { ChatRewind } from './chatRewind';

export interface ChatDeps extends LinkDeps {
  readonly agentList: AgentList;
  readonly choices: RememberedControls;
  /** Reads what an attachment is now (attachments/prepareAttachment.ts, with the host's file access). */
  readonly prepareAttachment: PrepareAttachment;
  /** A chat's Changes bar, where the host keeps checkpoints (changes/chatChanges.ts). */
  readonly changesBar?: (say: (level: 'info' | 'warning', text: string) => void) => ChatChanges;
}

export class Chat implements Disposable {
  private readonly _onDidChange = new Emitter<void>();
  /** Fires after any change of thread or status; views batch. */
  readonly onDidChange = this._onDidChange.event;
  private readonly transcript: ChatTranscript;
  private readonly link: ChatLink;
  readonly controls: ChatControls;
  /** The agent picked for this chat; until then, the one picked last anywhere. */
  private chosenAgent: string | undefined;
  /** Permission requests waiting for the user: this chat's session's only. */
  readonly permissions = new PermissionQueue();
  /** Questions the agent asks the user (`elicitation/create`): this chat's session's only. */
  readonly elicitations: ElicitationQueue;
  /** The prompt being written, its attachments, the prompt waiting for a connection and the queue behind a turn. */
  readonly composer: ChatComposer;
  private readonly turns: ChatTurns;
  /** The Changes bar: what the agent changed since the user last kept it (where the host has checkpoints). */
  readonly changes: ChatChanges | undefined;
  /** Opens the current tool call's location while a turn runs, when the user turned it on. */
  readonly follow: FollowAgent;
  /** Edit, Retry and Branch: the conversation cut at a prompt, and the agent's session following it. */
  readonly rewind: ChatRewind;

  constructor(
    /** Unique in this window; also the prefix of this chat's entry ids. */
    readonly id: string,
    private readonly deps: ChatDeps,
    /** Keeps the transcript within its bound in memory, and what leaves it. */
    archive: Archive,
    /** The agent to talk to; none: whichever is picked when this chat connects. */
    agentId?: string,
    /** The chat's own worktree, where its agent works (issue 49); none: the workspace. */
    readonly place?: WorkPlace,
  ) {
    this.chosenAgent = agentId;
    this.transcript = new ChatTranscript(id, archive, () => this._onDidChange.fire());
    this.turns = new ChatTurns(this.transcript);
    this.permissions.onDidChange(() => this._onDidChange.fire());
    this.permissions.onDidSay(({ level, text }) => this.transcript.notice(level, text));
    this.permissions.onDidReadOldTexts((tool) =>
      this.transcript.dispatch({ type: 'oldTextsRead', toolCallId: tool.toolCallId, content: tool.content }),
    );
    this.elicitations = new ElicitationQueue((url) => deps.window.openExternal(url));
    this.elicitations.onDidChange(() => this._onDidChange.fire());
    this.elicitations.onDidSay(({ level, text }) => this.transcript.notice(level, text));
    this.follow = new FollowAgent(deps.platform, deps.window, deps.log);
    this.link = new ChatLink(deps, this.transcript, this.turns, this.permissions, this.elicitations, () =>
      this.composer.pullSteered(),
    );
    this.link.onDidChange(() => this._onDidChange.fire());
    this.link.onDidUpdate((update) => this.turnRunning() && this.follow.onUpdate(update));
    this.link.onDidAttach(({ session, agentId }) => {
      this.controls.restore(session, agentId);
      this.rewind.landed(session);
      titleToAgent({ link: this.link, transcript: this.transcript });
      // The first pass copies every file once (a new worktree's too): taken now, the first prompt does not wait.
      const { connection } = session.lease;
      if (connection.offered.checkpoints) this.deps.platform.checkpoints?.warmUp(allRoots(connection.roots));
    });
    // No connection is coming for a pending prompt: its text goes back to the composer.
    this.link.onDidEnd(() => this.composer.giveBackPending());
    this.link.onDidReconnect(() => void this.composer.sendPending());
    this.controls = new ChatControls(deps.choices, this.link, this.transcript, deps.log);
    this.changes = deps.changesBar?.((level, text) => this.transcript.notice(level, text));
    this.changes?.onDidChange(() => this._onDidChange.fire());
    this.composer = new ChatComposer(
      {
        link: this.link,
        transcript: this.transcript,
        turns: this.turns,
        changes: this.changes,
        restoring: () => this.controls.ready,
        closed: () => this.link.closed,
        connect: () => this.connect(),
        stop: () => this.stop(),
        changed: () => this._onDidChange.fire(),
      },
      (source, roots) => deps.prepareAttachment(source, roots, this.place),
    );
    this.rewind = new ChatRewind({
      id,
      link: this.link,
      transcript: this.transcript,
      composer: this.composer,
      changes: this.changes,
      agentId: () => this.agentId,
      turnRunning: () => this.turnRunning(),
    });
  }

  get thread(): Thread {
    return this.transcript.value;
  }

  /** The agent session this chat's transcript belongs to (the next Connect continues it), once there is one. */
  get sessionRef(): SessionRef | undefined {
    return this.link.sessionRef;
  }

  /** The agent could not continue the chat's session and started a new one in its place (the history's entry follows). */
  get onDidReplaceSession(): ChatLink['onDidReplaceSession'] {
    return this.link.onDidReplaceSession;
  }

  /** Shows a saved transcript; its session is the one the next Connect continues (resume, else load, else anew). */
  restore(
    entries: readonly Entry[],
    terminals: Thread['terminals'],
    session: SessionRef,
    saved?: { readonly title?: SavedTitle; readonly changes?: SavedChanges },
  ): void {
    if (this.link.current.state !== 'disconnected' || this.thread.entries.length > 0) return;
    this.chosenAgent = session.agentId;
    this.link.continueLater(session);
    this.transcript.seed(entries, terminals, saved?.title);
    const changes = saved?.changes;
    if (changes) void this.changes?.load(changes, (index) => savedEntryId(this.id, index));
  }

  get agentId(): string | undefined {
    return this.chosenAgent ?? this.deps.agentList.selectedId;
  }

  /** The agent connection the chat's session runs on, while connected. */
  get liveConnection(): ChatSession['lease']['connection'] | undefined {
    return this.link.liveConnection;
  }

  get connection(): ConnectionState {
    return this.link.connection;
  }

  /** How the last turn ended: finished by the agent, stopped, or failed (none yet). */
  get lastTurnEnd(): ChatTurns['lastEnd'] {
    return this.turns.lastEnd;
  }

  /** The user's or the agent's title for the session, else the start of the first prompt, else nothing yet. */
  get title(): string | undefined {
    return this.transcript.title;
  }

  /** The agents this chat can talk to (the picker's list). */
  get agents(): AgentList['agents'] {
    return this.deps.agentList.agents;
  }

  /**
   * Another agent for this chat, in place: a different conversation partner, so the old session ends, and what the
   * transcript held goes with it (the old agent's errors are not the new one's). Chats.selectAgent gives a chat that has
   * a conversation a new chat instead.
   */
  selectAgent(agentId: string): void {
    if (agentId === this.agentId || !this.deps.agentList.agents.some((a) => a.id === agentId)) return;
    void this.disconnect();
    if (!this.turnRunning()) this.transcript.clear();
    // At once: a Connect right after this is for the new agent (it runs after the disconnect).
    this.chosenAgent = agentId;
    this.deps.agentList.select(agentId);
    this._onDidChange.fire();
  }

  /** The unsent text in the chat's box, as the page last said (kept so that a window reload brings it back). */
  draft = '';

  /** Puts `text` back in the chat's box, as its draft (a chat reopened after a window reload). */
  handBackDraft(text: string): void {
    this.draft = text;
    this.composer.handBack(text);
  }

  /** Whether anything was said or done here (a prompt, an answer, a tool call): notices alone are not a conversation. */
  get hasConversation(): boolean {
    return this.thread.entries.some((e) => e.kind !== 'notice') || this.turnRunning();
  }

  /** Connects the chat's agent; resolves when connected (and a pending prompt's turn is over), failed or abandoned. */
  connect(): Promise<boolean> {
    // The agent this chat talks to from now on, whatever is picked elsewhere later.
    this.chosenAgent ??= this.agentId;
    return this.link.connect(this.agentId, () => this.composer.sendPending());
  }

  /** Ends this chat's session (its permissions, its commands); the agent process stays while other chats use it. */
  disconnect(): Promise<void> {
    return this.link.disconnect();
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
    await this.link.restart(this.agentId, options.continueSession === true);
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

  /** This chat as a branch of another's conversation (Chats.branch; see ChatRewind). */
  startBranch(cut: Cut, terminals: Thread['terminals'], from: SessionRef | undefined, title: string | undefined): void {
    if (this.link.current.state !== 'disconnected' || this.thread.entries.length > 0) return;
    this.chosenAgent = from?.agentId ?? this.chosenAgent;
    this.rewind.startBranch(cut, terminals, from, title);
  }

  /** Rename: the user names the chat (see chatTitle.ts); Chats.rename also tells the history. */
  rename(title: string): Promise<Renamed> {
    return renameChat({ link: this.link, transcript: this.transcript }, title);
  }

  /** Stop: cancels the running turn (see ChatTurns.stop); its pending permission requests are answered first (ACP). */
  stop(): void {
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    const c = this.link.current;
    if (c.state === 'connected') this.turns.stop(turnTarget(c.session));
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
    const c = this.link.current;
    if (c.state === 'connected') c.session.terminals?.revokeGrants();
  }

  /** A config option, mode or model picked in the view: sent to the agent, then remembered for this agent. */
  changeControl(change: ControlChange): Promise<void> {
    return this.controls.change(change);
  }

  /** Follow the agent on or off (this chat only). */
  setFollow(on: boolean): void {
    if (!this.follow.offered) return;
    this.follow.enabled = on;
    this._onDidChange.fire();
  }

  /** A line from the extension itself in this chat (an install's outcome, say). */
  say(level: 'info' | 'warning' | 'error', text: string, action?: NoticeAction): void {
    this.transcript.notice(level, text, action);
  }

  /** Opens the entries that a long chat moved out of memory. */
  openEarlier(): Promise<void> {
    return this.transcript.openEarlier();
  }

  /** Closing the chat: its session ends (`session/close` where advertised), then nothing more happens here. */
  async close(): Promise<void> {
    this.stop();
    await this.disconnect();
    this.dispose();
  }

  dispose(): void {
    this.turns.end();
    this.link.dispose();
    this.permissions.dispose();
    this.elicitations.dispose();
    this.composer.dispose();
    this.changes?.dispose();
    this.follow.dispose();
    this.transcript.dispose();
    this._onDidChange.dispose();
  }

  /** A method, not a field read, so that TypeScript does not keep an old narrowing across awaits. */
  private turnRunning(): boolean {
    return this.transcript.running;
  }
}
