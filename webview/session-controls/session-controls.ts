/**
 * <acp-session-controls .controls=${SessionControls}>: the session's settings,
 * every one the agent offers: its config options (ACP's current way), its
 * modes unless it has config options (which replace them, as ACP says), and
 * its legacy models unless a config option is the model (Gemini CLI sends
 * modes and models, both shown). Hidden when there is nothing to set.
 *
 * It sits in the composer's toolbar, so it is compact: the mode and the model
 * are pickers that show only their value (the name is in the tooltip and the
 * accessible name); every other setting is behind one "more" button, in a
 * popover above it (light dismiss and Escape close it, as a menu).
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { live } from 'lit/directives/live.js';
import { emptySessionControls, type SessionControls } from '../../src/shared/page/protocol';
import { assertNever } from '../../src/shared/thread/thread';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';
import { compactPickerStyles } from '../shared/compact-picker.styles';

type ConfigOption = SessionControls['configOptions'][number];
interface Choice {
  value: string;
  name: string;
  description?: string;
}
/** A picker to draw: compact (in the toolbar) or labelled (in the popover). */
type Look = 'compact' | 'labelled';

export class SessionControlsBar extends LitElement {
  static override properties = { controls: { attribute: false } };
  declare controls: SessionControls;

  static override styles = [
    codiconStyles,
    compactPickerStyles,
    css`
    /* Its pickers are the toolbar's own flex items, sharing its width with the agent picker (see compact-picker.styles.ts). */
    :host { display: contents; }
    :host([hidden]) { display: none; }
    .more { flex: none; anchor-name: --acp-more-settings; }
    [popover] {
      position-anchor: --acp-more-settings; position-area: block-start span-inline-start; position-try-fallbacks: flip-block;
      margin: 0 0 4px; padding: 6px 8px; max-width: calc(100vw - 24px); box-sizing: border-box;
      color: var(--vscode-editorWidget-foreground, var(--vscode-foreground)); background: var(--vscode-editorWidget-background, var(--vscode-dropdown-background));
      border: 1px solid var(--vscode-editorWidget-border, var(--vscode-widget-border, var(--vscode-contrastBorder, transparent))); border-radius: 4px;
      box-shadow: 0 2px 8px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.36));
    }
    [popover]:popover-open { display: flex; flex-direction: column; gap: 6px; }
    label { display: flex; align-items: center; gap: 6px; min-width: 0; }
    .name { color: var(--vscode-descriptionForeground); white-space: nowrap; }
    .labelled select { min-width: 0; max-width: 16em; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background); border: 1px solid var(--vscode-dropdown-border, transparent); padding: 1px 4px; font: inherit; }
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
  `,
  ];

  constructor() {
    super();
    this.controls = emptySessionControls;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('controls')) this.hidden = !hasSettings(this.controls);
  }

  override render() {
    const { primary, more } = split(this.controls);
    return html`${primary.map((option) => renderOption(option, 'compact'))}${
      more.length > 0
        ? html`<button class="icon more" popovertarget="more-settings" aria-label="More settings" title=${`More settings: ${more.map((o) => o.name).join(', ')}`}>${codicon('settings')}</button>
        <div id="more-settings" popover role="group" aria-label="More settings" @beforetoggle=${this.onBeforeToggle}>${more.map((option) => renderOption(option, 'labelled'))}</div>`
        : nothing
    }`;
  }

  /**
   * Closing with focus inside (Escape): focus goes back to the button, not to the page (Chromium leaves it on a hidden
   * element, then on the body).
   */
  private onBeforeToggle(event: ToggleEvent): void {
    const root = this.renderRoot as ShadowRoot;
    if (event.newState === 'closed' && (event.target as HTMLElement).contains(root.activeElement)) {
      root.querySelector<HTMLButtonElement>('button.more')?.focus();
    }
  }
}

/** A setting to draw: a config option, or legacy modes or models as a select. */
type Setting =
  | ConfigOption
  | { type: 'mode'; name: string; modes: NonNullable<SessionControls['modes']> }
  | { type: 'model'; name: string; models: NonNullable<SessionControls['models']> };

/** The settings to show (see the top of this file): mode and model in the toolbar, the rest behind "more". */
function split(c: SessionControls): { primary: Setting[]; more: Setting[] } {
  const hasOptions = c.configOptions.length > 0;
  const optionIsModel = c.configOptions.some((o) => o.category === 'model');
  const primary: Setting[] = [];
  const more: Setting[] = [];
  if (!hasOptions && c.modes?.available.length) primary.push({ type: 'mode', name: 'Mode', modes: c.modes });
  for (const option of c.configOptions) {
    const inToolbar = option.type === 'select' && (option.category === 'mode' || option.category === 'model');
    (inToolbar ? primary : more).push(option);
  }
  if (!optionIsModel && c.models?.available.length) primary.push({ type: 'model', name: 'Model', models: c.models });
  return { primary, more };
}

function hasSettings(c: SessionControls): boolean {
  const { primary, more } = split(c);
  return primary.length > 0 || more.length > 0;
}

function renderOption(setting: Setting, look: Look) {
  switch (setting.type) {
    case 'mode': {
      const { modes } = setting;
      const choices = modes.available.map((m) => ({ value: m.id, name: m.name, description: m.description }));
      return select('Mode', undefined, choices, modes.currentModeId, look, (modeId, from) =>
        toHost(from, { type: 'setMode', modeId }),
      );
    }
    case 'model': {
      const { models } = setting;
      const choices = models.available.map((m) => ({ value: m.modelId, name: m.name, description: m.description }));
      return select('Model', undefined, choices, models.currentModelId, look, (modelId, from) =>
        toHost(from, { type: 'setModel', modelId }),
      );
    }
    case 'select':
      return select(setting.name, setting.description, setting.options, setting.currentValue, look, (value, from) =>
        toHost(from, { type: 'setConfigOption', configId: setting.id, value }),
      );
    case 'boolean':
      return html`<label title=${setting.description ?? nothing}>
        <input type="checkbox" .checked=${live(setting.currentValue)} @change=${(e: Event) => toHost(e.target!, { type: 'setConfigOption', configId: setting.id, value: (e.target as HTMLInputElement).checked })}>
        <span>${setting.name}</span>
      </label>`;
    default:
      return assertNever(setting);
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
  look: Look,
  post: (value: string, from: EventTarget) => void,
) {
  const picker = html`<select class=${look} aria-label=${name} @change=${(e: Event) => post((e.target as HTMLSelectElement).value, e.target!)}>
    ${choices.map((o) => html`<option value=${o.value} title=${o.description ?? nothing} .selected=${live(o.value === current)}>${o.name}</option>`)}
  </select>`;
  if (look === 'compact') {
    const value = choices.find((o) => o.value === current)?.name ?? current;
    return html`<span class="picker" title=${[`${name}: ${value}`, description].filter(Boolean).join('\n')}>${picker}</span>`;
  }
  return html`<label class="labelled" title=${description ?? nothing}><span class="name">${name}</span>${picker}</label>`;
}

customElements.define('acp-session-controls', SessionControlsBar);

declare global {
  interface HTMLElementTagNameMap {
    'acp-session-controls': SessionControlsBar;
  }
}
