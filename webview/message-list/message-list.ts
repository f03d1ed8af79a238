/**
 * <acp-message-list>: the transcript. Kept pinned to the newest entry by CSS
 * (a column-reverse scroller), never by reading layout per chunk.
 */
import { css, html, LitElement } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Entry } from '../../src/shared/thread';
import '../chat-entry/chat-entry';

export class MessageList extends LitElement {
  static override properties = { entries: { attribute: false }, running: { type: Boolean } };
  declare entries: readonly Entry[];
  declare running: boolean;

  static override styles = css`
    :host { display: flex; flex-direction: column-reverse; overflow-y: auto; padding: 0 8px; }
    .empty { margin: auto; text-align: center; color: var(--vscode-descriptionForeground); padding: 16px; }
    .busy { color: var(--vscode-descriptionForeground); padding: 4px 0; font-style: italic; }
  `;

  constructor() {
    super();
    this.entries = [];
    this.running = false;
  }

  override render() {
    if (this.entries.length === 0) {
      return html`<div class="empty">Pick an agent, connect, and ask it something.</div>`;
    }
    return html`<div role="log" aria-label="Conversation">
      ${repeat(this.entries, (e) => e.id, (e) => html`<acp-chat-entry .entry=${e}></acp-chat-entry>`)}
      ${this.running ? html`<div class="busy" aria-hidden="true">Working…</div>` : ''}
    </div>`;
  }
}

customElements.define('acp-message-list', MessageList);

declare global {
  interface HTMLElementTagNameMap {
    'acp-message-list': MessageList;
  }
}
