/**
 * <acp-copy-button .text=${string} label="Copy code">: puts `text` on the
 * clipboard through the host (`copyText`; a webview cannot be trusted with
 * clipboard access of its own) and says "Copied" for a moment.
 */
import { css, html, LitElement } from 'lit';
import { codicon, codiconStyles } from '../chat-app/codicons';
import { postToHost } from '../host';

const CONFIRM_MS = 1500;

export class CopyButton extends LitElement {
  static override properties = { text: { attribute: false }, label: {}, copied: { state: true } };
  declare text: string;
  declare label: string;
  declare copied: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;

  static override styles = [codiconStyles, css`
    :host { display: inline-flex; }
    button {
      display: inline-flex; align-items: center; gap: 4px; padding: 2px 4px; border: 1px solid transparent; border-radius: 3px;
      background: transparent; color: var(--vscode-icon-foreground, currentColor); font: inherit; cursor: pointer;
    }
    /* contrastActiveBorder exists only in high-contrast themes. */
    button:hover { background: var(--vscode-toolbar-hoverBackground, rgba(128, 128, 128, 0.2)); border: 1px dashed var(--vscode-contrastActiveBorder, transparent); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .done { font-size: 0.9em; }
  `];

  constructor() {
    super();
    this.text = '';
    this.label = 'Copy';
    this.copied = false;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  override render() {
    return html`<button type="button" aria-label=${this.copied ? 'Copied' : this.label} title=${this.label} @click=${this.copy}>
      ${this.copied ? codicon('check') : codicon('copy')}${this.copied ? html`<span class="done" aria-hidden="true">Copied</span>` : ''}
    </button>`;
  }

  private copy(): void {
    postToHost({ type: 'copyText', text: this.text });
    this.copied = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.copied = false; }, CONFIRM_MS);
  }
}

customElements.define('acp-copy-button', CopyButton);

declare global {
  interface HTMLElementTagNameMap {
    'acp-copy-button': CopyButton;
  }
}
