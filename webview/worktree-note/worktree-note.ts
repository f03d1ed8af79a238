/**
 * <acp-worktree-note .worktree=${{ label, path }}>: the chat works in its own Git worktree (issue 49), not in the
 * user's folder: which one (its path in the tooltip), and what to do with the agent's work there: Apply it to the
 * workspace, open the worktree in a new window, or discard it. Under the header, as Restricted Mode's note is.
 */
import { css, html, LitElement } from 'lit';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';

export class WorktreeNote extends LitElement {
  static override properties = { worktree: { attribute: false } };
  declare worktree: { label: string; path: string };

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; }
    .note { display: flex; align-items: center; gap: 4px; padding: 3px 8px; font-size: 0.9em;
      color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    .text { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    button { flex: none; font: inherit; cursor: pointer; padding: 1px 6px; border: 1px solid var(--vscode-button-border, transparent);
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    button:hover { background: var(--vscode-button-secondaryHoverBackground); }
    button.icon { padding: 1px 3px; color: inherit; background: none; border-color: transparent; }
    button.icon:hover { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `,
  ];

  constructor() {
    super();
    this.worktree = { label: '', path: '' };
  }

  override render() {
    const act = (action: 'apply' | 'open' | 'discard') => () => toHost(this, { type: 'worktree', action });
    return html`<div class="note" role="note" aria-label="Worktree">
      ${codicon('worktree')}<span class="text" title=${`This chat's agent works in a worktree (${this.worktree.label}) at ${this.worktree.path}, not in your folder`}>${shortLabel(this.worktree.label)}</span>
      <button title="Apply the agent's changes to your workspace" aria-label="Apply worktree to my workspace" @click=${act('apply')}>Apply</button>
      <button class="icon" title="Open the worktree in a new window" aria-label="Open worktree in new window" @click=${act('open')}>${codicon('empty-window')}</button>
      <button class="icon" title="Discard the worktree" aria-label="Discard worktree" @click=${act('discard')}>${codicon('trash')}</button>
    </div>`;
  }
}

/** What the narrow side bar has room for: the branch when there is one (the commit is in the tooltip). */
function shortLabel(label: string): string {
  return label.startsWith('branch ') ? `Worktree on ${label.slice('branch '.length)}` : 'In its own worktree';
}

customElements.define('acp-worktree-note', WorktreeNote);

declare global {
  interface HTMLElementTagNameMap {
    'acp-worktree-note': WorktreeNote;
  }
}
