/**
 * <acp-chat-composer>: the prompt box. Enter sends, Shift+Enter adds a line,
 * Stop replaces Send while a turn runs, "/" at the start offers the agent's
 * slash commands. Each chat has its own unsent text, which survives the view
 * being hidden. The paperclip attaches files; images and files pasted or
 * dropped here are attached too (attachment chips above the text). Under the
 * text, a toolbar: the paperclip, what the page slots in (the agent and the
 * session's settings), and Send.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { MAX_ATTACHMENTS, type AttachmentChip } from '../../src/shared/attachments';
import type { ConnectionState, ReturnedDraft } from '../../src/shared/page/protocol';
import '../attachment-chips/attachment-chips';
import { codicon, codiconStyles } from '../shared/codicons';
import { DraftToHost } from './drafts';
import { attachTransfer } from './transfer';
import { loadUiState, saveUiState } from '../host';
import { toHost } from '../shared/to-host';
import { SlashCommandMenu } from '../slash-commands/slash-commands';
import type { SlashCommand } from '../slash-commands/match-commands';
import { completionMenuStyles } from '../completion-menu/completion-menu.styles';
import { MentionMenu } from '../mention-menu/mention-menu';
import type { MentionItem } from '../../src/shared/page/protocol';

export class ChatComposer extends LitElement {
  static override properties = {
    chatId: { attribute: false },
    openChats: { attribute: false },
    running: { type: Boolean },
    connection: { attribute: false },
    commands: { attribute: false },
    returnedDraft: { attribute: false },
    attachments: { attribute: false },
    suggestions: { attribute: false },
    agentName: { attribute: false },
    typed: { state: true },
  };
  /** The chat's agent, named in the empty box ("Ask Claude Code…"): the toolbar has no agent picker once connected. */
  declare agentName: string | undefined;
  /** Prompts the agent suggests sending next: chips over the box while it is empty; a click puts one in it. */
  declare suggestions: readonly string[] | undefined;
  /** The box holds text (the suggestions step aside). */
  declare typed: boolean;
  /** The chat's attachments, shown as chips above the text. */
  declare attachments: readonly AttachmentChip[];
  /** The chat the text box is for: switching chats puts that chat's draft in it. */
  declare chatId: string;
  /** The chats open in the window: drafts of others are forgotten. */
  declare openChats: readonly string[];
  declare running: boolean;
  declare connection: ConnectionState;
  declare commands: readonly SlashCommand[];
  /** A prompt that was not sent, handed back: it goes into the box, before what is there. */
  declare returnedDraft: ReturnedDraft | undefined;
  private readonly menu = new SlashCommandMenu(this, (text) => this.replaceText(text));
  private readonly mentions = new MentionMenu(this, (from, to) => this.removeText(from, to));
  private tookDraft = 0;
  private readonly draftToHost = new DraftToHost(this);
  /** Set when a turn starts or ends while focus was here (or nowhere): it goes back to the text box. */
  private refocus = false;

  static override styles = [
    completionMenuStyles,
    codiconStyles,
    css`
    :host { position: relative; display: flex; flex-direction: column; gap: 4px; padding: 6px 8px 4px; border-top: 1px solid var(--vscode-panel-border, transparent); }
    :host(.dragging) { outline: 1px dashed var(--vscode-focusBorder); outline-offset: -2px; }
    .toolbar { display: flex; align-items: center; gap: 2px; min-width: 0; }
    .suggestions { display: flex; flex-wrap: wrap; gap: 4px; min-width: 0; }
    button.suggestion { max-width: 100%; gap: 4px; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    button.suggestion:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button.suggestion > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    button.attach { flex: none; display: inline-flex; padding: 3px; border-radius: 3px; color: var(--vscode-icon-foreground, var(--vscode-foreground)); background: none; }
    button.attach:hover { background: var(--vscode-toolbar-hoverBackground); }
    textarea { resize: none; min-height: 2.6em; max-height: 12em; font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); border-radius: 2px; padding: 4px 6px; }
    textarea:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    ::slotted(*) { flex: 1 1 auto; min-width: 0; }
    button { flex: none; display: inline-flex; align-items: center; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; border-radius: 3px; padding: 3px 6px; font: inherit; cursor: pointer; }
    button:hover { background: var(--vscode-button-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `,
  ];

  constructor() {
    super();
    this.chatId = '';
    this.attachments = [];
    this.openChats = [];
    this.running = false;
    this.connection = 'disconnected';
    this.commands = [];
    this.typed = false;
  }

  /** Puts the caret in the text box. */
  focusInput(): void {
    this.box?.focus();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('commands')) {
      this.menu.commands = this.commands;
      if (this.box) this.menu.textChanged(this.box.value);
    }
    // The Send/Stop button is swapped when a turn starts or ends; focus on it would be lost.
    if (changed.has('running') && changed.get('running') !== undefined) this.refocus = this.focusIsHereOrNowhere();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The last words typed in the chat shown before reach the host under its id.
    if (changed.has('chatId')) this.draftToHost.flush();
    if (changed.has('chatId') && this.box) {
      // What was typed before any chat was known belongs to the first one shown.
      const typed = changed.get('chatId') ? '' : this.box.value;
      const draft = loadUiState().drafts?.[this.chatId] ?? typed;
      this.box.value = draft;
      this.typed = draft.trim() !== '';
      this.menu.textChanged(draft);
      this.mentions.textChanged(draft, 0);
      if (typed !== '') this.onInput();
    }
    if (changed.has('openChats')) {
      // A chat closed: its draft goes. Drafts of chats this page has not seen open stay (a window reload brings their
      // chats back a moment after the first status).
      const closed = (changed.get('openChats') ?? []).filter((id) => !this.openChats.includes(id));
      const drafts = loadUiState().drafts ?? {};
      if (closed.some((id) => id in drafts)) {
        saveUiState({ drafts: Object.fromEntries(Object.entries(drafts).filter(([id]) => !closed.includes(id))) });
      }
    }
    if (changed.has('returnedDraft') && this.returnedDraft && this.returnedDraft.id !== this.tookDraft && this.box) {
      const { id, text } = this.returnedDraft;
      // Each status repeats it until the host hears that it was taken: take it once.
      this.tookDraft = id;
      const now = this.box.value;
      // A draft the host kept over a reload may be in the box already (the page kept it too).
      if (now !== text) this.replaceText(now.trim() === '' ? text : `${text}\n${now}`);
      toHost(this, { type: 'draftTaken', id });
    }
    if (this.refocus) {
      this.refocus = false;
      if (document.hasFocus()) this.focusInput();
    }
  }

  /** The host's answer to an `@` query. */
  mentionResults(requestId: number, items: readonly MentionItem[]): void {
    this.mentions.answered(requestId, items);
  }

  override render() {
    const open = this.mentions.isOpen ? this.mentions : this.menu;
    const combo = open.comboboxState;
    return html`
      ${this.menu.render()}${this.mentions.render()}
      <acp-attachment-chips .chips=${this.attachments} @acp-chips-empty=${() => this.focusInput()}></acp-attachment-chips>
      ${this.suggestions?.length && !this.typed && !this.running ? this.renderSuggestions(this.suggestions) : nothing}
      <textarea aria-label="Message the agent" title="Enter sends, Shift+Enter adds a line, / lists the agent's commands, @ attaches files, folders and problems" placeholder=${this.running ? 'Queue a follow-up…' : `Ask ${this.agentName ?? 'the agent'}…`} rows="2"
        role="combobox" aria-autocomplete="list" aria-expanded=${combo.expanded} aria-controls=${open.isOpen ? open.listId : nothing}
        aria-activedescendant=${combo.activeDescendant} @keydown=${this.onKey} @input=${this.onInput} @paste=${this.onPaste}></textarea>
      <div class="toolbar">
        <button class="attach" aria-label="Attach files" title="Attach files (or paste or drop them here)" @click=${() => toHost(this, { type: 'attachFiles' })}>${codicon('attach')}</button>
        <slot name="toolbar"></slot>
        ${
          this.running
            ? html`<button class="stop" aria-label="Stop" title="Stop" @click=${() => toHost(this, { type: 'cancel' })}>${codicon('debug-stop')}</button>`
            : html`<button class="send" aria-label="Send" title="Send (Enter)" @click=${() => this.send()}>${codicon('send')}</button>`
        }
      </div>
    `;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('dragover', this.onDragOver);
    this.addEventListener('dragleave', this.onDragLeave);
    this.addEventListener('drop', this.onDrop);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('dragover', this.onDragOver);
    this.removeEventListener('dragleave', this.onDragLeave);
    this.removeEventListener('drop', this.onDrop);
  }

  private readonly onDragOver = (event: DragEvent): void => {
    if (!event.dataTransfer) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.classList.add('dragging');
  };

  private readonly onDragLeave = (): void => this.classList.remove('dragging');

  private readonly onDrop = (event: DragEvent): void => {
    this.classList.remove('dragging');
    if (!event.dataTransfer) return;
    event.preventDefault();
    attachTransfer(this, event.dataTransfer, this.slots(), (text) => this.say(text));
    this.focusInput();
  };

  private onPaste(event: ClipboardEvent): void {
    // Text pastes into the box as usual; files and images become attachments.
    if (
      event.clipboardData &&
      event.clipboardData.files.length > 0 &&
      attachTransfer(this, event.clipboardData, this.slots(), (text) => this.say(text))
    ) {
      event.preventDefault();
    }
  }

  private slots(): number {
    return MAX_ATTACHMENTS - this.attachments.length;
  }

  private say(text: string): void {
    this.dispatchEvent(new CustomEvent('acp-announce', { detail: { text }, bubbles: true, composed: true }));
  }

  private get box(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  private renderSuggestions(suggestions: readonly string[]) {
    return html`<div class="suggestions" role="group" aria-label="Suggested prompts">${suggestions.map(
      (s) =>
        html`<button class="suggestion" title=${`Put in the box: ${s}`} @click=${() => this.useSuggestion(s)}>${codicon('lightbulb')}<span>${s}</span></button>`,
    )}</div>`;
  }

  /** A suggestion goes into the box, to be read, changed and sent by the user. */
  private useSuggestion(text: string): void {
    this.replaceText(text);
    this.focusInput();
  }

  private onInput(): void {
    const value = this.box?.value ?? '';
    this.typed = value.trim() !== '';
    this.menu.textChanged(value);
    this.mentions.textChanged(value, this.box?.selectionStart ?? value.length);
    const { [this.chatId]: _old, ...others } = loadUiState().drafts ?? {};
    saveUiState({ drafts: value === '' ? others : { ...others, [this.chatId]: value } });
    this.draftToHost.schedule(this.chatId, value);
  }

  private onKey(event: KeyboardEvent): void {
    const menu = this.mentions.isOpen ? this.mentions : this.menu;
    if (menu.keyDown(event)) {
      event.preventDefault();
      void this.updateComplete.then(() => menu.revealActive(this.renderRoot));
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  }

  /** Takes `from`..`to` out of the text (a chosen `@word`), the caret where it was. */
  private removeText(from: number, to: number): void {
    const box = this.box;
    if (!box) return;
    box.value = box.value.slice(0, from) + box.value.slice(to);
    box.setSelectionRange(from, from);
    this.onInput();
  }

  private replaceText(text: string): void {
    const box = this.box;
    if (!box) return;
    box.value = text;
    box.setSelectionRange(text.length, text.length);
    this.onInput();
  }

  private send(): void {
    const box = this.box;
    // While the agent answers, the host queues it (see src/chat/composer/promptQueue.ts).
    if (!box || (box.value.trim() === '' && this.attachments.length === 0)) return;
    toHost(this, { type: 'prompt', text: box.value });
    this.replaceText('');
  }

  private focusIsHereOrNowhere(): boolean {
    const active = document.activeElement;
    return active === null || active === document.body || (this.renderRoot as ShadowRoot).activeElement !== null;
  }
}

customElements.define('acp-chat-composer', ChatComposer);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-composer': ChatComposer;
  }
}
