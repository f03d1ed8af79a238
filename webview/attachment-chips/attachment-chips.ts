/**
 * <acp-attachment-chips>: attachments as chips. In the composer
 * (`.chips`, removable) each says whether it is being read, ready, or why
 * it cannot be sent; in a sent or replayed prompt (`.sent`) they are display
 * only. Each chip's Remove button is in the tab order, named after it.
 */
import { css, html, LitElement, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { AttachmentChip, AttachmentIcon, SentAttachment } from '../../src/shared/attachments';
import { codicon, codiconStyles, type CodiconName } from '../shared/codicons';
import { toHost } from '../shared/to-host';

/** The codicon of each kind of attachment (the `@` menu uses them too). */
export const ATTACHMENT_ICONS: Record<AttachmentIcon, CodiconName> = {
  file: 'file',
  image: 'file-media',
  selection: 'list-selection',
  folder: 'folder',
  problems: 'warning',
  comment: 'comment',
  changes: 'diff-modified',
  terminal: 'terminal',
};

export class AttachmentChips extends LitElement {
  static override properties = { chips: { attribute: false }, sent: { attribute: false } };
  /** The composer's attachments (removable). */
  declare chips: readonly AttachmentChip[];
  /** A sent prompt's attachments (display only). */
  declare sent: readonly SentAttachment[];

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; }
    ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; }
    li { display: inline-flex; align-items: center; gap: 4px; max-width: 100%; padding: 1px 4px; border-radius: 3px;
      color: var(--vscode-badge-foreground); background: var(--vscode-badge-background); font-size: 0.92em; }
    li.error { color: var(--vscode-inputValidation-errorForeground, var(--vscode-foreground)); background: var(--vscode-inputValidation-errorBackground, transparent);
      border: 1px solid var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
    .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .why { display: block; width: 100%; font-size: 0.92em; color: var(--vscode-errorForeground); overflow-wrap: anywhere; }
    button { display: inline-flex; padding: 0; border: none; background: none; color: inherit; cursor: pointer; border-radius: 2px; }
    button:hover { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
    .codicon { font-size: 14px; }
    .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  `,
  ];

  /** Removed here, not yet gone from `chips` (the host's status follows). */
  private readonly removed = new Set<string>();

  constructor() {
    super();
    this.chips = [];
    this.sent = [];
  }

  override render() {
    if (this.chips.length > 0) {
      return html`<ul aria-label="Attachments">${repeat(
        this.chips.filter((c) => !this.removed.has(c.id)),
        (c) => c.id,
        (c) => html`
        <li class=${c.state} data-id=${c.id} title=${[c.detail, c.message].filter(Boolean).join('\n') || nothing}>
          ${c.state === 'preparing' ? codicon('loading', 'spin') : c.state === 'error' ? codicon('error') : codicon(ATTACHMENT_ICONS[c.icon])}
          <span class="label">${c.label}</span>
          ${c.state === 'preparing' ? html`<span class="sr-only">(being read)</span>` : c.state === 'error' ? html`<span class="sr-only">(cannot be sent)</span>` : nothing}
          <button aria-label=${`Remove ${c.label}`} @click=${() => this.removeChip(c.id)}>${codicon('close')}</button>
          ${c.state === 'error' && c.message ? html`<span class="why">${c.message}</span>` : nothing}
        </li>`,
      )}</ul>`;
    }
    if (this.sent.length === 0) return nothing;
    return html`<ul aria-label="Attached">${this.sent.map((a) => html`<li>${codicon(ATTACHMENT_ICONS[a.icon] ?? 'file')}<span class="label">${a.label}</span></li>`)}</ul>`;
  }

  protected override willUpdate(): void {
    for (const id of this.removed) if (!this.chips.some((c) => c.id === id)) this.removed.delete(id);
  }

  private removeChip(id: string): void {
    const buttons = [...this.renderRoot.querySelectorAll('button')];
    const index = buttons.findIndex((b) => b.closest('li')?.dataset.id === id);
    // Focus goes to the next chip's Remove button (or the one before), never lost to the page.
    const next = buttons[index + 1] ?? buttons[index - 1];
    this.removed.add(id);
    this.requestUpdate();
    toHost(this, { type: 'removeAttachment', id });
    if (next) next.focus();
    else this.dispatchEvent(new CustomEvent('acp-chips-empty', { bubbles: true, composed: true }));
  }
}

customElements.define('acp-attachment-chips', AttachmentChips);

declare global {
  interface HTMLElementTagNameMap {
    'acp-attachment-chips': AttachmentChips;
  }
}
