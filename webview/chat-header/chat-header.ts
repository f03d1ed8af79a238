/**
 * <acp-chat-header>: one line over the transcript: the open chats (when there
 * are several) or the session's title when the agent gave one, how full the
 * context window is, the connection state, Follow, and Connect / Disconnect. The agent, mode and model pickers
 * are in the composer's toolbar, under the text box.
 */
import { css, html, LitElement, nothing } from 'lit';
import type { WebviewMessage } from '../../src/shared/page/pageMessages';
import type { ViewStatus } from '../../src/shared/page/protocol';
import { codicon, codiconStyles, srOnlyStyles, type CodiconName } from '../shared/codicons';
import { compactPickerStyles } from '../shared/compact-picker.styles';
import { toHost } from '../shared/to-host';
import '../chat-list/chat-list';
import '../usage-meter/usage-meter';

/** What the one-line header shows of the state (the whole sentence is in the tooltip and read by screen readers). */
const shortLabel: Record<ViewStatus['connection'], string> = {
  disconnected: 'Not connected',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  connected: 'Connected',
  failed: 'Failed',
};

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
    :host { container-type: inline-size; display: flex; align-items: center; gap: 4px; min-height: 22px; padding: 3px 4px 3px 8px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    acp-chat-list { flex: 1 1 auto; min-width: 8em; }
    /* The agent's title for the session: one line, the whole of it in the tooltip. */
    .title { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
    .spacer { flex: 1 1 auto; }
    /* The connection's words are not given up for the title's: the title shrinks first. */
    .state { flex: 0 0 auto; max-width: 40%; display: flex; align-items: center; gap: 4px; min-width: 0; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .state .short { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    /*
     * Beside the chat list in a narrow side bar (VS Code opens it at 292 px), the words would show cut and push Install
     * out of the view, and "Connected" would take the title's room: the icon says it, the whole sentence is in the
     * tooltip and read by screen readers.
     */
    @container (max-width: 340px) { acp-chat-list ~ .state .short, .state.connected .short { display: none; } }
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
   * The connection as an icon and a word beside it (in a narrow side bar, the icon alone: the whole sentence is in the
   * tooltip and read by screen readers).
   */
  private renderState() {
    const s = this.status;
    const missing = notInstalled(s);
    const label = missing?.text ?? stateLabel[s.connection];
    const short = missing?.short ?? shortLabel[s.connection];
    const icon = trying(s) ? 'loading' : s.connection === 'connected' ? 'circle-large-filled' : 'circle-large';
    return html`<div class="state ${s.connection}" role="status" aria-live="polite" title=${s.agentLabel ? `${label} · ${s.agentLabel}` : label}>
      ${codicon(icon, trying(s) ? 'spin' : '')}
      <span class="label sr-only">${label}${s.agentLabel ? html` · <span class="agent">${s.agentLabel}</span>` : nothing}</span>
      ${short ? html`<span class="short" aria-hidden="true">${short}</span>` : nothing}
    </div>`;
  }

  /** Agent text: a text node and an attribute value, nothing else. Outside the live region: a new title is not announced. */
  private renderTitle() {
    const title = this.status.title?.trim();
    if (!title) return undefined;
    return html`<div class="title" title=${title}><span class="sr-only">Session: </span>${title}</div>`;
  }

  /**
   * Connect, Cancel, Disconnect, Install or Open Settings, as the state says: one button element whatever it does, so
   * that focus stays on it when a click changes what it is (Connect becomes Cancel, then Disconnect).
   */
  private renderConnectButton() {
    const a = connectAction(this.status);
    return html`<button class="icon connect ${a.text ? 'text' : ''}" aria-label=${a.label} title=${a.title} ?disabled=${a.message === undefined}
      @click=${() => a.message && toHost(this, a.message)}>${codicon(a.icon)}${a.text ?? nothing}</button>`;
  }
}

interface ConnectAction {
  label: string;
  title: string;
  icon: CodiconName;
  /** Words beside the icon (for the actions a new user has to find). */
  text?: string;
  /** What a click asks of the host; none: disabled. */
  message?: WebviewMessage;
}

function connectAction(s: ViewStatus): ConnectAction {
  if (trying(s)) return { label: 'Cancel', title: 'Cancel connecting', icon: 'close', message: { type: 'disconnect' } };
  if (s.connection === 'connected') {
    return { label: 'Disconnect', title: 'Disconnect', icon: 'debug-disconnect', message: { type: 'disconnect' } };
  }
  const agent = s.agents.find((a) => a.id === s.selectedAgentId);
  if (agent && !agent.available && agent.install) {
    // The agent's own installer, in a terminal, only on this click.
    const message: WebviewMessage = { type: 'installAgent', agentId: agent.id };
    return {
      label: 'Install',
      title: `Installs it with "${agent.install}" into this extension's storage, after showing what will run`,
      icon: 'desktop-download',
      text: 'Install',
      message,
    };
  }
  if (agent && !agent.available) {
    // Connect would only fail again: where the agent's command is set instead.
    const title = `${agent.detail ?? `${agent.name} was not found`}: its command is set in the setting vscode-acp.agents`;
    return {
      label: 'Open Settings',
      title,
      icon: 'settings-gear',
      text: 'Settings',
      message: { type: 'openSettings' },
    };
  }
  const title = agent ? `Connect to ${agent.name}` : 'Connect';
  return { label: 'Connect', title, icon: 'plug', ...(s.selectedAgentId ? { message: { type: 'connect' } } : {}) };
}

/** "X is not installed" while the selected agent cannot be found (and the chat is not connected). */
function notInstalled(s: ViewStatus): { text: string; short: string } | undefined {
  const agent = s.agents.find((a) => a.id === s.selectedAgentId);
  if (!agent || agent.available || s.connection === 'connected' || trying(s)) return undefined;
  return agent.install
    ? { text: `${agent.name} is not installed`, short: 'Not installed' }
    : { text: `${agent.name} was not found`, short: 'Not found' };
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
