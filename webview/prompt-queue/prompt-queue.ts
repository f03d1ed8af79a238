/**
 * <acp-prompt-queue .items=${QueuedPromptView[]} .steers=${boolean}>: prompts
 * sent while the agent was answering, in the order they go (each as its own
 * turn once the turn before it finishes). Each one can be sent now (the
 * running turn is stopped), steered into the running answer (where the agent
 * takes that: `steers`), moved up, taken back into the prompt box to edit, or
 * removed. One on its way into the answer waits, marked, without buttons.
 */
import { css, html, LitElement } from 'lit';
import type { WebviewMessage } from '../../src/shared/page/pageMessages';
import type { QueuedPromptView } from '../../src/shared/page/protocol';

type QueueAction = Extract<WebviewMessage, { type: 'queued' }>['action'];
import { codicon, codiconStyles, type CodiconName } from '../shared/codicons';
import { toHost } from '../shared/to-host';

export class PromptQueueElement extends LitElement {
  static override properties = { items: { attribute: false }, steers: { type: Boolean } };
  declare items: readonly QueuedPromptView[];
  declare steers: boolean;

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; margin: 4px 8px; }
    h2 { margin: 0 0 2px; font-size: 0.9em; font-weight: normal; color: var(--vscode-descriptionForeground); }
    ol { list-style: none; margin: 0; padding: 0; }
    li { display: flex; align-items: center; gap: 4px; padding: 2px 0 2px 6px; border-left: 2px solid var(--vscode-panel-border, var(--vscode-contrastBorder, currentColor)); }
    .text { flex: 1 1 auto; min-width: 0; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
    .count, .steering { color: var(--vscode-descriptionForeground); flex: none; }
    .steering { font-style: italic; padding: 2px 0; }
    .gap { width: 20px; flex: none; }
    button { display: inline-flex; padding: 2px; border: none; border-radius: 3px; background: none; color: inherit; cursor: pointer; flex: none; }
    button:hover { background: var(--vscode-toolbar-hoverBackground); }
    button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
  `,
  ];

  constructor() {
    super();
    this.items = [];
    this.steers = false;
  }

  override render() {
    const n = this.items.length;
    return html`<section role="region" aria-label="Queued prompts">
      <h2>${n === 1 ? 'Queued: sent when the agent is done' : `${n} queued: sent in order when the agent is done`}</h2>
      <ol>${this.items.map((q, i) => this.item(q, i))}</ol>
    </section>`;
  }

  private item(q: QueuedPromptView, index: number) {
    const line = q.text.trim().split('\n', 1)[0] || 'Attachments only';
    const button = (action: QueueAction, icon: CodiconName, label: string) =>
      html`<button aria-label=${`${label}: ${line}`} title=${label} @click=${() => toHost(this, { type: 'queued', action, id: q.id })}>${codicon(icon)}</button>`;
    const buttons = q.steering
      ? html`<span class="steering">Steering…</span>`
      : html`${this.steers ? button('steer', 'insert', 'Steer (into the current answer)') : ''}${button('sendNow', 'send', 'Send now (stops the current answer)')}${index > 0 ? button('up', 'arrow-up', 'Move up') : html`<span class="gap"></span>`}${button('edit', 'edit', 'Edit')}${button('remove', 'trash', 'Remove')}`;
    return html`<li title=${q.text}>
      <span class="text">${line}</span>
      ${q.attachments > 0 ? html`<span class="count" title="Attachments">${codicon('attach')}${q.attachments}</span>` : ''}
      ${buttons}
    </li>`;
  }
}

customElements.define('acp-prompt-queue', PromptQueueElement);

declare global {
  interface HTMLElementTagNameMap {
    'acp-prompt-queue': PromptQueueElement;
  }
}
