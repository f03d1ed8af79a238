/**
 * <acp-usage-meter .usage=${SessionControls['usage']}>: how full the agent's
 * context window is, the session's cost when the agent reports one, and the
 * plan's rate-limit windows (5-hour, 7-day) when it reports those.
 * Hidden when the agent reports no usage.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import type { SessionControls } from '../../src/shared/page/protocol';
import { codicon, codiconStyles } from '../shared/codicons';

type Usage = NonNullable<SessionControls['usage']>;
type Limit = NonNullable<Usage['limits']>[number];

/** What a window is called in the header, where room is short. */
const SHORT: Readonly<Record<string, string>> = {
  five_hour: '5h',
  seven_day: '7d',
  seven_day_opus: '7d Opus',
  seven_day_sonnet: '7d Sonnet',
  seven_day_overage_included: '7d+',
  overage: 'Extra',
};
const time = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' });

const count = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export class UsageMeter extends LitElement {
  static override properties = { usage: { attribute: false } };
  declare usage: Usage | undefined;

  static override styles = [
    codiconStyles,
    css`
    :host { display: inline-flex; align-items: center; gap: 4px; font-size: 0.9em; color: var(--vscode-descriptionForeground); white-space: nowrap; }
    :host([hidden]) { display: none; }
    meter { width: 2.5em; height: 0.7em; }
    meter::-webkit-meter-bar { background: var(--vscode-input-background, rgba(128, 128, 128, 0.2)); border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, rgba(128, 128, 128, 0.5))); border-radius: 2px; }
    meter::-webkit-meter-optimum-value { background: var(--vscode-progressBar-background, #0e70c0); }
    meter::-webkit-meter-suboptimum-value { background: var(--vscode-editorWarning-foreground, #cca700); }
    meter::-webkit-meter-even-less-good-value { background: var(--vscode-errorForeground, #f14c4c); }
    .limit { display: inline-flex; align-items: center; gap: 2px; }
    /* The level's colour on the icon only: warning and error colours are too faint for small text in some themes. */
    .limit .codicon { font-size: 12px; }
    .limit.warning .codicon { color: var(--vscode-editorWarning-foreground, inherit); }
    .limit.rejected .codicon { color: var(--vscode-errorForeground, inherit); }
  `,
  ];

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('usage')) this.hidden = !this.usage || !(this.usage.size > 0 || this.usage.limits?.length);
  }

  override render() {
    const u = this.usage;
    if (!u || !(u.size > 0 || u.limits?.length)) return nothing;
    return html`${u.size > 0 ? this.context(u) : nothing}${u.limits?.map(limit) ?? nothing}`;
  }

  private context(u: Usage) {
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

/** One rate-limit window: "5h 42%", its whole story in the tooltip (and for screen readers). */
function limit(l: Limit) {
  const percent = l.utilization !== undefined ? `${Math.round(l.utilization * 100)}%` : '';
  const state = l.status === 'rejected' ? 'reached' : l.status === 'warning' ? 'nearly reached' : '';
  const resets = l.resetsAt !== undefined ? `resets ${time.format(new Date(l.resetsAt))}` : '';
  const detail = [`${l.label} limit`, percent && `${percent} used`, state, resets].filter(Boolean).join(', ');
  const icon = l.status === 'rejected' ? codicon('error') : l.status === 'warning' ? codicon('warning') : nothing;
  return html`<span class="limit ${l.status}" role="img" aria-label=${detail} title=${detail}>${icon}${SHORT[l.kind] ?? l.label}${percent ? ` ${percent}` : ''}</span>`;
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
