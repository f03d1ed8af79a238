/**
 * <acp-copy-button .text=${string} label="Copy code">: puts `text` on the
 * clipboard through the host (`copyText`; a webview cannot be trusted with
 * clipboard access of its own) and says "Copied" for a moment.
 *
 * No shadow root: there is one per code block, and each shadow root's
 * style sheets cost the page a style pass of their own (a stream of short
 * code blocks spent a quarter of its style time on them); its styles are
 * `copyButtonStyles`, part of the Markdown's.
 */
import { css, html, LitElement } from 'lit';
import { codicon } from '../../shared/codicons';
import { toHost } from '../../shared/to-host';

const CONFIRM_MS = 1500;

/** The button's styles, for the shadow root it is in. */
export const copyButtonStyles = css`
  acp-copy-button { display: inline-flex; }
  acp-copy-button > button {
    display: inline-flex; align-items: center; gap: 4px; padding: 2px 4px; border: 1px solid transparent; border-radius: 3px;
    background: transparent; color: var(--vscode-icon-foreground, currentColor); font: inherit; cursor: pointer;
  }
  /* contrastActiveBorder exists only in high-contrast themes. */
  acp-copy-button > button:hover { background: var(--vscode-toolbar-hoverBackground, rgba(128, 128, 128, 0.2)); border: 1px dashed var(--vscode-contrastActiveBorder, transparent); }
  acp-copy-button > button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  acp-copy-button .done { font-size: 0.9em; }
`;

export class CopyButton extends LitElement {
  static override properties = { text: { attribute: false }, label: {}, copied: { state: true } };
  declare text: string;
  declare label: string;
  declare copied: boolean;
  private timer: ReturnType<typeof setTimeout> | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

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
    toHost(this, { type: 'copyText', text: this.text });
    this.copied = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.copied = false;
    }, CONFIRM_MS);
  }
}

customElements.define('acp-copy-button', CopyButton);

declare global {
  interface HTMLElementTagNameMap {
    'acp-copy-button': CopyButton;
  }
}
