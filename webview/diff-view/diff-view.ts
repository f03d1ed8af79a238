/**
 * <acp-diff-view .path .oldText .newText>: a file edit as a unified diff with
 * old and new line numbers. The diff is computed (jsdiff) only when the texts
 * change, not on every render of the card around it.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { assertNever } from '../../src/shared/thread/thread';
import { srOnlyStyles } from '../shared/codicons';
import { pieceStyles, plainText } from '../shared/text-pieces';
import { diffRows, rowsOf, type DiffModel, type DiffRow } from './diff-rows';
import { fileChangeLabel, type FileChange, type Hunk } from '../../src/shared/thread/fileChanges';
import { shownPath } from '../shared/shown-path';

export class DiffView extends LitElement {
  static override properties = {
    path: {},
    oldText: { attribute: false },
    newText: { attribute: false },
    tooLarge: { attribute: false },
    change: { attribute: false },
    hunks: { attribute: false },
    oldFrom: { attribute: false },
  };
  declare path: string;
  /** Null for a new file. */
  declare oldText: string | null;
  declare newText: string;
  /** Set by the host for an edit too large to keep: only its line counts came. */
  declare tooLarge: { oldLines: number; newLines: number } | undefined;
  /** A structured change (ACP v2): what happened to the file; its texts were not sent. */
  declare change: FileChange | undefined;
  /** The change's hunks, where the agent gave them. */
  declare hunks: readonly Hunk[] | undefined;
  /** The agent sent no old text for a file that is there: the old side is the file as it was when it asked, or unknown. */
  declare oldFrom: 'disk' | 'unknown' | undefined;
  private model: DiffModel = { kind: 'rows', rows: [], added: 0, removed: 0, hiddenRows: 0 };

  static override styles = [
    srOnlyStyles,
    pieceStyles,
    css`
    :host { display: block; font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px); }
    .summary { color: var(--vscode-descriptionForeground); margin: 2px 0; font-family: var(--vscode-font-family); font-size: 0.9em; }
    .rows { display: grid; grid-template-columns: max-content max-content max-content minmax(0, 1fr); border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); }
    .row { display: contents; }
    .row > span { padding: 0 4px; line-height: 1.45; }
    .ln { text-align: right; color: var(--vscode-editorLineNumber-foreground, var(--vscode-descriptionForeground)); user-select: none; }
    .sign { user-select: none; }
    .text { white-space: pre-wrap; overflow-wrap: anywhere; }
    .added > span { background: var(--vscode-diffEditor-insertedLineBackground, var(--vscode-diffEditor-insertedTextBackground, rgba(155, 185, 85, 0.2))); }
    .removed > span { background: var(--vscode-diffEditor-removedLineBackground, var(--vscode-diffEditor-removedTextBackground, rgba(255, 0, 0, 0.2))); }
    .added > .ln, .added > .sign { background: var(--vscode-diffEditorGutter-insertedLineBackground, var(--vscode-diffEditor-insertedTextBackground, rgba(155, 185, 85, 0.3))); }
    .removed > .ln, .removed > .sign { background: var(--vscode-diffEditorGutter-removedLineBackground, var(--vscode-diffEditor-removedTextBackground, rgba(255, 0, 0, 0.3))); }
    /* On the coloured gutter the dimmer line number colour is too faint to read. */
    .added > .ln, .removed > .ln { color: inherit; }
    .added > .sign { color: var(--vscode-gitDecoration-addedResourceForeground, inherit); }
    .removed > .sign { color: var(--vscode-gitDecoration-deletedResourceForeground, inherit); }
    .hunk > span, .note > span { color: var(--vscode-descriptionForeground); background: var(--vscode-editorGutter-background, transparent); }
    .hunk > .text, .note > .text { grid-column: 1 / -1; font-style: italic; }
    .more { color: var(--vscode-descriptionForeground); margin: 2px 0; }
  `,
  ];

  constructor() {
    super();
    this.path = '';
    this.oldText = null;
    this.newText = '';
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('oldText') || changed.has('newText') || changed.has('tooLarge') || changed.has('hunks')) {
      this.model = this.tooLarge
        ? { kind: 'tooLarge', ...this.tooLarge }
        : this.change
          ? rowsOf(this.hunks ?? [])
          : diffRows(this.oldText, this.newText);
    }
  }

  override render() {
    const m = this.model;
    if (m.kind === 'tooLarge') {
      return html`<p class="summary">Too large to show as a diff (${m.oldLines} lines before, ${m.newLines} after).</p>`;
    }
    // A moved or copied file's old path as the links show paths: relative to the workspace where it is inside.
    const change = this.change?.oldPath ? { ...this.change, oldPath: shownPath(this.change.oldPath) } : this.change;
    if (change && m.rows.length === 0) {
      return html`<p class="summary">${fileChangeLabel(change) || 'Modified'}</p>`;
    }
    const what = change
      ? fileChangeLabel(change)
      : this.oldFrom
        ? OLD_FROM[this.oldFrom].label
        : this.oldText === null
          ? 'New file'
          : m.added + m.removed === 0
            ? 'No changes'
            : '';
    return html`
      <p class="summary" title=${this.oldFrom && !change ? OLD_FROM[this.oldFrom].why : nothing}>${what ? `${what} · ` : nothing}<span title="Lines added">+${m.added}</span> <span title="Lines removed">−${m.removed}</span></p>
      ${m.rows.length ? html`<div class="rows" role="group" aria-label=${`Changes to ${this.path}`}>${m.rows.map(renderRow)}</div>` : nothing}
      ${m.hiddenRows ? html`<p class="more">${m.hiddenRows} more lines not shown.</p>` : nothing}
    `;
  }
}

/** What a diff whose old text the agent did not send says of it (shared/oldTexts.ts): short, and in its tooltip. */
const OLD_FROM = {
  disk: {
    label: 'Against the file now',
    why: 'The agent did not send what this edit replaces: the diff is against the file as it was when the agent asked.',
  },
  unknown: {
    label: 'Old text not sent',
    why: 'The agent did not send what this edit replaces, and the file could not be read here: the lines shown are all of its new text, not what changes.',
  },
} as const;

function renderRow(row: DiffRow) {
  switch (row.kind) {
    case 'hunk':
      return html`<div class="row hunk"><span class="text">${row.header}</span></div>`;
    case 'note':
      return html`<div class="row note"><span class="text">${row.text}</span></div>`;
    case 'context':
      return line('context', row.oldLine, row.newLine, ' ', '', row.text);
    case 'added':
      return line('added', undefined, row.newLine, '+', 'added: ', row.text);
    case 'removed':
      return line('removed', row.oldLine, undefined, '−', 'removed: ', row.text);
    default:
      return assertNever(row);
  }
}

/** Line numbers and sign are visual; a screen reader hears "added: text". */
function line(
  kind: string,
  oldLine: number | undefined,
  newLine: number | undefined,
  sign: string,
  spoken: string,
  text: string,
) {
  return html`<div class="row ${kind}"><span class="ln old" aria-hidden="true">${oldLine ?? ''}</span><span class="ln new" aria-hidden="true">${newLine ?? ''}</span><span class="sign" aria-hidden="true">${sign}</span><span class="text">${spoken ? html`<span class="sr-only">${spoken}</span>` : nothing}${plainText(text)}</span></div>`;
}

customElements.define('acp-diff-view', DiffView);

declare global {
  interface HTMLElementTagNameMap {
    'acp-diff-view': DiffView;
  }
}
