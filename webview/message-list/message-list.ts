/**
 * <acp-message-list>: the transcript. Kept pinned to the newest entry by CSS
 * (a column-reverse scroller, whose scroll origin is the newest end), never by
 * reading layout per chunk. How far the user scrolled back is saved with the
 * view and restored when it is shown again. Entries older than the newest
 * few are rendered lazily (EAGER_ENTRIES).
 */
import { css, html, LitElement, unsafeCSS, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Entry } from '../../src/shared/thread';
import { loadUiState, saveUiState } from '../host';
import '../chat-entry/chat-entry';

/** Scroll positions are read at most this often, never per scroll event or chunk. */
const SCROLL_SAMPLE_MS = 250;
/**
 * The newest entries, always rendered in full: enough to fill the view.
 * Older ones are rendered lazily: by the browser (content-visibility, see the
 * styles) and, when a whole transcript arrives at once (a reloaded view), by
 * us (their Markdown waits: ChatEntry `deferred`).
 */
const EAGER_ENTRIES = 20;

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
    /* With the entries' 4px margins and 2px padding: 8px from the ends, as between entries. */
    .content { padding: 2px 0; }
    /*
     * Older entries are skipped by style, layout and paint while off screen, so
     * a frame (of a streaming reply, say) costs what is near the viewport, not
     * the whole transcript: the list moves as a whole when its newest entry
     * grows, which otherwise re-did pre-paint for every element in it. A size is
     * remembered once laid out; the estimate is for entries not yet seen (above
     * the view: the list keeps its newest end in place, so it does not move what
     * is in view). The newest entries are exempt: they are always laid out, so
     * that restoring how far back the user was (a distance from the end) is
     * exact there, and the entry being streamed into is never skipped.
     */
    .content > acp-chat-entry:nth-last-child(n + ${unsafeCSS(EAGER_ENTRIES + 1)} of acp-chat-entry) {
      content-visibility: auto; contain-intrinsic-block-size: auto 80px;
    }
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
        ${repeat(this.entries, (e) => e.id, (e, i) => html`<acp-chat-entry .entry=${e} .deferred=${i < this.entries.length - EAGER_ENTRIES}></acp-chat-entry>`)}
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
