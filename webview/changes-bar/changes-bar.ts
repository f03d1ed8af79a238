/**
 * <acp-changes-bar .changes=${Changes}>: above the composer, the files the
 * agent changed since the user last kept them, with their added and removed
 * lines. A file opens VS Code's diff editor; Keep and Undo act on one file,
 * Keep All and Undo All on every one. Hidden when nothing changed.
 */
import { css, html, LitElement, nothing } from 'lit';
import type { ChangedFile, Changes } from '../../src/shared/changes';
import { noChanges } from '../../src/shared/changes';
import { codicon, codiconStyles, type CodiconName } from '../shared/codicons';
import { toHost } from '../shared/to-host';

const ICONS: Record<ChangedFile['kind'], CodiconName> = {
  created: 'diff-added',
  edited: 'diff-modified',
  deleted: 'diff-removed',
};

export class ChangesBarElement extends LitElement {
  static override properties = { changes: { attribute: false }, open: { state: true } };
  declare changes: Changes;
  /** The list is shown (the summary line is always there). */
  declare open: boolean;

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; margin: 4px 8px 0; }
    section { border: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent)); border-radius: 4px; }
    .summary { display: flex; align-items: center; gap: 4px; padding: 2px 4px; }
    .toggle { flex: 1 1 auto; display: flex; align-items: center; justify-content: flex-start; gap: 4px; min-width: 0; text-align: start; }
    ul { list-style: none; margin: 0; padding: 0 0 2px; max-height: 30vh; overflow-y: auto; border-top: 1px solid var(--vscode-panel-border, transparent); }
    li { display: flex; align-items: center; gap: 4px; padding: 0 4px; }
    li:hover { background: var(--vscode-list-hoverBackground); }
    .file { flex: 1 1 auto; display: flex; align-items: center; justify-content: flex-start; gap: 6px; min-width: 0; text-align: start; }
    .name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; direction: rtl; text-align: left; }
    .created { color: var(--vscode-gitDecoration-addedResourceForeground, var(--vscode-charts-green)); }
    .edited { color: var(--vscode-gitDecoration-modifiedResourceForeground, var(--vscode-charts-yellow)); }
    .deleted { color: var(--vscode-gitDecoration-deletedResourceForeground, var(--vscode-charts-red)); }
    /* The counts keep the text colour (the git colours are too faint for small text in some themes): their sign says which. */
    .counts { flex: none; font-size: 0.9em; display: flex; gap: 4px; font-variant-numeric: tabular-nums; }
    .more { padding: 2px 8px; color: var(--vscode-descriptionForeground); }
    button { font: inherit; color: inherit; background: none; border: 1px solid transparent; border-radius: 3px; padding: 1px 3px; cursor: pointer;
      min-width: 24px; min-height: 24px; display: inline-flex; align-items: center; justify-content: center; }
    button:hover:not(:disabled) { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    button:disabled { opacity: 0.5; cursor: default; }
    .saved { flex: none; color: var(--vscode-editorWarning-foreground, var(--vscode-charts-yellow)); }
    .title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  `,
  ];

  constructor() {
    super();
    this.changes = noChanges;
    this.open = true;
  }

  override render() {
    const { files, total, busy } = this.changes;
    if (total === 0) return nothing;
    const added = files.reduce((n, f) => n + (f.added ?? 0), 0);
    const removed = files.reduce((n, f) => n + (f.removed ?? 0), 0);
    const title = `${total} ${total === 1 ? 'file' : 'files'} changed`;
    return html`<section role="region" aria-label="Files the agent changed" aria-busy=${busy ? 'true' : 'false'}>
      <div class="summary">
        <button class="toggle" aria-expanded=${this.open ? 'true' : 'false'} title=${`${title}${added ? ` +${added}` : ''}${removed ? ` -${removed}` : ''}`} @click=${() => (this.open = !this.open)}>
          ${codicon(this.open ? 'chevron-down' : 'chevron-right')}<span class="title">${title}</span>
          <span class="counts">${added ? html`<span class="added">+${added}</span>` : nothing}${removed ? html`<span class="removed">-${removed}</span>` : nothing}</span>
        </button>
        <button ?disabled=${busy} aria-label="Keep All" title="Keep All: every change as it is now" @click=${() => this.act('keep')}>${codicon('check-all')}</button>
        <button ?disabled=${busy} aria-label="Undo All" title="Undo All: every file back as it was before the agent changed it" @click=${() => this.act('undo')}>${codicon('discard')}</button>
      </div>
      ${
        this.open
          ? html`<ul>
        ${files.map((f) => this.row(f, busy))}
        ${total > files.length ? html`<li class="more">and ${total - files.length} more (Keep All and Undo All include them)</li>` : nothing}
      </ul>`
          : nothing
      }
    </section>`;
  }

  private row(file: ChangedFile, busy: boolean) {
    return html`<li>
      <button class="file" title="${file.label}: compare before the agent's change with now" aria-label="${file.label}, ${file.kind}: compare before the agent's change with now"
        @click=${() => this.act('open', file.path)}>
        <span class="${file.kind}">${codicon(ICONS[file.kind])}</span>
        <span class="name"><bdi>${file.label}</bdi></span>
      </button>
      ${file.userSaved ? html`<span class="saved" role="img" aria-label="Changed by you too" title="Changed by you too (saved while the agent worked on it, or between its turns): Undo asks first">${codicon('warning')}</span>` : nothing}
      <span class="counts">${file.added ? html`<span class="added">+${file.added}</span>` : nothing}${file.removed ? html`<span class="removed">-${file.removed}</span>` : nothing}</span>
      <button ?disabled=${busy} title="Keep" aria-label="Keep ${file.label}" @click=${() => this.act('keep', file.path)}>${codicon('check')}</button>
      <button ?disabled=${busy || file.noUndo !== undefined} title=${file.noUndo ?? 'Undo'} aria-label="Undo ${file.label}" @click=${() => this.act('undo', file.path)}>${codicon('discard')}</button>
    </li>`;
  }

  private act(action: 'open' | 'keep' | 'undo', path?: string): void {
    toHost(this, { type: 'changes', action, ...(path !== undefined ? { path } : {}) });
  }
}

customElements.define('acp-changes-bar', ChangesBarElement);

declare global {
  interface HTMLElementTagNameMap {
    'acp-changes-bar': ChangesBarElement;
  }
}
