/**
 * <acp-session-controls .controls=${SessionControls}>: the session's settings,
 * every one the agent offers: its config options (ACP's current way), its
 * modes unless it has config options (which replace them, as ACP says), and
 * its legacy models unless a config option is the model (Gemini CLI sends
 * modes and models, both shown). Hidden when there is nothing to set.
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import { emptySessionControls, type SessionControls } from '../../src/shared/protocol';
import { assertNever } from '../../src/shared/thread';
import { toHost } from '../shared/to-host';

type ConfigOption = SessionControls['configOptions'][number];
interface Choice {
  value: string;
  name: string;
  description?: string;
}

export class SessionControlsBar extends LitElement {
  static override properties = { controls: { attribute: false } };
  declare controls: SessionControls;

  static override styles = css`
    :host { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; min-width: 0; }
    :host([hidden]) { display: none; }
    label { display: inline-flex; align-items: center; gap: 4px; min-width: 0; max-width: 100%; }
    .name { color: var(--vscode-descriptionForeground); white-space: nowrap; }
    select { min-width: 0; max-width: 14em; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); padding: 1px 4px; font: inherit; }
    /*
     * Drawn here rather than by Chromium: a native box took checkbox.background
     * as its accent (#f8f8f8 on a #f8f8f8 side bar in Light Modern), and
     * checkbox.border is itself under 3:1 in Light and Dark Modern. The border
     * is icon.foreground (at least 3:1 in every built-in theme); the mark is
     * the codicon "check" (see shared/codicons.ts).
     */
    input[type='checkbox'] {
      appearance: none; display: inline-grid; place-content: center; flex: none; box-sizing: border-box;
      width: 16px; height: 16px; margin: 0; border-radius: 3px; cursor: pointer;
      border: 1px solid var(--vscode-icon-foreground, currentColor);
      background: var(--vscode-checkbox-background, transparent);
      color: var(--vscode-checkbox-foreground, var(--vscode-dropdown-foreground, inherit));
    }
    input[type='checkbox']:checked::before { content: '\\eab2'; font: normal normal normal 14px/1 codicon; }
    select:focus-visible, input:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `;

  constructor() {
    super();
    this.controls = emptySessionControls;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('controls')) this.hidden = !hasSettings(this.controls);
  }

  override render() {
    const c = shown(this.controls);
    return html`${c.configOptions.map(renderOption)}${c.modes ? modeSelect(c.modes) : nothing}${c.models ? modelSelect(c.models) : nothing}`;
  }
}

/** The controls to show (see the top of this file). */
function shown(c: SessionControls): Pick<SessionControls, 'configOptions' | 'modes' | 'models'> {
  const hasOptions = c.configOptions.length > 0;
  const optionIsModel = c.configOptions.some((o) => o.category === 'model');
  return {
    configOptions: c.configOptions,
    modes: !hasOptions && c.modes?.available.length ? c.modes : undefined,
    models: !optionIsModel && c.models?.available.length ? c.models : undefined,
  };
}

function hasSettings(c: SessionControls): boolean {
  const s = shown(c);
  return s.configOptions.length > 0 || !!s.modes || !!s.models;
}

function modeSelect(modes: NonNullable<SessionControls['modes']>) {
  const choices = modes.available.map((m) => ({ value: m.id, name: m.name, description: m.description }));
  return select('Mode', undefined, choices, modes.currentModeId, (modeId, from) =>
    toHost(from, { type: 'setMode', modeId }),
  );
}

function modelSelect(models: NonNullable<SessionControls['models']>) {
  const choices = models.available.map((m) => ({ value: m.modelId, name: m.name, description: m.description }));
  return select('Model', undefined, choices, models.currentModelId, (modelId, from) =>
    toHost(from, { type: 'setModel', modelId }),
  );
}

function renderOption(option: ConfigOption) {
  const post = (value: string | boolean, from: EventTarget) =>
    toHost(from, { type: 'setConfigOption', configId: option.id, value });
  switch (option.type) {
    case 'select':
      return select(option.name, option.description, option.options, option.currentValue, post);
    case 'boolean':
      return html`<label title=${option.description ?? nothing}>
        <input type="checkbox" .checked=${live(option.currentValue)} @change=${(e: Event) => post((e.target as HTMLInputElement).checked, e.target!)}>
        <span>${option.name}</span>
      </label>`;
    default:
      return assertNever(option);
  }
}

/**
 * `live` makes each render re-apply the agent's current value, so a change the
 * agent refused does not linger in the control.
 */
function select(
  name: string,
  description: string | undefined,
  choices: readonly Choice[],
  current: string,
  post: (value: string, from: EventTarget) => void,
) {
  return html`<label title=${description ?? nothing}>
    <span class="name">${name}</span>
    <select aria-label=${name} @change=${(e: Event) => post((e.target as HTMLSelectElement).value, e.target!)}>
      ${choices.map((o) => html`<option value=${o.value} title=${o.description ?? nothing} .selected=${live(o.value === current)}>${o.name}</option>`)}
    </select>
  </label>`;
}

customElements.define('acp-session-controls', SessionControlsBar);

declare global {
  interface HTMLElementTagNameMap {
    'acp-session-controls': SessionControlsBar;
  }
}
