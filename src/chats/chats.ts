/**
 * The open chats and which one the chat view shows. A chat that is not shown
 * keeps running (streaming, asking permission) and only its line in the list
 * changes: it does no webview work until it is shown.
 */
import { type Disposable, Emitter } from '../shared/events';
import { wantsUser, type ChatSummary } from '../shared/page/protocol';
import type { HistoryEntry, SavedTranscript } from '../shared/saved/savedSessions';
import { restrictedModeText } from '../capabilities';
import { Chat, type ChatDeps } from '../chat/chat';
import { ChatAttention, toldApart } from './chatAttention';
import type { Renamed } from '../chat/chatTitle';
import type { Archive } from '../chat/chatTranscript';
import { cutAfterTurn } from '../chat/rewindCut';
import { watchChat, type HistoryEvent, type NeedUser } from './chatEvents';
import { branchTitle, isBlank, placeText, showSaved, trustedNow } from './chatStarts';
import type { AgentConnections } from '../connection/agentConnections';
import type { WorkPlace } from '../platform';

export class Chats implements Disposable {
  private readonly _onDidChangeShown = new Emitter<void>();
  /** The shown chat changed, or changed which chat it is. */
  readonly onDidChangeShown = this._onDidChangeShown.event;
  private readonly _onDidChangeList = new Emitter<void>();
  /** A chat came, went, or changed its line in the list (title, marker). */
  readonly onDidChangeList = this._onDidChangeList.event;
  private readonly _onDidChangeAgents = new Emitter<void>();
  /** The agent list was read again (settings, PATH, an install). */
  readonly onDidChangeAgents = this._onDidChangeAgents.event;
  private readonly _onDidChangeChat = new Emitter<Chat>();
  /** Any change of any chat (editor tabs show one chat each). */
  readonly onDidChangeChat = this._onDidChangeChat.event;
  private readonly _onDidNeedUser = new Emitter<{ readonly chat: Chat; readonly why: NeedUser }>();
  /** A chat finished or failed a turn, or asks for permission or asks a question (views/chatNotifier.ts). */
  readonly onDidNeedUser = this._onDidNeedUser.event;
  private readonly _onDidChangeDraft = new Emitter<Chat>();
  /** A chat's unsent text changed (what a window reload brings back, history/openChats.ts). */
  readonly onDidChangeDraft = this._onDidChangeDraft.event;
  private readonly _onDidChangeHistory = new Emitter<HistoryEvent>();
  /** What the workspace's history saves (see HistoryEvent). */
  readonly onDidChangeHistory = this._onDidChangeHistory.event;
  private readonly open: Chat[] = [];
  private readonly subscriptions = new Map<Chat, Disposable>();
  private shownChat: Chat;
  /** Each chat's marker and line in the list. */
  private readonly attention: ChatAttention;
  private nextId = 0;

  constructor(
    private readonly deps: ChatDeps & { readonly agents: AgentConnections },
    private readonly makeArchive: () => Archive,
    /** Chat ids used before (in this window before a reload): new chats are numbered after them. */
    idsUsed = 0,
  ) {
    this.nextId = idsUsed;
    this.attention = new ChatAttention((agentId) => deps.agentList.name(agentId));
    this.shownChat = this.create();
  }

  /** How many chat ids were given out: a window reloaded numbers its chats after them (see reopen). */
  get idsUsed(): number {
    return this.nextId;
  }

  get shown(): Chat {
    return this.shownChat;
  }

  get all(): readonly Chat[] {
    return this.open;
  }

  get(chatId: string): Chat | undefined {
    return this.open.find((c) => c.id === chatId);
  }

  /**
   * A new chat, shown. It talks to the same agent as the chat shown before,
   * and connects at once if that one was connected (the process is shared, so
   * this costs one `session/new`). An empty, idle chat it replaces is closed.
   */
  newChat(): Chat {
    const before = this.shownChat;
    return this.createShown(before.agentId, before.connection === 'connected');
  }

  /** A new chat, shown and connecting, whose agent (`agentId`, or the shown chat's) works in `place` (a worktree) or the workspace. */
  newChatAt(place: WorkPlace | undefined, agentId = this.shownChat.agentId): Chat {
    const chat = this.createShown(agentId, true, place);
    if (place) chat.say('info', placeText(place));
    return chat;
  }

  /** The worktree a saved session at `cwd` worked in, while it is kept. */
  private placeAt(cwd: string | undefined): WorkPlace | undefined {
    return cwd === undefined ? undefined : this.deps.platform.worktreeAt?.(cwd);
  }

  /**
   * Another agent picked for `chat`. A chat with a conversation keeps it, and its agent: the new agent has not seen it,
   * so it gets a new chat, shown (as picking another agent starts a new thread in Zed), and the old chat stays open in
   * the list. A chat without one changes agent in place.
   */
  selectAgent(chat: Chat, agentId: string): void {
    const agent = this.deps.agentList.agents.find((a) => a.id === agentId);
    if (!agent || agentId === chat.agentId) return;
    if (!chat.hasConversation) return chat.selectAgent(agentId);
    const before = chat.agentId ? this.deps.agentList.name(chat.agentId) : 'the other agent';
    this.deps.agentList.select(agentId);
    const fresh = this.createShown(agentId);
    fresh.say(
      'info',
      `A new chat with ${agent.name}: it has not seen your chat with ${before}, which stays open in the chat list.`,
    );
  }

  /** What the page says is in `chat`'s box, unsent. */
  keepDraft(chat: Chat, text: string): void {
    if (chat.draft === text) return;
    chat.draft = text;
    this._onDidChangeDraft.fire(chat);
  }

  show(chatId: string): void {
    const chat = this.get(chatId);
    if (!chat || chat === this.shownChat) return;
    this.shownChat = chat;
    this.attention.seen(chat);
    this._onDidChangeShown.fire();
    this._onDidChangeList.fire();
  }

  /**
   * Opens a saved session (`saved`: its transcript, or why it could not be
   * read): the chat that has it, else a new chat showing the transcript at
   * once; the first Connect (or prompt) continues it (`how`: only that way).
   */
  openSaved(entry: HistoryEntry, saved: SavedTranscript | { error: string }, how?: 'load' | 'resume'): Chat {
    const open = this.showChatOn(entry.agentId, entry.sessionId);
    if (open) return open;
    const chat = this.createShown(entry.agentId, false, this.placeAt(entry.cwd));
    showSaved(chat, entry, saved, how);
    // Opened is used: it moves to the top of the history.
    this._onDidChangeHistory.fire({ kind: 'used', chat, title: entry.title });
    return chat;
  }

  /**
   * Branch from here: a new chat, shown, that holds `source`'s conversation up to the end of prompt `entryId`'s turn
   * and goes on from there (Chat.startBranch); `source` is unchanged. Undefined when that is not one of its prompts.
   */
  branch(source: Chat, entryId: string): Chat | undefined {
    const cut = cutAfterTurn(source.thread.entries, entryId);
    if (!cut) return undefined;
    const chat = this.createShown(source.agentId);
    chat.startBranch(cut, source.thread.terminals, source.sessionRef, branchTitle(source.title));
    return chat;
  }

  /**
   * The chats that were open before the window reloaded, back under their ids (the page keeps each one's unsent text
   * under it) with their saved transcripts, not connected: the first Connect or prompt continues each session. Not a
   * use: the history keeps its order. `shownId` is shown again, and the blank chat the window started with goes.
   */
  reopen(
    reopened: ReadonlyArray<{
      chatId: string;
      entry: HistoryEntry;
      saved: SavedTranscript | { error: string };
      draft?: string;
    }>,
    shownId: string | undefined,
  ): void {
    const blank = this.shownChat;
    for (const { chatId, entry, saved, draft } of reopened) {
      if (this.get(chatId) || this.chatOn(entry.agentId, entry.sessionId)) continue;
      const chat = this.create(entry.agentId, chatId, this.placeAt(entry.cwd));
      showSaved(chat, entry, saved);
      if (draft) chat.handBackDraft(draft);
    }
    const shown = (shownId && this.get(shownId)) || this.open.find((c) => c !== blank);
    if (!shown || blank !== this.shownChat) return this._onDidChangeList.fire();
    this.show(shown.id);
    if (isBlank(blank)) void this.close(blank.id);
  }

  /**
   * Opens a session the agent listed and this workspace has not saved: a new
   * chat that connects at once, loading it with its history (or resuming it
   * without, as `how` says).
   */
  openListed(
    agentId: string,
    listed: { sessionId: string; cwd: string; title?: string },
    how: 'load' | 'resume',
  ): Chat {
    const open = this.showChatOn(agentId, listed.sessionId);
    if (open) return open;
    const chat = this.createShown(agentId);
    const session = { agentId, sessionId: listed.sessionId, cwd: listed.cwd };
    chat.restore([], {}, { ...session, how });
    // Opened, it is this workspace's too: saved with what the load replayed.
    void chat.connect().then((connected) => {
      // Under the session the chat has now: a new one if the agent could not continue the listed one.
      if (connected && chat.sessionRef) {
        this._onDidChangeHistory.fire({ kind: 'used', chat, title: chat.title ?? listed.title });
      }
    });
    return chat;
  }

  /**
   * Rename: the user names `chat` (see chat/chatTitle.ts); its line in the list and its saved entry follow.
   * Resolves once the agent stored the name too, where it stores titles.
   */
  async rename(chat: Chat, title: string): Promise<Renamed> {
    const renamed = await chat.rename(title);
    const named = chat.title;
    if (renamed && named) this._onDidChangeHistory.fire({ kind: 'renamed', chat, title: named });
    return renamed;
  }

  /** The open chat on that agent session, shown; undefined if none. */
  showChatOn(agentId: string, sessionId: string): Chat | undefined {
    const open = this.chatOn(agentId, sessionId);
    if (open) this.show(open.id);
    return open;
  }

  /** The open chat on that agent session, if any. */
  chatOn(agentId: string, sessionId: string): Chat | undefined {
    return this.open.find((c) => c.sessionRef?.agentId === agentId && c.sessionRef.sessionId === sessionId);
  }

  /** A new chat, shown (and connecting, with `connect`); a blank one it replaces is closed. */
  private createShown(agentId: string | undefined, connect = false, place?: WorkPlace): Chat {
    const before = this.shownChat;
    const chat = this.create(agentId, undefined, place);
    this.show(chat.id);
    if (connect) void chat.connect();
    if (isBlank(before)) void this.close(before.id);
    return chat;
  }

  /** Ends a chat's session and drops it; the view shows a neighbour (or a new chat, if it was the last). */
  async close(chatId: string): Promise<void> {
    const chat = this.get(chatId);
    if (!chat) return;
    const index = this.open.indexOf(chat);
    this.open.splice(index, 1);
    this.subscriptions.get(chat)?.dispose();
    this.subscriptions.delete(chat);
    this.attention.closed(chat);
    if (chat === this.shownChat) {
      this.shownChat = this.open[Math.min(index, this.open.length - 1)] ?? this.create(chat.agentId);
      this._onDidChangeShown.fire();
    }
    this._onDidChangeList.fire();
    await chat.close();
  }

  /** Re-reads the agent list (settings, PATH, bridge) without blocking activation. */
  async refreshAgents(): Promise<void> {
    await this.deps.agentList.refresh();
    this.agentsChanged();
  }

  /** The user trusted the folder: connected chats say how their agents get what they were not offered (trustedNow). */
  workspaceTrusted(): void {
    trustedNow(this.open, this.deps.platform.capabilities());
    void this.refreshAgents();
  }

  /** Runs the agent's install command in a terminal (the user asked in `chat`), then looks for it again. */
  async installAgent(chat: Chat, agentId: string): Promise<void> {
    const said = await this.deps.agentList.install(agentId);
    if (said) chat.say(said.level, said.text);
    this.agentsChanged();
  }

  /** Every page shows the agent list: all of them are told. */
  private agentsChanged(): void {
    this._onDidChangeAgents.fire();
    for (const chat of this.open) this._onDidChangeChat.fire(chat);
    this._onDidChangeShown.fire();
    this._onDidChangeList.fire();
  }

  /** Each open chat's line in the list, in the order they were opened. */
  summaries(): ChatSummary[] {
    return toldApart(this.open.map((chat) => this.attention.summary(chat)));
  }

  /** Restricted Mode's words for the chats' views, while the workspace is not trusted. */
  get restricted(): string | undefined {
    return this.deps.window.trusted() ? undefined : restrictedModeText(this.deps.platform.capabilities().kind);
  }

  /** Chats that want the user: a permission request, or a turn that ended out of sight. `shownSeen`: the shown one is in sight. */
  needingAttention(shownSeen: boolean): number {
    return this.open.filter((chat) => !(chat === this.shownChat && shownSeen) && wantsUser(this.attention.marker(chat)))
      .length;
  }

  dispose(): void {
    for (const chat of this.open) chat.dispose();
    this.subscriptions.forEach((s) => s.dispose());
    this._onDidChangeShown.dispose();
    this._onDidChangeList.dispose();
    this._onDidChangeChat.dispose();
    this._onDidChangeAgents.dispose();
    this._onDidChangeHistory.dispose();
    this._onDidChangeDraft.dispose();
    this._onDidNeedUser.dispose();
  }

  private create(agentId?: string, chatId = `c${++this.nextId}`, place?: WorkPlace): Chat {
    // A chat in a worktree has its agents there: processes of their own (AgentConnections.at).
    const deps = place ? { ...this.deps, agents: this.deps.agents.at(place) } : this.deps;
    const chat = new Chat(chatId, deps, this.makeArchive(), agentId, place);
    this.subscriptions.set(
      chat,
      watchChat(chat, {
        changed: () => {
          this._onDidChangeChat.fire(chat);
          if (chat === this.shownChat) this._onDidChangeShown.fire();
          if (this.attention.lineChanged(chat)) this._onDidChangeList.fire();
        },
        turnEnded: () => this.turnEnded(chat),
        needUser: (why) => this._onDidNeedUser.fire({ chat, why }),
        history: (event) => this._onDidChangeHistory.fire(event),
      }),
    );
    this.open.push(chat);
    this.attention.opened(chat);
    return chat;
  }

  /** A turn ended: the chat is used (the history saves it from its first completed turn on), and marked if out of sight. */
  private turnEnded(chat: Chat): void {
    if (chat !== this.shownChat) this.attention.endedUnseen(chat);
    if (chat.sessionRef) this._onDidChangeHistory.fire({ kind: 'used', chat, title: chat.title });
    // Stopped by the user: nothing to tell them.
    const end = chat.lastTurnEnd;
    if (end === 'finished' || end === 'failed') this._onDidNeedUser.fire({ chat, why: end });
  }
}
