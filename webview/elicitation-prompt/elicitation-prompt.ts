/**
 * <acp-elicitation-prompt .request=${ElicitationView}>: the agent asks the
 * user something (ACP elicitation). A form is native controls, one per field
 * (text, email, URL, date, number, checkbox, select, a group of checkboxes),
 * each with its label, description and problem tied to it for a screen
 * reader; Send checks every field first (shared/elicitation.ts, as the host
 * does again) and goes to the first problem. A URL request names the exact
 * host and opens nothing until the user says so. Decline and Cancel answer
 * as they say. Everything shown is the agent's text, as text.
 */
import { css, html, LitElement, nothing, type TemplateResult } from 'lit';
import {
  checkAnswer,
  fieldProblem,
  type ElicitationField,
  type ElicitationView,
  type FieldValue,
} from '../../src/shared/elicitation';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';

type FormView = Extract<ElicitationView, { mode: 'form' }>;
type UrlView = Extract<ElicitationView, { mode: 'url' }>;

const INPUT_TYPE = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

export class ElicitationPromptElement extends LitElement {
  static override properties = { request: { attribute: false }, values: { state: true }, shown: { state: true } };
  declare request: ElicitationView;
  /** The form's values as the user left them (keyed by field name). */
  declare private values: Map<string, FieldValue | undefined>;
  /** The fields whose problem is shown: those left once, or all after a Send. */
  declare private shown: ReadonlySet<string>;
  private formId = '';

  static override styles = [
    codiconStyles,
    css`
    :host { display: block; margin: 6px 8px; }
    section { border: 1px solid var(--vscode-focusBorder, var(--vscode-contrastActiveBorder, currentColor)); border-radius: 4px; padding: 6px 8px; background: var(--vscode-editorWidget-background, transparent); }
    .ask { display: flex; gap: 6px; align-items: baseline; font-weight: 600; overflow-wrap: anywhere; }
    .message { margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 30vh; overflow: auto; }
    form { display: grid; gap: 8px; margin-top: 6px; }
    .field { display: grid; gap: 2px; min-width: 0; }
    label, legend { font-weight: 600; overflow-wrap: anywhere; }
    .required { color: var(--vscode-errorForeground); margin-inline-start: 2px; }
    .description { font-size: 0.9em; color: var(--vscode-descriptionForeground); white-space: pre-wrap; overflow-wrap: anywhere; }
    .problem { font-size: 0.9em; color: var(--vscode-errorForeground); }
    input:not([type='checkbox']), select { box-sizing: border-box; width: 100%; font: inherit; padding: 2px 4px; border-radius: 2px;
      color: var(--vscode-input-foreground); background: var(--vscode-input-background);
      border: 1px solid var(--vscode-input-border, var(--vscode-contrastBorder, transparent)); }
    select { color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border-color: var(--vscode-dropdown-border, transparent); }
    input:focus, select:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    input[aria-invalid='true'], select[aria-invalid='true'] { border-color: var(--vscode-inputValidation-errorBorder, var(--vscode-errorForeground)); }
    /* Rows 24 px apart: each checkbox is a target far enough from the next (WCAG 2.2 target size). */
    .check { display: flex; gap: 6px; align-items: center; min-height: 24px; }
    .check label { font-weight: normal; }
    fieldset { border: none; margin: 0; padding: 0; min-width: 0; display: grid; gap: 2px; }
    input[type='checkbox'] { accent-color: var(--vscode-button-background); margin: 0; }
    input[type='checkbox']:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
    .url { font-family: var(--vscode-editor-font-family); font-size: 0.9em; overflow-wrap: anywhere; color: var(--vscode-descriptionForeground); }
    .buttons { display: flex; flex-wrap: wrap; gap: 4px; }
    .buttons button { font: inherit; border: 1px solid var(--vscode-button-border, transparent); padding: 3px 8px; cursor: pointer;
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
    .buttons button.primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
    .buttons button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
  `,
  ];

  constructor() {
    super();
    this.values = new Map();
    this.shown = new Set();
  }

  protected override willUpdate(): void {
    // Another request: its own defaults, nothing shown as a problem yet.
    if (this.request.id === this.formId) return;
    this.formId = this.request.id;
    this.shown = new Set();
    this.values = new Map(this.request.mode === 'form' ? this.request.fields.map((f) => [f.name, f.default]) : []);
  }

  override render() {
    const r = this.request;
    const about = r.toolTitle ? html` <span class="about">(${r.toolTitle})</span>` : nothing;
    return r.mode === 'url' ? this.renderUrl(r, about) : this.renderForm(r, about);
  }

  private renderForm(r: FormView, about: TemplateResult | typeof nothing): TemplateResult {
    return html`<section role="group" aria-label=${`The agent asks: ${r.title ?? r.message}`.slice(0, 200)}>
      <div class="ask">${codicon('question')}<span>${r.title ?? 'The agent asks'}${about}</span></div>
      ${r.message ? html`<div class="message">${r.message}</div>` : nothing}
      <form novalidate @submit=${(e: Event) => this.send(e)}>
        ${r.fields.map((f, i) => this.renderField(f, `f${i}`))}
        <div class="buttons">
          <button class="primary" type="submit">Send</button>
          <button type="button" @click=${() => this.answer('decline')}>Decline</button>
          <button type="button" @click=${() => this.answer('cancel')}>Cancel</button>
        </div>
      </form>
    </section>`;
  }

  private renderUrl(r: UrlView, about: TemplateResult | typeof nothing): TemplateResult {
    return html`<section role="group" aria-label=${`The agent asks you to open a page on ${r.host}`}>
      <div class="ask">${codicon('link-external')}<span>The agent asks you to open a page on ${r.host}${about}</span></div>
      ${r.message ? html`<div class="message">${r.message}</div>` : nothing}
      <div class="url" title=${r.url}>${r.url}</div>
      <div class="buttons">
        <button class="primary" @click=${() => this.answer('accept')}>Open ${r.host}</button>
        <button @click=${() => this.answer('decline')}>Decline</button>
      </div>
    </section>`;
  }

  private renderField(f: ElicitationField, id: string): TemplateResult {
    const value = this.values.get(f.name);
    const problem = this.shown.has(f.name) ? fieldProblem(f, value) : undefined;
    const describedBy = [f.description ? `${id}-d` : '', problem ? `${id}-p` : ''].filter(Boolean).join(' ');
    const common = {
      describedBy: describedBy || nothing,
      invalid: problem ? 'true' : nothing,
    };
    const label = html`<label for=${id}>${f.title}${f.required ? html`<span class="required" aria-hidden="true">*</span>` : nothing}</label>`;
    const notes = html`${f.description ? html`<div class="description" id=${`${id}-d`}>${f.description}</div>` : nothing}${
      problem ? html`<div class="problem" id=${`${id}-p`}>${problem}</div>` : nothing
    }`;
    const leave = () => this.touch(f.name);
    switch (f.kind) {
      case 'text':
        return html`<div class="field">${label}<input id=${id} type=${f.format ? INPUT_TYPE[f.format] : 'text'}
          .value=${typeof value === 'string' ? value : ''} ?required=${f.required} aria-required=${f.required ? 'true' : nothing}
          maxlength=${f.maxLength ?? nothing} aria-describedby=${common.describedBy} aria-invalid=${common.invalid}
          @input=${(e: Event) => this.set(f.name, (e.target as HTMLInputElement).value)} @blur=${leave}>${notes}</div>`;
      case 'number':
        return html`<div class="field">${label}<input id=${id} type="number" step=${f.integer ? '1' : 'any'}
          min=${f.minimum ?? nothing} max=${f.maximum ?? nothing} .value=${typeof value === 'number' ? String(value) : ''}
          aria-required=${f.required ? 'true' : nothing} aria-describedby=${common.describedBy} aria-invalid=${common.invalid}
          @input=${(e: Event) => this.set(f.name, numberOf(e.target as HTMLInputElement))} @blur=${leave}>${notes}</div>`;
      case 'boolean':
        return html`<div class="field"><div class="check"><input id=${id} type="checkbox" .checked=${value === true}
          aria-describedby=${common.describedBy} @change=${(e: Event) => this.set(f.name, (e.target as HTMLInputElement).checked)}>
          <label for=${id}>${f.title}</label></div>${notes}</div>`;
      case 'select':
        return html`<div class="field">${label}<select id=${id} aria-required=${f.required ? 'true' : nothing}
          aria-describedby=${common.describedBy} aria-invalid=${common.invalid} @blur=${leave}
          @change=${(e: Event) => this.set(f.name, (e.target as HTMLSelectElement).value || undefined)}>
          <option value="" ?selected=${value === undefined}>${f.required ? 'Choose…' : '(none)'}</option>
          ${f.options.map((o) => html`<option value=${o.value} ?selected=${value === o.value}>${o.title}</option>`)}
        </select>${notes}</div>`;
      case 'multi': {
        const picked = Array.isArray(value) ? value : [];
        return html`<fieldset class="field" aria-describedby=${common.describedBy} aria-invalid=${common.invalid}>
          <legend>${f.title}${f.required ? html`<span class="required" aria-hidden="true">*</span>` : nothing}</legend>
          ${f.options.map(
            (
              o,
              j,
            ) => html`<div class="check"><input id=${`${id}-${j}`} type="checkbox" .checked=${picked.includes(o.value)}
              @change=${(e: Event) => this.pick(f.name, o.value, (e.target as HTMLInputElement).checked)} @blur=${leave}>
              <label for=${`${id}-${j}`}>${o.title}</label></div>`,
          )}${notes}</fieldset>`;
      }
    }
  }

  private set(name: string, value: FieldValue | undefined): void {
    this.values = new Map(this.values).set(name, value);
  }

  private pick(name: string, option: string, on: boolean): void {
    const now = this.values.get(name);
    const list = Array.isArray(now) ? now.filter((v) => v !== option) : [];
    this.set(name, on ? [...list, option] : list);
  }

  private touch(name: string): void {
    if (!this.shown.has(name)) this.shown = new Set([...this.shown, name]);
  }

  private send(event: Event): void {
    event.preventDefault();
    if (this.request.mode !== 'form') return;
    const values = Object.fromEntries([...this.values].filter(([, v]) => v !== undefined)) as Record<
      string,
      FieldValue
    >;
    const checked = checkAnswer(this.request.fields, values);
    if (checked.ok) return this.answer('accept', checked.content);
    // Every problem shown; the first field with one gets the caret.
    this.shown = new Set(this.request.fields.map((f) => f.name));
    const first = this.request.fields.findIndex((f) => checked.problems[f.name] !== undefined);
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(`#f${first}, #f${first}-0`)?.focus(),
    );
  }

  private answer(action: 'accept' | 'decline' | 'cancel', values?: Record<string, FieldValue>): void {
    toHost(this, { type: 'answerElicitation', id: this.request.id, action, ...(values ? { values } : {}) });
  }
}

/** A number input's value: a finite number, or none when empty or not a number. */
function numberOf(input: HTMLInputElement): number | undefined {
  return input.value === '' || !Number.isFinite(input.valueAsNumber) ? undefined : input.valueAsNumber;
}

customElements.define('acp-elicitation-prompt', ElicitationPromptElement);

declare global {
  interface HTMLElementTagNameMap {
    'acp-elicitation-prompt': ElicitationPromptElement;
  }
}
