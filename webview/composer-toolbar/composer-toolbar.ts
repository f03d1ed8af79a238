/**
 * <acp-composer-toolbar .status=${ViewStatus}>: what the next prompt goes to,
 * under the text box (as Zed's and VS Code's chats keep it): the agent picker
 * until the chat is connected, then the session's mode and model in its place
 * (the rest behind "more"). A connected chat's agent is named in the view's
 * title and the chat list; another agent is a New Chat away. Compact, so the
 * transcript keeps the height, and the mode and model keep their whole labels
 * at 500 px.
 */
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ViewStatus } from '../../src/shared/page/protocol';
import { compactPickerStyles } from '../shared/compact-picker.styles';
import { toHost } from '../shared/to-host';
import '../session-controls/session-controls';

export class ComposerToolbar extends LitElement {
  static override properties = { status: { attribute: false } };
  declare status: ViewStatus | undefined;

  static override styles = [
    compactPickerStyles,
    css`
    :host { display: flex; align-items: center; gap: 2px; min-width: 0; flex: 1 1 auto; }
  `,
  ];

  override render() {
    const s = this.status;
    if (!s) return nothing;
    const selected = s.agents.find((a) => a.id === s.selectedAgentId);
    const connecting = s.connection === 'connecting' || s.connection === 'reconnecting';
    if (s.connection === 'connected') {
      return html`<acp-session-controls .controls=${s.controls}></acp-session-controls>`;
    }
    return html`
      <span class="picker agent" title=${selected ? `Agent: ${selected.name}${selected.detail ? `\n${selected.detail}` : ''}` : 'Pick an agent'}>
        <select class="compact" aria-label="Agent" ?disabled=${connecting} @change=${this.onPick}>
          ${selected ? nothing : html`<option value="" .selected=${live(true)} disabled>Pick an agent</option>`}
          ${s.agents.filter((a) => a.available).map((a) => agentOption(a, s.selectedAgentId))}
          ${
            // The agents that are not installed, after the usable ones and apart: picking one offers its install.
            s.agents.some((a) => !a.available)
              ? html`<optgroup label="Not installed">${s.agents.filter((a) => !a.available).map((a) => agentOption(a, s.selectedAgentId))}</optgroup>`
              : nothing
          }
        </select>
      </span>
    `;
  }

  private onPick(event: Event): void {
    toHost(this, { type: 'selectAgent', agentId: (event.target as HTMLSelectElement).value });
  }
}

/**
 * `.selected` with `live`, not the `selected` attribute: once the user has picked from a select, the browser no longer
 * follows the attribute, and the picker of one chat would go on showing the agent picked in another.
 */
function agentOption(agent: ViewStatus['agents'][number], selectedId: string | undefined): TemplateResult {
  return html`<option value=${agent.id} .selected=${live(agent.id === selectedId)} title=${agent.detail ?? ''}>${agent.name}</option>`;
}

customElements.define('acp-composer-toolbar', ComposerToolbar);

declare global {
  interface HTMLElementTagNameMap {
    'acp-composer-toolbar': ComposerToolbar;
  }
}
