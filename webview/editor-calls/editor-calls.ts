/**
 * <acp-editor-calls .entry=${EditorCallsEntry}>: what the agent asked VS Code in a turn (the editor server), under its
 * answer: one line per call (a file, a symbol, how many results), each opening its place when it has one. A few calls
 * are shown open; more are behind their heading, which names the tools asked.
 */
import { css, html, LitElement, nothing } from 'lit';
import type { EditorCall, EditorCallsEntry } from '../../src/shared/editorCalls';
import { codicon, codiconStyles, type CodiconName } from '../shared/codicons';
import { hostLink } from '../shared/host-link';

/** Up to this many calls the list is open; past it, closed until the user opens it. */
const SHOWN_OPEN = 3;

const icons: Record<string, CodiconName> = {
  problems: 'warning',
  selection: 'list-selection',
  open_editors: 'file',
  symbols: 'search',
  definition: 'go-to-file',
  references: 'search',
  implementations: 'search',
  hover: 'info',
  changes: 'diff-modified',
};

export class EditorCalls extends LitElement {
  static override properties = { entry: { attribute: false } };
  declare entry: EditorCallsEntry;

  static override styles = [
    codiconStyles,
    css`
      :host { display: block; font-size: 0.9em; color: var(--vscode-descriptionForeground); }
      /* 24 px rows: each line is a target of that height (WCAG 2.2 target size), as VS Code's own lists nearly are. */
      summary { display: flex; align-items: center; gap: 4px; cursor: pointer; list-style: none; min-width: 0; min-height: 24px; }
      summary::-webkit-details-marker { display: none; }
      details[open] > summary > .codicon { transform: rotate(90deg); }
      summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
      .tools { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
      ul { list-style: none; margin: 0; padding: 0 0 0 20px; }
      /* A call's line wraps rather than cut: what it found (the count, the place) is at its end. */
      li { display: flex; align-items: flex-start; gap: 4px; min-width: 0; min-height: 24px; }
      li > .codicon { margin-top: 4px; }
      .about { min-width: 0; overflow-wrap: anywhere; padding: 3px 0; line-height: 18px; }
      a.about { color: var(--vscode-textLink-foreground); cursor: pointer; text-decoration: none; }
      a.about:hover { text-decoration: underline; }
      a.about:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
      .refused { font-style: italic; }
    `,
  ];

  override render() {
    const { calls, more } = this.entry;
    const total = calls.length + (more ?? 0);
    const tools = [...new Set(calls.map((c) => c.tool.replace('_', ' ')))].join(', ');
    const count = `${total.toLocaleString('en-US')} ${total === 1 ? 'question' : 'questions'}`;
    const heading = `Asked VS Code ${count}: ${tools}`;
    return html`<details ?open=${total <= SHOWN_OPEN}>
      <summary title="${heading} (what the agent asked the editor server in this turn)">
        ${codicon('chevron-right')}<span class="tools">${heading}</span>
      </summary>
      <ul>
        ${calls.map(callLine)}
        ${more ? html`<li><span class="about">and ${more.toLocaleString('en-US')} more</span></li>` : nothing}
      </ul>
    </details>`;
  }
}

function callLine(call: EditorCall) {
  const icon = codicon(call.refused ? 'circle-slash' : (icons[call.tool] ?? 'tools'));
  const text = call.refused ? html`<span class="about refused">${call.about}</span>` : call.about;
  const line = call.line ? { line: call.line } : {};
  const message = call.path
    ? { type: 'openLocation' as const, path: call.path, ...line }
    : call.uri
      ? { type: 'openPlace' as const, uri: call.uri, ...line }
      : undefined;
  if (!message || call.refused) return html`<li title=${call.about}>${icon}<span class="about">${text}</span></li>`;
  return html`<li>${icon}${hostLink(message, `Open ${call.about}`, text, 'about')}</li>`;
}

customElements.define('acp-editor-calls', EditorCalls);
