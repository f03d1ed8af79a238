/**
 * <acp-chat-header>: the open chats (when there are several), agent picker, Connect / Disconnect, connection state and
 * the agent's name, the session's title when the agent gave one; below them,
 * once connected, the session's settings and context use.
 */
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import type { ViewStatus } from '../../src/shared/protocol';
import { codicon, codiconStyles, srOnlyStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';
import '../chat-list/chat-list';
import '../session-controls/session-controls';
import '../usage-meter/usage-meter';

const stateLabel: Record<ViewStatus['connection'], string> = {
  disconnected: 'Not connected',
  connecting: 'Connecting…',
  reconnecting: 'Connection lost, reconnecting…',
  connected: 'Connected',
  failed: 'Disconnected (failed)',
};

export class ChatHeader extends LitElement {
  static override properties = { status: { attribute: false } };
  declare status: ViewStatus;

  static override styles = [
    codiconStyles,
    srOnlyStyles,
    css`
    :host { display: flex; flex-direction: column; gap: 4px; padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    .row { display: flex; align-items: center; gap: 6px; min-width: 0; }
    select { flex: 1 1 8em; min-width: 0; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); padding: 2px 4px; font: inherit; }
    button { display: inline-flex; align-items: center; gap: 4px; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: none; padding: 3px 8px; font: inherit; cursor: pointer; white-space: nowrap; }
    button:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button:disabled { opacity: 0.6; cursor: default; }
    button.follow[aria-pressed='true'] { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
    button.follow[aria-pressed='true']:hover { background: var(--vscode-button-hoverBackground); }
    button:focus-visible, select:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
    .state { display: flex; align-items: center; gap: 4px; min-width: 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .state .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .state .codicon { font-size: 12px; }
    /* charts.green, not testing.iconPassed: the latter is #73c991 in the light themes, 1.9:1 on a light side bar. */
    .connected .codicon { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
    .failed .codicon { color: var(--vscode-errorForeground, inherit); }
    /* The agent's title for the session: one line, the whole of it in the tooltip. */
    .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
    .session { flex-wrap: wrap; justify-content: space-between; row-gap: 4px; }
    .session:not(:has(> :not([hidden]))) { display: none; }
    acp-session-controls { flex: 1 1 auto; }
  `,
  ];

  override render() {
    const s = this.status;
    return html`
      <acp-chat-list .chats=${s.chats} .chatId=${s.chatId} ?hidden=${s.chats.length < 2}></acp-chat-list>
      <div class="row">
        <select aria-label="Agent" ?disabled=${trying(s)} @change=${this.onPick}>
          ${s.agents.filter((a) => a.available).map((a) => agentOption(a, s.selectedAgentId))}
          ${
            // The agents that are not installed, after the usable ones and apart: picking one offers its install.
            s.agents.some((a) => !a.available)
              ? html`<optgroup label="Not installed">${s.agents.filter((a) => !a.available).map((a) => agentOption(a, s.selectedAgentId))}</optgroup>`
              : nothing
          }
        </select>
        ${this.renderConnectButton()}
        ${
          s.follow !== undefined
            ? html`<button class="follow" aria-pressed=${s.follow ? 'true' : 'false'}
          title="Follow the agent: while it works, open the file it is at (in a preview editor, without taking focus)"
          @click=${() => toHost(this, { type: 'setFollow', on: !s.follow })}>${codicon('eye')}Follow</button>`
            : nothing
        }
      </div>
      <div class="state ${s.connection}" role="status" aria-live="polite">
        ${codicon(trying(s) ? 'loading' : s.connection === 'connected' ? 'circle-large-filled' : 'circle-large', trying(s) ? 'spin' : '')}
        <span class="label">${notInstalled(s) ?? stateLabel[s.connection]}${s.agentLabel ? html` · <span class="agent">${s.agentLabel}</span>` : nothing}</span>
      </div>
      ${this.renderTitle()}
      ${
        s.connection === 'connected'
          ? html`<div class="row session">
        <acp-session-controls .controls=${s.controls}></acp-session-controls>
        <acp-usage-meter .usage=${s.controls.usage}></acp-usage-meter>
      </div>`
          : nothing
      }
    `;
  }

  /** Agent text: a text node and an attribute value, nothing else. Outside the live region: a new title is not announced. */
  private renderTitle() {
    const title = this.status.title?.trim();
    if (!title) return nothing;
    return html`<div class="title" title=${title}><span class="sr-only">Session: </span>${title}</div>`;
  }

  private renderConnectButton() {
    const s = this.status;
    if (trying(s)) {
      return html`<button @click=${() => toHost(this, { type: 'disconnect' })}>${codicon('close')}Cancel</button>`;
    }
    if (s.connection === 'connected') {
      return html`<button @click=${() => toHost(this, { type: 'disconnect' })}>${codicon('debug-disconnect')}Disconnect</button>`;
    }
    const agent = s.agents.find((a) => a.id === s.selectedAgentId);
    if (agent && !agent.available && agent.install) {
      // The agent's own installer, in a terminal, only on this click.
      return html`<button title=${`Runs "${agent.install}" in a terminal`} @click=${() => toHost(this, { type: 'installAgent', agentId: agent.id })}>${codicon('desktop-download')}Install</button>`;
    }
    return html`<button @click=${() => toHost(this, { type: 'connect' })} ?disabled=${!s.selectedAgentId}>${codicon('plug')}Connect</button>`;
  }

  private onPick(event: Event): void {
    toHost(this, { type: 'selectAgent', agentId: (event.target as HTMLSelectElement).value });
  }
}

/** "X is not installed" while the selected agent cannot be found (and the chat is not connected). */
function notInstalled(s: ViewStatus): string | undefined {
  const agent = s.agents.find((a) => a.id === s.selectedAgentId);
  if (!agent || agent.available || s.connection === 'connected' || trying(s)) return undefined;
  return agent.install ? `${agent.name} is not installed` : `${agent.name} was not found`;
}

function agentOption(agent: ViewStatus['agents'][number], selectedId: string | undefined): TemplateResult {
  return html`<option value=${agent.id} ?selected=${agent.id === selectedId} title=${agent.detail ?? ''}>${agent.name}</option>`;
}

/** Connecting, or reconnecting after a drop: Cancel stops it. */
function trying(s: ViewStatus): boolean {
  return s.connection === 'connecting' || s.connection === 'reconnecting';
}

customElements.define('acp-chat-header', ChatHeader);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-header': ChatHeader;
  }
}
