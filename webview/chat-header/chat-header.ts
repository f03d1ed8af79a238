/** <acp-chat-header>: agent picker, Connect / Disconnect, connection state. */
import { css, html, LitElement, nothing } from 'lit';
import type { ViewStatus } from '../../src/shared/protocol';
import { postToHost } from '../host';

const stateLabel: Record<ViewStatus['connection'], string> = {
  disconnected: 'Not connected',
  connecting: 'Connecting…',
  connected: 'Connected',
  failed: 'Disconnected (failed)',
};

export class ChatHeader extends LitElement {
  static override properties = { status: { attribute: false } };
  declare status: ViewStatus;

  static override styles = css`
    :host { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    select { flex: 1 1 8em; min-width: 0; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); padding: 2px 4px; font: inherit; }
    button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: none; padding: 3px 10px; font: inherit; cursor: pointer; }
    button:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button:focus-visible, select:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
    .state { width: 100%; font-size: 0.9em; color: var(--vscode-descriptionForeground); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .dot { display: inline-block; width: 0.6em; height: 0.6em; border-radius: 50%; margin-right: 4px; background: var(--vscode-descriptionForeground); }
    .connected .dot { background: var(--vscode-testing-iconPassed, green); }
    .failed .dot { background: var(--vscode-errorForeground, red); }
  `;

  override render() {
    const s = this.status;
    const busy = s.connection === 'connecting' || s.connection === 'connected';
    return html`
      <select aria-label="Agent" ?disabled=${s.connection === 'connecting'} @change=${this.onPick}>
        ${s.agents.map((a) => html`<option value=${a.id} ?selected=${a.id === s.selectedAgentId} title=${a.detail ?? ''}>${a.name}${a.available ? '' : ' (not found)'}</option>`)}
      </select>
      ${busy
        ? html`<button @click=${() => postToHost({ type: 'disconnect' })}>${s.connection === 'connecting' ? 'Cancel' : 'Disconnect'}</button>`
        : html`<button @click=${() => postToHost({ type: 'connect' })} ?disabled=${!s.selectedAgentId}>Connect</button>`}
      <div class="state ${s.connection}" role="status" aria-live="polite">
        <span class="dot"></span>${stateLabel[s.connection]}${s.agentLabel ? html` · <span class="agent">${s.agentLabel}</span>` : nothing}
      </div>
    `;
  }

  private onPick(event: Event): void {
    postToHost({ type: 'selectAgent', agentId: (event.target as HTMLSelectElement).value });
  }
}

customElements.define('acp-chat-header', ChatHeader);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-header': ChatHeader;
  }
}
