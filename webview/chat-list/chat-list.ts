/**
 * <acp-chat-list>: the open chats, to switch between them (a native select:
 * keyboard and screen reader work as everywhere), with what each one wants
 * (asks permission, finished, failed) in its line, and Rename and Close for
 * the shown one. Hidden while only one chat is open.
 */
import { css, html, LitElement, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { wantsUser, type ChatMarker, type ChatSummary } from '../../src/shared/page/protocol';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';

/** Words, not only a symbol: a screen reader reads the option's text. */
const markerText: Record<ChatMarker, string> = {
  none: '',
  running: ' · working',
  permission: ' · asks permission',
  question: ' · asks you something',
  finished: ' · finished',
  failed: ' · failed',
};

export class ChatList extends LitElement {
  static override properties = { chats: { attribute: false }, chatId: { attribute: false } };
  declare chats: readonly ChatSummary[];
  declare chatId: string;

  static override styles = [
    codiconStyles,
    css`
    :host { display: flex; align-items: center; gap: 6px; min-width: 0; }
    :host([hidden]) { display: none; }
    :host { gap: 2px; }
    select { flex: 0 1 auto; field-sizing: content; min-width: 4em; max-width: 100%; text-overflow: ellipsis; color: var(--vscode-foreground); background: transparent; border: 1px solid transparent; border-radius: 3px; padding: 1px 0; font: inherit; font-weight: 600; cursor: pointer; }
    select:hover { background: var(--vscode-toolbar-hoverBackground); }
    option { font-weight: normal; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); }
    button { display: inline-flex; align-items: center; color: var(--vscode-icon-foreground, inherit); background: none; border: none; padding: 3px; cursor: pointer; border-radius: 3px; }
    button:hover { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible, select:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .attention { font-size: 0.9em; color: var(--vscode-descriptionForeground); white-space: nowrap; }
  `,
  ];

  constructor() {
    super();
    this.chats = [];
    this.chatId = '';
  }

  override render() {
    if (this.chats.length < 2) return nothing;
    const waiting = this.chats.filter((c) => c.id !== this.chatId && wantsUser(c.marker)).length;
    const label = (c: ChatSummary) => `${c.title} (${c.agentName})${markerText[c.marker]}`;
    const shown = this.chats.find((c) => c.id === this.chatId);
    // The side bar is narrow (292 px as VS Code opens it): the shown chat's whole name is in the tooltip.
    return html`
      <select aria-label="Chat" title=${shown ? `Chat: ${label(shown)}` : 'Chat'} @change=${this.onPick}>
        ${grouped(this.chats).map(([group, chats]) => {
          const options = chats.map(
            (c) => html`<option value=${c.id} .selected=${live(c.id === this.chatId)}>${label(c)}</option>`,
          );
          return group ? html`<optgroup label=${group}>${options}</optgroup>` : options;
        })}
      </select>
      ${waiting > 0 ? html`<span class="attention" title="Chats that want you">${codicon('bell-dot')} ${waiting}</span>` : nothing}
      <button title="Rename Chat..." aria-label="Rename chat" @click=${this.onRename}>${codicon('edit')}</button>
      <button title="Close Chat" aria-label="Close chat" @click=${this.onClose}>${codicon('close')}</button>
    `;
  }

  private onPick(event: Event): void {
    toHost(this, { type: 'showChat', chatId: (event.target as HTMLSelectElement).value });
  }

  private onRename(): void {
    toHost(this, { type: 'renameChat', chatId: this.chatId });
  }

  private onClose(): void {
    toHost(this, { type: 'closeChat', chatId: this.chatId });
  }
}

customElements.define('acp-chat-list', ChatList);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-list': ChatList;
  }
}

/** The chats in list order, those of one task (Ask Several Agents) together under it where the first of them is. */
function grouped(chats: readonly ChatSummary[]): Array<[string | undefined, ChatSummary[]]> {
  const runs: Array<[string | undefined, ChatSummary[]]> = [];
  for (const chat of chats) {
    const run = chat.group === undefined ? undefined : runs.find(([group]) => group === chat.group);
    if (run) run[1].push(chat);
    else runs.push([chat.group, [chat]]);
  }
  return runs;
}
