/**
 * The slash command menu of a text box: typing "/" at the start opens a list
 * of the agent's commands, filtered as you type.
 *
 * A helper of the text box's element rather than an element of its own: the ARIA combobox pattern links the
 * text box to the list and its active option by id (aria-controls,
 * aria-activedescendant), and ids do not reach across shadow roots, so the
 * list is rendered into the text box's own shadow root.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionControls } from '../../src/shared/protocol';
import { matchCommands } from './match-commands';

export type SlashCommand = SessionControls['commands'][number];

const LIST_ID = 'slash-commands';
const optionId = (index: number) => `slash-command-${index}`;

export class SlashCommandMenu {
  /** The agent's commands (from `available_commands_update`). */
  commands: readonly SlashCommand[] = [];
  private query: string | undefined;
  private matches: SlashCommand[] = [];
  private active = 0;
  /** Escape closes the menu until the text changes. */
  private dismissed = false;

  /** `host` re-renders the menu; `insert` puts the chosen command into the text box. */
  constructor(private readonly host: { requestUpdate(): void }, private readonly insert: (text: string) => void) {}

  get isOpen(): boolean {
    return this.query !== undefined && !this.dismissed && this.matches.length > 0;
  }

  /** Call with the text box's value after every edit. */
  textChanged(value: string): void {
    // Only while the first word is being typed: "/na" opens, "/name args" does not.
    const typing = /^\/(\S*)$/.exec(value);
    const query = typing ? typing[1] : undefined;
    if (query !== this.query) {
      this.dismissed = false;
      this.active = 0;
    }
    this.query = query;
    this.matches = query === undefined ? [] : matchCommands(this.commands, query);
    this.host.requestUpdate();
  }

  /** Handles the menu's keys; returns true when the key was used (the caller prevents its default). */
  keyDown(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown': this.move(1); return true;
      case 'ArrowUp': this.move(-1); return true;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        this.choose(this.active);
        return true;
      case 'Escape': this.dismissed = true; this.host.requestUpdate(); return true;
      default: return false;
    }
  }

  /** ARIA state for the text box (the combobox). */
  get comboboxState(): { expanded: 'true' | 'false'; activeDescendant: string | typeof nothing } {
    return this.isOpen ? { expanded: 'true', activeDescendant: optionId(this.active) } : { expanded: 'false', activeDescendant: nothing };
  }

  readonly listId = LIST_ID;

  render(): TemplateResult | typeof nothing {
    if (!this.isOpen) return nothing;
    return html`<div class="slash-list" id=${LIST_ID} role="listbox" aria-label="Slash commands">
      ${this.matches.map((c, i) => html`<div class="slash-option ${i === this.active ? 'active' : ''}" id=${optionId(i)} role="option" aria-selected=${i === this.active ? 'true' : 'false'}
          @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.choose(i)}>
        <span class="slash-name">/${c.name}</span>${c.hint ? html` <span class="slash-hint">${c.hint}</span>` : nothing}
        <span class="slash-description">${c.description}</span>
      </div>`)}
    </div>`;
  }

  /** After a keyboard move the active option may be out of the list's view: one layout read per key press. */
  revealActive(root: ParentNode): void {
    if (this.isOpen) root.querySelector(`#${optionId(this.active)}`)?.scrollIntoView({ block: 'nearest' });
  }

  private move(step: number): void {
    this.active = (this.active + step + this.matches.length) % this.matches.length;
    this.host.requestUpdate();
  }

  private choose(index: number): void {
    const command = this.matches[index];
    if (!command) return;
    this.insert(`/${command.name} `);
  }
}
