/**
 * <acp-chat-app>: holds what the host sent (status and entries), lays out
 * header, transcript, live plan and composer, and tells screen readers what
 * happened out of their sight (a turn ended).
 */
import { css, html, LitElement, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { applyEntriesPatch } from '../../src/shared/page/entryPatches';
import type { HostMessage, ViewStatus } from '../../src/shared/page/protocol';
import type { Entry } from '../../src/shared/thread/thread';
import '../changes-bar/changes-bar';
import '../chat-composer/chat-composer';
import '../chat-header/chat-header';
import '../composer-toolbar/composer-toolbar';
import type { MessageList } from '../message-list/message-list';
import '../message-list/message-list';
import '../pending-prompt/pending-prompt';
import '../prompt-queue/prompt-queue';
import '../permission-prompt/permission-prompt';
import '../elicitation-prompt/elicitation-prompt';
import '../plan-view/plan-view';
import '../restricted-note/restricted-note';
import '../worktree-note/worktree-note';
import '../tool-card/tool-card';
import { forgetExpandedCards } from '../tool-card/expanded-cards';
import { moveDraft } from '../chat-composer/drafts';
import { onHostMessage, postToHost, setShownChat } from '../host';
import { noteAppends } from '../shared/appended-entries';
import { srOnlyStyles } from '../shared/codicons';
import { setWorkspaceRoots } from '../shared/shown-path';
import { LiveRegion } from './live-region';
import { turnEndAnnouncement } from './turn-announcement';

const initialStatus: ViewStatus = {
  chatId: '',
  chats: [],
  agents: [],
  connection: 'disconnected',
  turn: 'idle',
  plan: [],
  controls: { configOptions: [], commands: [] },
  permissions: [],
  elicitations: [],
  queued: [],
  steers: false,
  attachments: [],
  preparing: false,
  focusComposer: 0,
  changes: { files: [], total: 0, busy: false },
  checkpoints: [],
};

/**
 * The host sends the status (turn ended) and then the entries (the notice
 * saying how) as two messages; the announcement waits for both.
 */
const ANNOUNCE_DELAY_MS = 100;

export class ChatApp extends LitElement {
  static override properties = { status: { state: true }, entries: { state: true } };
  declare status: ViewStatus;
  declare entries: readonly Entry[];
  private readonly liveRegion = new LiveRegion(this);
  /** The chat whose list `entries` is ('' until the host names one). */
  private listChat = '';
  /** The lists of other chats the host told the page to keep (their elements stay, hidden), in the order first shown. */
  private readonly keptLists = new Map<string, readonly Entry[]>();
  /** The chats whose lists have elements (the shown one and the kept ones), in the order first shown. */
  private listOrder: string[] = [''];
  /** Where the running turn's entries start. */
  private turnStart = 0;
  private turnEndTimer: ReturnType<typeof setTimeout> | undefined;
  /** The chat whose unsent text goes to the next chat the host opens (see the constructor). */
  private draftFrom: string | undefined;

  static override styles = [
    srOnlyStyles,
    css`
    :host { display: flex; flex-direction: column; height: 100vh; box-sizing: border-box; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
    .lists { flex: 1 1 auto; min-height: 0; position: relative; }
    acp-message-list { position: absolute; inset: 0; }
    /* A chat shown before: its elements (and scroll position) stay, not rendered until shown again. */
    acp-message-list.kept { visibility: hidden; content-visibility: hidden; }
    .live-plan { flex: none; max-height: 35vh; overflow-y: auto; padding: 4px 8px; border-top: 1px solid var(--vscode-panel-border, transparent); }
    .permissions, .elicitations { flex: none; max-height: 50vh; overflow-y: auto; }
    /* Its prompts give way (their details scroll, see permission-prompt.ts) before the area has to scroll. */
    .permissions { display: flex; flex-direction: column; }
    .live-plan:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  `,
  ];

  constructor() {
    super();
    this.status = initialStatus;
    this.entries = [];
    this.addEventListener('acp-announce', (e) => this.announce(e.detail.text));
    // What the elements ask of the host (shared/to-host.ts): the app is the one that posts.
    this.addEventListener('acp-to-host', (e) => {
      e.stopPropagation();
      // Another agent picked in a chat with a conversation: the host opens a new chat for it, and the unsent text goes there.
      if (e.detail.type === 'selectAgent' && this.entries.some((entry) => entry.kind !== 'notice')) {
        this.draftFrom = this.status.chatId;
      }
      // The user's own prompt: the transcript goes to its newest end, where the answer will come.
      if (e.detail.type === 'prompt') {
        this.renderRoot.querySelector<MessageList>('acp-message-list:not(.kept)')?.goToEnd();
      }
      postToHost(e.detail);
    });
    // Ctrl+L (Cmd+L on macOS) anywhere in the chat: New Chat, as in VS Code's own chat. Handled here, not as a VS Code
    // keybinding: the view's focus inside its webview is not one that a keybinding's "when" can name.
    this.addEventListener('keydown', (e) => {
      if (e.key.toLowerCase() !== 'l' || !(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.isComposing) return;
      e.preventDefault();
      postToHost({ type: 'newChat' });
    });
    onHostMessage((message) => this.apply(message));
    postToHost({ type: 'ready' });
  }

  /** Public so that tests and benchmarks can drive the app without a host (their statuses may leave out what has a default). */
  apply(message: HostMessage): void {
    if (message.type === 'status') {
      // Another chat's requests and turn are not news about this one.
      if (message.status.chatId === this.status.chatId) {
        this.onTurnChange(this.status.turn, message.status.turn);
        this.onPermissionsChange(this.status.permissions.length, message.status.permissions.length);
        if ((message.status.elicitations?.length ?? 0) > (this.status.elicitations?.length ?? 0)) {
          this.announce('The agent asks you something.');
        }
      } else {
        clearTimeout(this.turnEndTimer);
        this.turnStart = 0;
      }
      if (this.draftFrom !== undefined && message.status.chatId !== this.status.chatId) {
        const opened = !this.status.chats.some((c) => c.id === message.status.chatId);
        if (opened) moveDraft(this.draftFrom, message.status.chatId);
        this.draftFrom = undefined;
      }
      setShownChat(message.status.chatId);
      setWorkspaceRoots(message.status.roots);
      // A new request for this chat, or any on a page just made (the command that asked also revealed the view).
      const fresh = this.status.chatId === '';
      const focus =
        message.status.focusComposer !== this.status.focusComposer &&
        (fresh || message.status.chatId === this.status.chatId);
      // Focus in the Changes bar when its last file is kept or undone: the bar goes, and focus goes to the prompt box
      // rather than to nowhere.
      const inBar = this.renderRoot.querySelector('acp-changes-bar')?.matches(':focus-within') === true;
      this.status = message.status;
      const barGone = inBar && !message.status.changes?.total;
      if (focus || barGone) {
        void this.updateComplete.then(() => this.renderRoot.querySelector('acp-chat-composer')?.focusInput());
      }
    } else if (message.type === 'mentions') {
      this.renderRoot.querySelector('acp-chat-composer')?.mentionResults(message.requestId, message.items);
    } else {
      if (message.chatId !== undefined && message.chatId !== this.listChat) {
        this.switchList(message.chatId, message.keep ?? []);
      }
      // A cleared list: its entry ids may repeat the old ones.
      else if (message.length === 0 && message.ops.length === 0) forgetExpandedCards();
      const before = this.entries;
      this.entries = applyEntriesPatch(before, message);
      noteAppends(before, this.entries, message.ops);
    }
  }

  /** Shows `chatId`'s list (kept, if the page has it), keeping the current one and those in `keep`. */
  private switchList(chatId: string, keep: readonly string[]): void {
    if (this.listChat) this.keptLists.set(this.listChat, this.entries);
    this.entries = this.keptLists.get(chatId) ?? [];
    this.listChat = chatId;
    for (const id of this.keptLists.keys()) if (id === chatId || !keep.includes(id)) this.keptLists.delete(id);
    // A stable order, so that switching never moves an element (that would lose its scroll position).
    this.listOrder = this.listOrder.filter((id) => id === chatId || this.keptLists.has(id));
    if (!this.listOrder.includes(chatId)) this.listOrder.push(chatId);
  }

  /**
   * Says `text` politely through the live region (e.g. "The agent asks for
   * permission"). Elements inside the app can dispatch `acp-announce` instead.
   */
  announce(text: string): void {
    this.liveRegion.announce(text);
  }

  override render() {
    const running = this.status.turn === 'running';
    // The running turn's own plan, and the session's plans by id (kept between turns).
    const livePlan = running && this.status.plan.length > 0;
    const named = this.status.plans ?? [];
    return html`
      <acp-chat-header .status=${this.status}></acp-chat-header>
      ${this.status.restricted ? html`<acp-restricted-note .text=${this.status.restricted}></acp-restricted-note>` : nothing}
      ${this.status.worktree ? html`<acp-worktree-note .worktree=${this.status.worktree}></acp-worktree-note>` : nothing}
      <div class="lists">
        ${repeat(
          this.listOrder,
          (id) => id,
          (id) => {
            // One template for both states: an element moves between them, it is not rebuilt.
            const shown = id === this.listChat;
            return html`<acp-message-list .chatId=${id} class=${shown ? '' : 'kept'} aria-hidden=${shown ? nothing : 'true'} ?inert=${!shown} .kept=${!shown}
            .entries=${shown ? this.entries : (this.keptLists.get(id) ?? [])} .running=${shown && running} .hint=${emptyHint(this.status)} .checkpoints=${shown ? (this.status.checkpoints ?? []) : []}></acp-message-list>`;
          },
        )}
      </div>
      ${
        livePlan || named.length > 0
          ? html`<div class="live-plan" role="region" aria-label=${named.length > 0 ? 'Plans' : 'Current plan'} tabindex="0">
            ${livePlan ? html`<acp-plan-view .entries=${this.status.plan}></acp-plan-view>` : nothing}
            ${named.map((plan) => html`<acp-plan-view .plan=${plan}></acp-plan-view>`)}</div>`
          : nothing
      }
      ${
        this.status.permissions.length > 0
          ? html`<div class="permissions" role="region" aria-label="Permission requests">
            ${this.status.permissions.map((p) => html`<acp-permission-prompt .prompt=${p}></acp-permission-prompt>`)}</div>`
          : nothing
      }
      ${
        this.status.elicitations?.length
          ? html`<div class="elicitations" role="region" aria-label="Questions from the agent">
            ${this.status.elicitations.map((r) => html`<acp-elicitation-prompt .request=${r}></acp-elicitation-prompt>`)}</div>`
          : nothing
      }
      ${this.status.pendingPrompt !== undefined ? html`<acp-pending-prompt .text=${this.status.pendingPrompt}></acp-pending-prompt>` : nothing}
      ${this.status.queued?.length ? html`<acp-prompt-queue .items=${this.status.queued} ?steers=${this.status.steers === true}></acp-prompt-queue>` : nothing}
      ${this.status.changes?.total ? html`<acp-changes-bar .changes=${this.status.changes}></acp-changes-bar>` : nothing}
      <acp-chat-composer .suggestions=${this.status.suggestions} .chatId=${this.status.chatId} .openChats=${this.status.chats.map((c) => c.id)} .running=${running} .connection=${this.status.connection} .commands=${this.status.controls.commands}
        .returnedDraft=${this.status.returnedDraft} .attachments=${this.status.attachments}
        .agentName=${this.status.agents.find((a) => a.id === this.status.selectedAgentId)?.name}>
        <acp-composer-toolbar slot="toolbar" .status=${this.status}></acp-composer-toolbar>
      </acp-chat-composer>
      ${this.liveRegion.render()}
    `;
  }

  /**
   * A new request is announced. Focus is not moved to its buttons: someone
   * typing in the composer could answer it by accident with Enter.
   */
  private onPermissionsChange(before: number, after: number): void {
    if (after <= before) return;
    this.announce(
      after === 1 ? 'The agent asks for permission.' : `The agent asks for permission (${after} requests waiting).`,
    );
  }

  private onTurnChange(before: ViewStatus['turn'], after: ViewStatus['turn']): void {
    if (before === after) return;
    clearTimeout(this.turnEndTimer);
    if (after === 'running') {
      // "The agent finished." of the last turn is not true of this one.
      this.turnStart = this.entries.length;
      this.liveRegion.clear();
      return;
    }
    this.turnEndTimer = setTimeout(
      () => this.announce(turnEndAnnouncement(this.entries, this.turnStart)),
      ANNOUNCE_DELAY_MS,
    );
  }
}

/** What an empty chat says, following the connection: the next thing to do. */
export function emptyHint(status: ViewStatus): string {
  const agent = status.agents.find((a) => a.id === status.selectedAgentId);
  if (!agent) return 'Pick an agent below, then ask it something.';
  if (!agent.available) {
    return agent.install
      ? `${agent.name} is not installed: Install (above) runs its installer, or pick another agent below.`
      : `${agent.name} was not found: Settings (above) to set its command, or pick another agent below.`;
  }
  switch (status.connection) {
    case 'connecting':
    case 'reconnecting':
      return `Connecting to ${agent.name}…`;
    case 'connected':
      return `Ask ${agent.name} something.`;
    default:
      return `Ask ${agent.name} something: sending connects it.`;
  }
}

customElements.define('acp-chat-app', ChatApp);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-app': ChatApp;
  }
  interface GlobalEventHandlersEventMap {
    /** Dispatch (bubbling, composed) from any element in the app to have `text` announced. */
    'acp-announce': CustomEvent<{ text: string }>;
  }
}
