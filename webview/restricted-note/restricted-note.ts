/**
 * <acp-restricted-note .text=${string}>: the folder is in Restricted Mode,
 * what that turns off in the chat (the host says), and VS Code's own way to
 * trust it (the Workspace Trust editor). Without it a user sees features
 * that do nothing and concludes they are broken.
 */
import { css, html, LitElement } from 'lit';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';

export class RestrictedNote extends LitElement {
  static override properties = { text: { attribute: false } };
  declare text: string;

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; }
    .note { display: flex; align-items: center; gap: 6px; padding: 3px 8px; font-size: 0.9em;
      color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    .note .codicon { color: var(--vscode-editorWarning-foreground, inherit); }
    .text { flex: 1 1 auto; min-width: 0; }
    button { flex: none; font: inherit; cursor: pointer; padding: 1px 8px; border: 1px solid var(--vscode-button-border, transparent);
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    button:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  `,
  ];

  constructor() {
    super();
    this.text = '';
  }

  override render() {
    return html`<div class="note" role="note" aria-label="Restricted Mode">
      ${codicon('shield')}<span class="text">${this.text}</span>
      <button title="Manage Workspace Trust" aria-label="Manage Workspace Trust" @click=${() => toHost(this, { type: 'manageTrust' })}>Manage</button>
    </div>`;
  }
}

customElements.define('acp-restricted-note', RestrictedNote);

declare global {
  interface HTMLElementTagNameMap {
    'acp-restricted-note': RestrictedNote;
  }
}
