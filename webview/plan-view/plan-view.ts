/**
 * <acp-plan-view .entries=${PlanEntry[]}>: an agent's plan, each step with its
 * status and priority. Used for the live plan of a running turn and for the
 * plan snapshots in the transcript (`collapsible`: a long one shows its first
 * steps and a button for the rest, so that it does not cover the transcript).
 * <acp-plan-view .plan=${NamedPlan}>: one of the session's plans by id (plan
 * operations): its steps, its Markdown, or a link to its file.
 */
import { css, html, LitElement, nothing } from 'lit';
import { LEFT_OUT_STATUS } from '../../src/shared/thread/planOperations';
import type { NamedPlan } from '../../src/shared/thread/thread';
import type { PlanEntry } from '../../src/shared/thread/thread';
import { hostLink } from '../shared/host-link';
import '../markdown/markdown';
import { codicon, codiconStyles, srOnlyStyles, type CodiconName } from '../shared/codicons';

/** ACP's plan statuses; anything else an agent sends is shown by its own name, as pending. */
const statuses: Record<string, { icon: CodiconName; label: string }> = {
  pending: { icon: 'circle-large', label: 'Pending' },
  in_progress: { icon: 'circle-large-filled', label: 'In progress' },
  completed: { icon: 'pass', label: 'Completed' },
  // The last step of a plan cut short: how many more the agent sent (planOperations.ts boundedSteps).
  [LEFT_OUT_STATUS]: { icon: 'ellipsis', label: 'Left out' },
};
const priorities = new Set(['high', 'medium', 'low']);
/** The steps a long plan snapshot shows before its "Show all" button. */
const SHOWN_STEPS = 10;

export class PlanView extends LitElement {
  static override properties = {
    entries: { attribute: false },
    plan: { attribute: false },
    label: {},
    collapsible: { type: Boolean },
    expanded: { state: true },
  };
  declare entries: readonly PlanEntry[];
  /** A snapshot in the transcript: past SHOWN_STEPS, the rest is behind a button. */
  declare collapsible: boolean;
  /** Whether the user asked for every step (view state, not the thread's). */
  declare expanded: boolean;
  declare plan: NamedPlan | undefined;
  /** The heading, e.g. "Plan" for a snapshot and "Current plan" for the live one. */
  declare label: string;

  static override styles = [
    codiconStyles,
    srOnlyStyles,
    css`
    :host { display: block; }
    section { border-left: 2px solid var(--vscode-textBlockQuote-border, var(--vscode-panel-border, rgba(128, 128, 128, 0.5))); padding: 2px 8px; }
    h2 { display: flex; align-items: center; gap: 6px; margin: 0 0 4px; font-size: 0.9em; font-weight: 600; color: var(--vscode-descriptionForeground); }
    ol { list-style: none; margin: 0; padding: 0; }
    li { display: flex; align-items: flex-start; gap: 6px; padding: 1px 0; }
    li .codicon { margin-top: 1px; }
    .content { flex: 1; min-width: 0; overflow-wrap: anywhere; }
    .in_progress .codicon { color: var(--vscode-progressBar-background, var(--vscode-focusBorder, inherit)); }
    .in_progress .content { font-weight: 600; }
    /* charts.green, not testing.iconPassed: the latter is #73c991 in the light themes, 1.9:1 on a light side bar. */
    .completed .codicon { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
    .completed .content { color: var(--vscode-descriptionForeground); text-decoration: line-through; }
    .left_out .content { color: var(--vscode-descriptionForeground); font-style: italic; }
    .priority { font-size: 0.8em; padding: 0 4px; border-radius: 3px; border: 1px solid var(--vscode-badge-background, rgba(128, 128, 128, 0.5)); color: var(--vscode-descriptionForeground); white-space: nowrap; }
    .priority.high { color: var(--vscode-badge-foreground); background: var(--vscode-badge-background, rgba(128, 128, 128, 0.5)); }
    :host(:not(:first-child)) { margin-top: 8px; }
    .named { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .more { display: inline-flex; align-items: center; gap: 4px; margin-top: 2px; padding: 1px 4px; font: inherit; cursor: pointer;
      color: var(--vscode-textLink-foreground); background: none; border: none; }
    .more:hover { text-decoration: underline; }
    .more:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
    .file { color: var(--vscode-textLink-foreground); cursor: pointer; text-decoration: none; overflow-wrap: anywhere; }
    .file:hover { text-decoration: underline; }
    .file:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `,
  ];

  constructor() {
    super();
    this.entries = [];
    this.plan = undefined;
    this.label = 'Plan';
    this.collapsible = false;
    this.expanded = false;
  }

  override render() {
    if (this.plan) return this.renderNamed(this.plan);
    if (this.entries.length === 0) return nothing;
    const folded = this.collapsible && !this.expanded && this.entries.length > SHOWN_STEPS;
    const shown = folded ? this.entries.slice(0, SHOWN_STEPS) : this.entries;
    return html`<section aria-label=${this.label}>
      <h2>${codicon('checklist')}<span>${this.label} · ${doneOf(this.entries)}</span></h2>
      <ol>${shown.map(renderStep)}</ol>
      ${folded ? html`<button class="more" @click=${() => (this.expanded = true)}>${codicon('chevron-down')}Show all ${stepsOf(this.entries).length.toLocaleString('en-US')} steps</button>` : nothing}
    </section>`;
  }

  private renderNamed(plan: NamedPlan) {
    const name = `${this.label} ${plan.id}`;
    const done = plan.type === 'items' ? ` · ${doneOf(plan.entries)}` : '';
    return html`<section aria-label=${name}>
      <h2 title=${name}>${codicon('checklist')}<span class="named">${this.label} · ${plan.id}${done}</span></h2>
      ${namedBody(plan)}</section>`;
  }
}

/** A named plan's steps, its Markdown, or a link to its file (the host opens it only inside the workspace). */
function namedBody(plan: NamedPlan) {
  switch (plan.type) {
    case 'items':
      return html`<ol>${plan.entries.map(renderStep)}</ol>`;
    case 'markdown':
      return html`<acp-markdown compact .text=${plan.markdown}></acp-markdown>`;
    case 'file':
      return hostLink(
        { type: 'openLink', href: plan.uri },
        `Open ${plan.uri}`,
        html`${codicon('go-to-file')} ${fileName(plan.uri)}`,
        'file',
      );
  }
}

/** "3 of 12 done": of the steps shown (a plan cut short says how many more on its last line). */
function doneOf(entries: readonly PlanEntry[]): string {
  const steps = stepsOf(entries);
  return `${steps.filter((e) => e.status === 'completed').length} of ${steps.length} done`;
}

/** The plan's steps, without the line saying how many were left out. */
function stepsOf(entries: readonly PlanEntry[]): readonly PlanEntry[] {
  return entries.filter((e) => e.status !== LEFT_OUT_STATUS);
}

/** The last segment of a URI or path, decoded where it can be; the whole text when there is none. */
function fileName(uri: string): string {
  const last = uri.split(/[\\/]/).filter(Boolean).at(-1) ?? uri;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function renderStep(entry: PlanEntry) {
  const status = Object.hasOwn(statuses, entry.status)
    ? statuses[entry.status]!
    : { icon: 'circle-large' as const, label: entry.status };
  const priority = priorities.has(entry.priority) ? entry.priority : '';
  return html`<li class=${Object.hasOwn(statuses, entry.status) ? entry.status : 'pending'}>
    ${codicon(status.icon)}<span class="sr-only">${status.label}: </span>
    <span class="content">${entry.content}</span>
    ${entry.priority ? html`<span class="priority ${priority}"><span class="sr-only">priority </span>${entry.priority}</span>` : nothing}
  </li>`;
}

customElements.define('acp-plan-view', PlanView);

declare global {
  interface HTMLElementTagNameMap {
    'acp-plan-view': PlanView;
  }
}
