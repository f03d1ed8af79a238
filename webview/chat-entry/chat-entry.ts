/**
 * <acp-chat-entry>: one transcript entry. Agent text is rendered as text
 * (Lit escapes it); Markdown arrives with issue 3.
 */
import { css, html, LitElement, nothing } from 'lit';
import { assertNever, type Entry } from '../../src/shared/thread';

const toolStatusIcon = { pending: '⋯', in_progress: '⋯', completed: '✓', failed: '✗', cancelled: '×' } as const;

export class ChatEntry extends LitElement {
  static override properties = { entry: { attribute: false } };
  declare entry: Entry;

  static override styles = css`
    :host { display: block; margin: 8px 0; }
    .text { white-space: pre-wrap; overflow-wrap: anywhere; line-height: 1.4; }
    .user { background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); border-radius: 4px; padding: 6px 8px; }
    .role { font-size: 0.85em; font-weight: 600; color: var(--vscode-descriptionForeground); margin-bottom: 2px; }
    details { color: var(--vscode-descriptionForeground); }
    summary { cursor: pointer; }
    summary:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
    .tool { border: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent)); border-radius: 4px; padding: 4px 8px; }
    .notice { padding: 4px 8px; border-left: 3px solid var(--vscode-descriptionForeground); color: var(--vscode-descriptionForeground); }
    .notice.warning { border-color: var(--vscode-editorWarning-foreground); color: var(--vscode-editorWarning-foreground); }
    .notice.error { border-color: var(--vscode-errorForeground); color: var(--vscode-errorForeground); }
    pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; font-family: var(--vscode-editor-font-family); font-size: var(--vscode-editor-font-size); }
  `;

  override render() {
    const e = this.entry;
    switch (e.kind) {
      case 'user':
        return html`<div class="user"><div class="role">You</div><div class="text">${e.text}</div></div>`;
      case 'assistant':
        return html`<div class="assistant"><div class="role">Agent</div><div class="text">${e.text}</div></div>`;
      case 'thought':
        return html`<details class="thought"><summary>Thinking</summary><div class="text">${e.text}</div></details>`;
      case 'tool':
        return html`<details class="tool"><summary><span aria-label=${e.status}>${toolStatusIcon[e.status]}</span> ${e.title}</summary>
          ${e.input !== undefined ? html`<pre>${e.input}</pre>` : nothing}
          ${e.content.map((c) => html`<pre>${c.type === 'content' ? (c.block.type === 'text' ? c.block.text : `[${c.block.type}]`) : c.type === 'diff' ? `${c.path}\n${c.newText}` : c.output}</pre>`)}</details>`;
      case 'plan':
        return html`<div class="plan"><div class="role">Plan</div><ul>${e.entries.map((p) => html`<li>[${p.status}] ${p.content}</li>`)}</ul></div>`;
      case 'notice':
        return html`<div class="notice ${e.level}" role=${e.level === 'error' ? 'alert' : nothing}><span class="text">${e.text}</span></div>`;
      default:
        return assertNever(e);
    }
  }
}

customElements.define('acp-chat-entry', ChatEntry);

declare global {
  interface HTMLElementTagNameMap {
    'acp-chat-entry': ChatEntry;
  }
}
