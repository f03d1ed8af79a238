/**
 * The Sessions tree in the ACP view container: one node per agent, which
 * connects only when expanded (or refreshed), asks what the agent can do,
 * and shows its sessions in this workspace: the agent's own listing where it
 * has one (page by page, "Load more"), else this workspace's history. Every
 * state says what to do next: sign in, install, retry, nothing yet, stale.
 */
import * as vscode from 'vscode';
import type { AgentList } from '../agents/agentList';
import type { Chats } from '../chats/chats';
import type { AgentConnection } from '../connection/agentConnection';
import type { AgentConnections, ConnectionLease } from '../connection/agentConnections';
import { errorMessage } from '../errorText';
import { ReconnectAfterSignIn } from '../connection/signIn/signIn';
import type { HistoryEntry } from '../shared/saved/savedSessions';
import { AgentListing, type ListedSession } from './sessionListing';
import type { HistoryStore } from './historyStore';

export const SESSIONS_VIEW_ID = 'vscode-acp.sessions';

/**
 * How long an agent is kept running after a page of its listing, while a
 * next page ("Load more") waits: a cursor may be good only on the process
 * that gave it (an agent may keep its listing in memory).
 */
const HOLD_FOR_MORE_MS = 5 * 60_000;

export type SessionNode =
  | { readonly kind: 'agent'; readonly agentId: string }
  /** The agents that are not installed, under one entry: the tree lists what can be used. */
  | { readonly kind: 'more' }
  | {
      readonly kind: 'session';
      readonly agentId: string;
      readonly listed?: ListedSession;
      readonly saved?: HistoryEntry;
      readonly stale?: boolean;
    }
  | { readonly kind: 'worktree'; readonly worktree: ListedWorktree }
  | {
      readonly kind: 'info';
      readonly agentId: string;
      readonly label: string;
      readonly icon: string;
      readonly command?: string;
      readonly tooltip?: string;
    };

const MORE: SessionNode = { kind: 'more' };

/** A chat's worktree the tree lists (issue 49, Node host): one whose chat is closed, neither applied nor discarded. */
export interface ListedWorktree {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
}

/** Where the tree gets those worktrees from (the Node entry's), and hears that they changed. */
export interface WorktreeListing {
  list(): readonly ListedWorktree[];
  readonly onDidChange: (listener: () => void) => vscode.Disposable;
}

export class SessionsTree implements vscode.TreeDataProvider<SessionNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<SessionNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly listings = new Map<string, AgentListing>();
  private readonly agentNodes = new Map<string, SessionNode>();
  private readonly subscriptions: vscode.Disposable[];
  private worktrees: WorktreeListing | undefined;
  /** The agent a listing's next page must come from, held while that page waits. */
  private readonly held = new Map<
    string,
    { readonly lease: ConnectionLease; readonly timer: ReturnType<typeof setTimeout> }
  >();

  constructor(
    private readonly agentList: AgentList,
    private readonly agents: AgentConnections,
    private readonly store: HistoryStore,
    private readonly chats: Chats,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.subscriptions = [
      store.onDidChange(() => this._onDidChangeTreeData.fire(undefined)),
      chats.onDidChangeAgents(() => this._onDidChangeTreeData.fire(undefined)),
    ];
  }

  /** Lists `listing`'s worktrees above the agents, until disposed. */
  showWorktrees(listing: WorktreeListing): vscode.Disposable {
    this.worktrees = listing;
    const changed = listing.onDidChange(() => this._onDidChangeTreeData.fire(undefined));
    this._onDidChangeTreeData.fire(undefined);
    return new vscode.Disposable(() => {
      changed.dispose();
      this.worktrees = undefined;
    });
  }

  /** Forgets every listing: expanded agents list again. */
  refresh(): void {
    for (const agentId of [...this.held.keys()]) this.letGo(agentId);
    for (const listing of this.listings.values()) listing.abandon();
    this.listings.clear();
    this._onDidChangeTreeData.fire(undefined);
  }

  /** Lists `agentId` again (Retry; Sign in; Load more). */
  async relist(agentId: string, how: { more?: boolean; signIn?: boolean } = {}): Promise<void> {
    await this.load(agentId, how.more ?? false, how.signIn ?? false);
    this._onDidChangeTreeData.fire(this.agentNode(agentId));
  }

  /** What the agent said it can do with this node's session. */
  abilities(agentId: string): { canLoad: boolean; canResume: boolean } {
    return this.listings.get(agentId)?.abilities ?? { canLoad: false, canResume: false };
  }

  getTreeItem(node: SessionNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent':
        return this.agentItem(node.agentId);
      case 'more': {
        const item = new vscode.TreeItem('Install more agents…', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = 'more-agents';
        item.iconPath = new vscode.ThemeIcon('desktop-download');
        item.tooltip = 'Agents this extension knows that are not installed on this machine';
        item.contextValue = 'more';
        return item;
      }
      case 'info': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = node.tooltip ?? node.label;
        if (node.command) item.command = { command: node.command, title: node.label, arguments: [node] };
        item.contextValue = 'info';
        return item;
      }
      case 'session':
        return this.sessionItem(node);
      case 'worktree': {
        const { worktree } = node;
        const item = new vscode.TreeItem(worktree.label, vscode.TreeItemCollapsibleState.None);
        item.id = `worktree:${worktree.id}`;
        item.description = worktree.description;
        item.tooltip = worktree.tooltip;
        item.iconPath = new vscode.ThemeIcon('worktree');
        item.contextValue = 'worktree';
        item.command = { command: 'vscode-acp.openWorktreeChat', title: 'Open Its Chat', arguments: [worktree.id] };
        return item;
      }
    }
  }

  async getChildren(node?: SessionNode): Promise<SessionNode[]> {
    // The installed agents (the ones with sessions); the others, which offer Install, under one entry.
    if (!node) {
      const worktrees = (this.worktrees?.list() ?? []).map((worktree): SessionNode => ({ kind: 'worktree', worktree }));
      const installed = this.agentList.agents.filter((a) => a.available).map((a) => this.agentNode(a.id));
      return [...worktrees, ...installed, ...(installed.length < this.agentList.agents.length ? [MORE] : [])];
    }
    if (node.kind === 'more') {
      return this.agentList.agents.filter((a) => !a.available).map((a) => this.agentNode(a.id));
    }
    if (node.kind !== 'agent') return [];
    const agent = this.agentList.agents.find((a) => a.id === node.agentId);
    if (!agent) return [];
    const info = (label: string, icon: string, command?: string, tooltip?: string): SessionNode => ({
      kind: 'info',
      agentId: agent.id,
      label,
      icon,
      command,
      tooltip,
    });
    if (!agent.available) {
      return [
        agent.install
          ? info(
              `Install ${agent.name}`,
              'desktop-download',
              'vscode-acp.sessions.install',
              `Installs it with "${agent.install}" into this extension's storage, after showing what will run`,
            )
          : info(`${agent.name} was not found`, 'warning', undefined, agent.detail),
      ];
    }
    const listing = this.listings.get(agent.id) ?? (await this.load(agent.id, false, false));
    // Refreshed while this listing ran (it was given up): the new one's children instead.
    if (this.listings.get(agent.id) !== listing) return this.getChildren(node);
    const saved = (await this.store.list()).filter((s) => s.agentId === agent.id);
    const state = listing.state;
    switch (state.kind) {
      case 'unknown':
        return [info('Expand again to list sessions', 'refresh', 'vscode-acp.sessions.retry')];
      case 'signIn':
        return [
          info(`Sign in to ${agent.name} to list its sessions`, 'account', 'vscode-acp.sessions.signIn'),
          ...saved.map((s) => this.savedNode(s)),
        ];
      case 'error':
        return [
          info(`Could not list sessions: ${state.message}`, 'error', 'vscode-acp.sessions.retry', 'Retry'),
          ...saved.map((s) => this.savedNode(s)),
        ];
      case 'cannotList': {
        if (!state.canContinue) return [info(`${agent.name} cannot continue earlier sessions`, 'info')];
        const note = info(`${agent.name} cannot list its sessions: this workspace's history`, 'info');
        return [note, ...(saved.length ? saved.map((s) => this.savedNode(s)) : [info('No sessions yet', 'comment')])];
      }
      case 'listed': {
        const byId = new Map(saved.map((s) => [s.sessionId, s]));
        const listed = listing.sessions.map((l): SessionNode => ({
          kind: 'session',
          agentId: agent.id,
          listed: l,
          ...(byId.has(l.sessionId) ? { saved: byId.get(l.sessionId) } : {}),
        }));
        const stale = listing
          .stale(saved)
          .map((s): SessionNode => ({ kind: 'session', agentId: agent.id, saved: s, stale: true }));
        // A partial listing says nothing of the sessions it did not reach: saved ones stay as they are.
        const unlisted = state.complete
          ? []
          : saved
              .filter((s) => !listing.sessions.some((l) => l.sessionId === s.sessionId))
              .map((s) => this.savedNode(s));
        const tail = [
          ...(state.cursor !== undefined ? [info('Load more', 'ellipsis', 'vscode-acp.sessions.more')] : []),
          ...(state.note ? [info(state.note, 'warning')] : []),
        ];
        const all = [...listed, ...unlisted, ...stale, ...tail];
        return all.length > 0 ? all : [info('No sessions yet', 'comment')];
      }
    }
  }

  dispose(): void {
    for (const agentId of [...this.held.keys()]) this.letGo(agentId);
    for (const listing of this.listings.values()) listing.abandon();
    this.subscriptions.forEach((s) => s.dispose());
    this._onDidChangeTreeData.dispose();
  }

  private async load(agentId: string, more: boolean, signIn: boolean): Promise<AgentListing> {
    const listing = this.listings.get(agentId) ?? new AgentListing();
    this.listings.set(agentId, listing);
    try {
      const list = (withSignIn: boolean) =>
        this.onAgent(agentId, listing, (connection) => listing.list(connection, more, withSignIn).then(() => true));
      const done = await list(signIn).catch(async (error: unknown) => {
        if (!(error instanceof ReconnectAfterSignIn)) throw error;
        this.letGo(agentId);
        this.agents.restartAfterSignIn(agentId);
        return list(false);
      });
      if (!done) listing.state = { kind: 'error', message: 'the agent was not started' };
      // A listing given up (Refresh) says nothing of what the agent keeps.
      else if (this.listings.get(agentId) === listing) await this.store.reconcile(agentId, listing.sessions);
    } catch (error) {
      this.log.warn(`Listing the sessions of ${agentId} failed: ${errorMessage(error)}`);
      listing.state = { kind: 'error', message: errorMessage(error) };
    }
    return listing;
  }

  /**
   * Runs `use` on the agent's process: the one held for this listing's next
   * page, else one acquired for it; held afterwards while a next page waits.
   */
  private async onAgent<T>(
    agentId: string,
    listing: AgentListing,
    use: (connection: AgentConnection) => Promise<T>,
  ): Promise<T | undefined> {
    const kept = this.held.get(agentId);
    if (kept) {
      clearTimeout(kept.timer);
      this.held.delete(agentId);
    }
    let lease = kept?.lease;
    if (lease?.connection.client.isClosed) {
      lease.release();
      lease = undefined;
    }
    lease ??= await this.agents.acquire(agentId, new AbortController().signal);
    if (!lease) return undefined;
    try {
      return await use(lease.connection);
    } finally {
      if (listing.state.kind === 'listed' && listing.state.cursor !== undefined) {
        this.held.set(agentId, { lease, timer: setTimeout(() => this.letGo(agentId), HOLD_FOR_MORE_MS) });
      } else {
        lease.release();
      }
    }
  }

  /** Gives back the process held for a listing's next page. */
  private letGo(agentId: string): void {
    const kept = this.held.get(agentId);
    if (!kept) return;
    clearTimeout(kept.timer);
    this.held.delete(agentId);
    kept.lease.release();
  }

  private agentNode(agentId: string): SessionNode {
    let node = this.agentNodes.get(agentId);
    if (!node) {
      node = { kind: 'agent', agentId };
      this.agentNodes.set(agentId, node);
    }
    return node;
  }

  private agentItem(agentId: string): vscode.TreeItem {
    const agent = this.agentList.agents.find((a) => a.id === agentId);
    const item = new vscode.TreeItem(agent?.name ?? agentId, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `agent:${agentId}`;
    item.iconPath = new vscode.ThemeIcon('hubot');
    item.description = agent && !agent.available ? 'not installed' : undefined;
    item.contextValue = 'agent';
    return item;
  }

  private savedNode(saved: HistoryEntry): SessionNode {
    return { kind: 'session', agentId: saved.agentId, saved };
  }

  private sessionItem(node: Extract<SessionNode, { kind: 'session' }>): vscode.TreeItem {
    const title = node.saved?.title ?? node.listed?.title ?? 'Untitled session';
    const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.None);
    const when = node.saved ? new Date(node.saved.updatedAt).toLocaleString() : node.listed?.updatedAt;
    item.description = node.stale ? 'the agent no longer has it' : when;
    item.tooltip = node.stale
      ? `${title}\nThe agent's listing no longer has this session: its saved transcript opens, and a new session continues it.`
      : `${title}${when ? `\nLast used ${when}` : ''}${node.saved ? '\nSaved in this workspace' : ''}`;
    item.iconPath = new vscode.ThemeIcon(node.stale ? 'warning' : node.saved ? 'comment-discussion' : 'comment');
    item.command = { command: 'vscode-acp.sessions.open', title: 'Open Session', arguments: [node] };
    const { canLoad, canResume } = this.abilities(node.agentId);
    item.contextValue = ['session', canLoad ? 'load' : '', canResume ? 'resume' : '', node.saved ? 'saved' : '']
      .filter(Boolean)
      .join('.');
    return item;
  }
}
