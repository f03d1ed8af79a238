/**
 * <acp-tool-card .entry=${ToolEntry}>: one tool call. Collapsed it is one
 * line (kind, title, status); expanded it shows the input, the locations and
 * all content. Whether it is expanded is UI state, kept by entry id.
 */
import { html, LitElement, nothing, type PropertyValues } from 'lit';
import type { ToolEntry } from '../../src/shared/thread/thread';
import { codicon } from '../shared/codicons';
import { isCardExpanded, setCardExpanded } from './expanded-cards';
import { toolCardStyles } from './tool-card.styles';
import { renderToolBody } from './tool-content';
import { kindLook, statusLook } from './tool-kinds';
import { visibleName } from '../../src/shared/text/visibleText';

export class ToolCard extends LitElement {
  static override properties = { entry: { attribute: false }, open: { state: true } };
  declare entry: ToolEntry;
  declare open: boolean;

  static override styles = toolCardStyles;

  constructor() {
    super();
    this.open = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const previous = changed.get('entry') as ToolEntry | undefined;
    if (changed.has('entry') && previous?.id !== this.entry.id) this.open = isCardExpanded(this.entry.id);
  }

  override render() {
    const e = this.entry;
    const kind = kindLook(e.toolKind);
    const status = statusLook[e.status];
    return html`<div class="card">
      <button class="head" aria-expanded=${this.open ? 'true' : 'false'} aria-controls=${this.open ? 'body' : nothing} @click=${this.toggle}>
        ${codicon(this.open ? 'chevron-down' : 'chevron-right', 'chevron')}
        <span class="kind" title=${kind.label}>${codicon(kind.icon)}<span class="sr-only">${kind.label}: </span></span>
        <span class="title" title=${e.name ? `Tool: ${e.name}` : nothing}>${visibleName(e.title) || kind.label}</span>
        ${e.children?.length ? html`<span class="steps">${steps(e.children.length + (e.childrenCut ?? 0))}</span>` : nothing}
        <span class="status ${e.status}" title=${status.label}>${codicon(status.icon, status.spin ? 'spin' : '')}<span class="sr-only">, ${status.label}</span></span>
      </button>
      ${this.open ? html`<div class="body" id="body">${renderToolBody(e)}</div>` : nothing}
    </div>`;
  }

  private toggle(): void {
    this.open = !this.open;
    setCardExpanded(this.entry.id, this.open);
  }
}

/** How many steps a subagent took, as its parent's header says it. */
function steps(count: number): string {
  return count === 1 ? '1 step' : `${count.toLocaleString('en-US')} steps`;
}

customElements.define('acp-tool-card', ToolCard);

declare global {
  interface HTMLElementTagNameMap {
    'acp-tool-card': ToolCard;
  }
}
