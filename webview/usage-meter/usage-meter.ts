/**
 * <acp-usage-meter .usage=${SessionControls['usage']}>: how full the agent's
 * context window is, and the session's cost when the agent reports one.
 * Hidden when the agent reports no usage.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import type { SessionControls } from '../../src/shared/protocol';

type Usage = NonNullable<SessionControls['usage']>;

const count = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export class UsageMeter extends LitElement {
  static override properties = { usage: { attribute: false } };
  declare usage: Usage | undefined;

  static override styles = css`
    :host { display: inline-flex; align-items: center; gap: 4px; font-size: 0.9em; color: var(--vscode-descriptionForeground); white-space: nowrap; }
    :host([hidden]) { display: none; }
    meter { width: 2.5em; height: 0.7em; }
    meter::-webkit-meter-bar { background: var(--vscode-input-background, rgba(128, 128, 128, 0.2)); border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, rgba(128, 128, 128, 0.5))); border-radius: 2px; }
    meter::-webkit-meter-optimum-value { background: var(--vscode-progressBar-background, #0e70c0); }
    meter::-webkit-meter-suboptimum-value { background: var(--vscode-editorWarning-foreground, #cca700); }
    meter::-webkit-meter-even-less-good-value { background: var(--vscode-errorForeground, #f14c4c); }
  `;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('usage')) this.hidden = !this.usage || !(this.usage.size > 0);
  }

  override render() {
    const u = this.usage;
    if (!u || !(u.size > 0)) return nothing;
    const used = Math.min(Math.max(u.used, 0), u.size);
    const percent = Math.round((used / u.size) * 100);
    const detail = `Context: ${count.format(used)} of ${count.format(u.size)} tokens used (${percent}%)`;
    return html`
      <meter min="0" max=${u.size} low=${u.size * 0.7} high=${u.size * 0.9} optimum="0" .value=${used} aria-label="Context window used" aria-valuetext=${detail} title=${detail}></meter>
      <span class="percent" title=${detail}>${percent}%</span>
      ${u.cost ? html`<span class="cost" title="Session cost">${money(u.cost.amount, u.cost.currency)}</span>` : nothing}
    `;
  }
}

/** The currency code is the agent's: a code Intl does not know is shown as it came. */
function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

customElements.define('acp-usage-meter', UsageMeter);

declare global {
  interface HTMLElementTagNameMap {
    'acp-usage-meter': UsageMeter;
  }
}
