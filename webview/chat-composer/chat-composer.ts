/**
 * <acp-chat-composer>: the prompt box. Enter sends, Shift+Enter adds a line,
 * Stop replaces Send while a turn runs, "/" at the start offers the agent's
 * slash commands. The unsent text survives the view being hidden.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import type { ConnectionState, ReturnedDraft } from '../../src/shared/protocol';
import { loadUiState, postToHost, saveUiState } from '../host';
import { SlashCommandMenu, type SlashCommand } from '../slash-commands/slash-commands';
import { slashCommandStyles } from '../slash-commands/slash-commands.styles';

export class ChatComposer extends LitElement {
  static override properties = { running: { type: Boolean }, connection: { attribute: false }, commands: { attribute: false }, returnedDraft: { attribute: false } };
  declare running: boolean;
  declare connection: ConnectionState;
  declare commands: readonly SlashCommand[];
  /** A prompt that was not sent, handed back: it goes into the box, before what is there. */
  declare returnedDraft: ReturnedDraft | undefined;
  private readonly menu = new SlashCommandMenu(this, (text) => this.replaceText(text));
  private tookDraft = 0;
  /** Set when a turn starts or ends while focus was here (or nowhere): it goes back to the text box. */
  private refocus = false;

  static override styles = [slashCommandStyles, css`
    :host { position: relative; display: flex; gap: 6px; padding: 8px; border-top: 1px solid var(--vscode-panel-border, transparent); }
    textarea { flex: 1; resize: none; min-height: 2.6em; max-height: 12em; font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 4px 6px; }
    textarea:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    button { align-self: flex-end; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 12px; font: inherit; cursor: pointer; }
    button:hover { background: var(--vscode-button-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `];

  constructor() {
    super();
    this.running = false;
    this.connection = 'disconnected';
    this.commands = [];
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

  protected override firstUpdated(): void {
    const draft = loadUiState().draft;
    if (draft && this.box) {
      this.box.value = draft;
      this.menu.textChanged(draft);
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('returnedDraft') && this.returnedDraft && this.returnedDraft.id !== this.tookDraft && this.box) {
      const { id, text } = this.returnedDraft;
      // Each status repeats it until the host hears that it was taken: take it once.
      this.tookDraft = id;
      const now = this.box.value;
      this.replaceText(now.trim() === '' ? text : `${text}\n${now}`);
      postToHost({ type: 'draftTaken', id });
    }
    if (this.refocus) {
      this.refocus = false;
      if (document.hasFocus()) this.focusInput();
    }
  }

  override render() {
    const combo = this.menu.comboboxState;
    return html`
      ${this.menu.render()}
      <textarea aria-label="Message the agent" title="Enter sends, Shift+Enter adds a line, / lists the agent's commands" placeholder="Ask the agent…" rows="2"
        role="combobox" aria-autocomplete="list" aria-expanded=${combo.expanded} aria-controls=${this.menu.isOpen ? this.menu.listId : nothing}
        aria-activedescendant=${combo.activeDescendant} @keydown=${this.onKey} @input=${this.onInput}></textarea>
      ${this.running
        ? html`<button class="stop" @click=${() => postToHost({ type: 'cancel' })}>Stop</button>`
        : html`<button class="send" @click=${() => this.send()}>Send</button>`}
    `;
  }

  private get box(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  private onInput(): void {
    const value = this.box?.value ?? '';
    this.menu.textChanged(value);
    saveUiState({ draft: value });
  }

  private onKey(event: KeyboardEvent): void {
    if (this.menu.keyDown(event)) {
      event.preventDefault();
      void this.updateComplete.then(() => this.menu.revealActive(this.renderRoot));
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
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
    if (!box || this.running || box.value.trim() === '') return;
    postToHost({ type: 'prompt', text: box.value });
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
