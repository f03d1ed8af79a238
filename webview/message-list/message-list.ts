/**
 * <acp-message-list>: the transcript. Kept pinned to the newest entry by CSS
 * (a column-reverse scroller, whose scroll origin is the newest end), never by
 * reading layout per chunk. How far the user scrolled back is saved with the
 * view and restored when it is shown again.
 */
import { css, html, LitElement, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Entry } from '../../src/shared/thread';
import { loadUiState, saveUiState } from '../host';
import '../chat-entry/chat-entry';

/** Scroll positions are read at most this often, never per scroll event or chunk. */
const SCROLL_SAMPLE_MS = 250;

export class MessageList extends LitElement {
  static override properties = { entries: { attribute: false }, running: { type: Boolean } };
  declare entries: readonly Entry[];
  declare running: boolean;
  /** The saved distance from the newest end, applied once the restored entries are rendered. */
  private pendingRestore: number | undefined = loadUiState().scrollFromEnd;
  private scrollSample: ReturnType<typeof setTimeout> | undefined;

  static override styles = css`
    :host { display: flex; flex-direction: column; }
    .scroller { flex: 1 1 auto; min-height: 0; overflow-y: auto; display: flex; flex-direction: column-reverse; padding: 0 8px; }
    .scroller:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .empty { margin: auto; text-align: center; color: var(--vscode-descriptionForeground); padding: 16px; }
    .busy { color: var(--vscode-descriptionForeground); padding: 4px 0; font-style: italic; }
  `;

  constructor() {
    super();
    this.entries = [];
    this.running = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.scrollSample);
    this.scrollSample = undefined;
  }

  override render() {
    if (this.entries.length === 0) {
      return html`<div class="empty">Pick an agent, connect, and ask it something.</div>`;
    }
    // aria-live off: a screen reader would otherwise read every streamed chunk;
    // the app announces when the turn ends instead.
    return html`<div class="scroller" tabindex="0" role="log" aria-live="off" aria-label="Conversation" @scroll=${this.onScroll}>
      <div class="content">
        ${repeat(this.entries, (e) => e.id, (e) => html`<acp-chat-entry .entry=${e}></acp-chat-entry>`)}
        ${this.running ? html`<div class="busy" aria-hidden="true">Working…</div>` : ''}
      </div>
    </div>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('entries')) return;
    const before = changed.get('entries') as readonly Entry[] | undefined;
    if (this.entries.length > 0 && this.pendingRestore !== undefined) {
      const distance = this.pendingRestore;
      this.pendingRestore = undefined;
      // After this frame the entries' own elements have rendered too: one layout, once.
      if (distance > 0) requestAnimationFrame(() => this.scroller?.scrollTo({ top: -distance }));
    } else if (this.entries.length === 0 && before?.length) {
      // A new chat starts at its newest end.
      saveUiState({ scrollFromEnd: 0 });
    }
  }

  private get scroller(): HTMLElement | null {
    return this.renderRoot.querySelector('.scroller');
  }

  private onScroll(): void {
    this.scrollSample ??= setTimeout(() => {
      this.scrollSample = undefined;
      const scroller = this.scroller;
      // column-reverse: scrollTop is 0 at the newest end and negative above it.
      if (scroller) saveUiState({ scrollFromEnd: Math.max(0, Math.round(-scroller.scrollTop)) });
    }, SCROLL_SAMPLE_MS);
  }
}

customElements.define('acp-message-list', MessageList);

declare global {
  interface HTMLElementTagNameMap {
    'acp-message-list': MessageList;
  }
}
