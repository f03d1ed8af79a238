/**
 * <acp-chat-app>: holds what the host sent (status and entries) and lays out
 * header, transcript and composer.
 */
import { css, html, LitElement } from 'lit';
import { applyEntriesPatch } from '../../src/shared/entryPatches';
import type { HostMessage, ViewStatus } from '../../src/shared/protocol';
import type { Entry } from '../../src/shared/thread';
import '../chat-composer/chat-composer';
import '../chat-header/chat-header';
import '../message-list/message-list';
import { onHostMessage, postToHost } from '../host';

const initialStatus: ViewStatus = { agents: [], connection: 'disconnected', turn: 'idle', plan: [], controls: { configOptions: [], commands: [] }, permissions: [] };

export class ChatApp extends LitElement {
  static override properties = { status: { state: true }, entries: { state: true } };
  declare status: ViewStatus;
  declare entries: readonly Entry[];

  static override styles = css`
    :host { display: flex; flex-direction: column; height: 100vh; box-sizing: border-box; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
    acp-message-list { flex: 1 1 auto; min-height: 0; }
  `;

  constructor() {
    super();
    this.status = initialStatus;
    this.entries = [];
    onHostMessage((message) => this.apply(message));
    postToHost({ type: 'ready' });
  }

  /** Public so that tests and benchmarks can drive the app without a host. */
  apply(message: HostMessage): void {
    if (message.type === 'status') this.status = message.status;
    else this.entries = applyEntriesPatch(this.entries, message);
  }

  override render() {
    const running = this.status.turn === 'running';
    return html`
      <acp-chat-header .status=${this.status}></acp-chat-header>
      <acp-message-list .entries=${this.entries} .running=${running}></acp-message-list>
      <acp-chat-composer .running=${running} .connection=${this.status.connection}></acp-chat-composer>
    `;
  }
}

customElements.define('acp-chat-app', ChatApp);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-app': ChatApp;
  }
}
