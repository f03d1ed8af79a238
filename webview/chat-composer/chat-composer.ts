/**
 * <acp-chat-composer>: the prompt box. Enter sends, Shift+Enter adds a line,
 * Stop replaces Send while a turn runs.
 */
import { css, html, LitElement } from 'lit';
import type { ConnectionState } from '../../src/shared/protocol';
import { postToHost } from '../host';

export class ChatComposer extends LitElement {
  static override properties = { running: { type: Boolean }, connection: { attribute: false } };
  declare running: boolean;
  declare connection: ConnectionState;

  static override styles = css`
    :host { display: flex; gap: 6px; padding: 8px; border-top: 1px solid var(--vscode-panel-border, transparent); }
    textarea { flex: 1; resize: none; min-height: 2.6em; max-height: 12em; font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 4px 6px; }
    textarea:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    button { align-self: flex-end; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 4px 12px; font: inherit; cursor: pointer; }
    button:hover { background: var(--vscode-button-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `;

  constructor() {
    super();
    this.running = false;
    this.connection = 'disconnected';
  }

  override render() {
    return html`
      <textarea aria-label="Message the agent" title="Enter sends, Shift+Enter adds a line" placeholder="Ask the agent…" rows="2" @keydown=${this.onKey}></textarea>
      ${this.running
        ? html`<button class="stop" @click=${() => postToHost({ type: 'cancel' })}>Stop</button>`
        : html`<button class="send" @click=${() => this.send()}>Send</button>`}
    `;
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.send();
    }
  }

  private send(): void {
    const box = this.renderRoot.querySelector('textarea');
    if (!box || this.running || box.value.trim() === '') return;
    postToHost({ type: 'prompt', text: box.value });
    box.value = '';
  }
}

customElements.define('acp-chat-composer', ChatComposer);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-composer': ChatComposer;
  }
}
