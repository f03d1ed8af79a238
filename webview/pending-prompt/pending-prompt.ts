/**
 * <acp-pending-prompt .text=${string}>: a prompt sent before the agent was
 * connected. It is sent once the connection is made; Cancel hands it back to
 * the composer.
 */
import { css, html, LitElement } from 'lit';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';

export class PendingPromptElement extends LitElement {
  static override properties = { text: { attribute: false } };
  declare text: string;

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; margin: 6px 8px; }
    section { border: 1px dashed var(--vscode-panel-border, var(--vscode-contrastBorder, currentColor)); border-radius: 4px; padding: 6px 8px; opacity: 0.85; }
    .state { display: flex; gap: 6px; align-items: center; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
    .text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 8em; overflow-y: auto; margin: 4px 0; }
    button { font: inherit; border: 1px solid var(--vscode-button-border, transparent); padding: 2px 10px; cursor: pointer;
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  `,
  ];

  constructor() {
    super();
    this.text = '';
  }

  override render() {
    return html`<section role="group" aria-label="Prompt waiting to be sent">
      <div class="state">${codicon('loading', 'spin')}<span>Waiting for the agent to connect; sent once it is.</span></div>
      <div class="text">${this.text}</div>
      <button @click=${() => toHost(this, { type: 'cancelPending' })}>Cancel</button>
    </section>`;
  }
}

customElements.define('acp-pending-prompt', PendingPromptElement);

declare global {
  interface HTMLElementTagNameMap {
    'acp-pending-prompt': PendingPromptElement;
  }
}
