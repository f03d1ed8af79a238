/**
 * <acp-chat-header>: one line over the transcript: the open chats (when there
 * are several) or the session's title when the agent gave one, how full the
 * context window is, the connection state, Follow, and Connect / Disconnect. The agent, mode and model pickers
 * are in the composer's toolbar, under the text box.
 */
import { css, html, LitElement, nothing } from 'lit';
import type { ViewStatus } from '../../src/shared/protocol';
import { codicon, codiconStyles, srOnlyStyles } from '../shared/codicons';
import { compactPickerStyles } from '../shared/compact-picker.styles';
import { toHost } from '../shared/to-host';
import '../chat-list/chat-list';
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
    compactPickerStyles,
    css`
    :host { display: flex; align-items: center; gap: 4px; min-height: 22px; padding: 3px 4px 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    acp-chat-list { flex: 1 1 auto; min-width: 0; }
    /* The agent's title for the session: one line, the whole of it in the tooltip. */
    .title { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
    .spacer { flex: 1 1 auto; }
    /* The connection's words are not given up for the title's: the title shrinks first. */
    .state { flex: 0 0 auto; max-width: 65%; display: flex; align-items: center; gap: 4px; min-width: 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .state .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .state .codicon { font-size: 12px; }
    /* charts.green, not testing.iconPassed: the latter is #73c991 in the light themes, 1.9:1 on a light side bar. */
    .connected .codicon { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
    .failed .codicon { color: var(--vscode-errorForeground, inherit); }
    button.icon { flex: none; }
    acp-usage-meter { flex: none; margin: 0 4px; }
    button.follow[aria-pressed='true'] { color: var(--vscode-inputOption-activeForeground, inherit); background: var(--vscode-inputOption-activeBackground, transparent); outline: 1px solid var(--vscode-inputOption-activeBorder, transparent); outline-offset: -1px; }
    button.text { padding: 2px 6px; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    button.text:hover { background: var(--vscode-button-secondaryHoverBackground); }
  `,
  ];

  override render() {
    const s = this.status;
    const several = s.chats.length > 1;
    return html`
      ${several ? html`<acp-chat-list .chats=${s.chats} .chatId=${s.chatId}></acp-chat-list>` : (this.renderTitle() ?? html`<span class="spacer"></span>`)}
      ${s.connection === 'connected' ? html`<acp-usage-meter .usage=${s.controls.usage}></acp-usage-meter>` : nothing}
      ${this.renderState()}
      ${
        s.follow !== undefined
          ? html`<button class="icon follow" aria-pressed=${s.follow ? 'true' : 'false'} aria-label="Follow the agent"
          title="Follow the agent: while it works, open the file it is at (in a preview editor, without taking focus)"
          @click=${() => toHost(this, { type: 'setFollow', on: !s.follow })}>${codicon('eye')}</button>`
          : nothing
      }
      ${this.renderConnectButton()}
    `;
  }

  /**
   * The connection as an icon, in words while it is not simply connected (the
   * words stay for screen readers and the tooltip once it is).
   */
  private renderState() {
    const s = this.status;
    const label = notInstalled(s) ?? stateLabel[s.connection];
    const icon = trying(s) ? 'loading' : s.connection === 'connected' ? 'circle-large-filled' : 'circle-large';
    return html`<div class="state ${s.connection}" role="status" aria-live="polite" title=${s.agentLabel ? `${label} · ${s.agentLabel}` : label}>
      ${codicon(icon, trying(s) ? 'spin' : '')}
      <span class="label ${s.connection === 'connected' ? 'sr-only' : ''}">${label}${s.agentLabel ? html` · <span class="agent">${s.agentLabel}</span>` : nothing}</span>
    </div>`;
  }

  /** Agent text: a text node and an attribute value, nothing else. Outside the live region: a new title is not announced. */
  private renderTitle() {
    const title = this.status.title?.trim();
    if (!title) return undefined;
    return html`<div class="title" title=${title}><span class="sr-only">Session: </span>${title}</div>`;
  }

  private renderConnectButton() {
    const s = this.status;
    if (trying(s)) {
      return html`<button class="icon" aria-label="Cancel" title="Cancel connecting" @click=${() => toHost(this, { type: 'disconnect' })}>${codicon('close')}</button>`;
    }
    if (s.connection === 'connected') {
      return html`<button class="icon" aria-label="Disconnect" title="Disconnect" @click=${() => toHost(this, { type: 'disconnect' })}>${codicon('debug-disconnect')}</button>`;
    }
    const agent = s.agents.find((a) => a.id === s.selectedAgentId);
    if (agent && !agent.available && agent.install) {
      // The agent's own installer, in a terminal, only on this click.
      return html`<button class="icon text" title=${`Runs "${agent.install}" in a terminal`} @click=${() => toHost(this, { type: 'installAgent', agentId: agent.id })}>${codicon('desktop-download')}Install</button>`;
    }
    if (agent && !agent.available) {
      // Connect would only fail again: where the agent's command is set instead.
      return html`<button class="icon text" title=${`${agent.detail ?? `${agent.name} was not found`}: its command is set in the setting vscode-acp.agents`} @click=${() => toHost(this, { type: 'openSettings' })}>${codicon('settings-gear')}Open Settings</button>`;
    }
    return html`<button class="icon" aria-label="Connect" title=${agent ? `Connect to ${agent.name}` : 'Connect'} @click=${() => toHost(this, { type: 'connect' })} ?disabled=${!s.selectedAgentId}>${codicon('plug')}</button>`;
  }
}

/** "X is not installed" while the selected agent cannot be found (and the chat is not connected). */
function notInstalled(s: ViewStatus): string | undefined {
  const agent = s.agents.find((a) => a.id === s.selectedAgentId);
  if (!agent || agent.available || s.connection === 'connected' || trying(s)) return undefined;
  return agent.install ? `${agent.name} is not installed` : `${agent.name} was not found`;
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
