/**
 * The keyboard model and ARIA of the composer's popups (slash commands, `@`
 * mentions): a listbox above the text box, its active option followed by
 * aria-activedescendant; ArrowUp/ArrowDown move, Enter or Tab choose,
 * Escape closes until the query changes.
 *
 * A helper of the text box's element rather than an element of its own: the
 * ARIA combobox pattern links the text box to the list and its active option
 * by id, and ids do not reach across shadow roots, so the list is rendered
 * into the text box's own shadow root.
 */
import { html, nothing, type TemplateResult } from 'lit';

export interface MenuSpec<T> {
  /** Prefix of the list's and options' ids (unique per menu in one shadow root). */
  readonly id: string;
  /** The listbox's accessible name. */
  readonly label: string;
  readonly renderOption: (item: T) => TemplateResult;
  /** An option's whole text, its tooltip (an option shows one line unless it is the active one). */
  readonly tooltip: (item: T) => string;
  readonly choose: (item: T) => void;
}

export class CompletionMenu<T> {
  private query: string | undefined;
  private items: readonly T[] = [];
  private active = 0;
  /** Escape closes the menu until the query changes. */
  private dismissed = false;

  constructor(
    private readonly host: { requestUpdate(): void },
    private readonly spec: MenuSpec<T>,
  ) {}

  get isOpen(): boolean {
    return this.query !== undefined && !this.dismissed && this.items.length > 0;
  }

  /** The query being typed (undefined: none, the menu is closed) and what it matches. */
  show(query: string | undefined, items: readonly T[]): void {
    if (query !== this.query) {
      this.dismissed = false;
      this.active = 0;
    }
    this.query = query;
    this.items = query === undefined ? [] : items;
    this.active = Math.min(this.active, Math.max(0, this.items.length - 1));
    this.host.requestUpdate();
  }

  /** Handles the menu's keys; returns true when the key was used (the caller prevents its default). */
  keyDown(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        this.choose(this.active);
        return true;
      case 'Escape':
        this.dismissed = true;
        this.host.requestUpdate();
        return true;
      default:
        return false;
    }
  }

  /** ARIA state for the text box (the combobox). */
  get comboboxState(): { expanded: 'true' | 'false'; activeDescendant: string | typeof nothing } {
    return this.isOpen
      ? { expanded: 'true', activeDescendant: this.optionId(this.active) }
      : { expanded: 'false', activeDescendant: nothing };
  }

  get listId(): string {
    return `${this.spec.id}-list`;
  }

  render(): TemplateResult | typeof nothing {
    if (!this.isOpen) return nothing;
    return html`<div class="completion-list" id=${this.listId} role="listbox" aria-label=${this.spec.label}>
      ${this.items.map(
        (
          item,
          i,
        ) => html`<div class="completion-option ${i === this.active ? 'active' : ''}" id=${this.optionId(i)} role="option" aria-selected=${i === this.active ? 'true' : 'false'}
          title=${this.spec.tooltip(item)} @mousedown=${(e: Event) => e.preventDefault()} @click=${() => this.choose(i)}>${this.spec.renderOption(item)}</div>`,
      )}
    </div>`;
  }

  /** After a keyboard move the active option may be out of the list's view: one layout read per key press. */
  revealActive(root: ParentNode): void {
    if (this.isOpen) root.querySelector(`#${this.optionId(this.active)}`)?.scrollIntoView({ block: 'nearest' });
  }

  private optionId(index: number): string {
    return `${this.spec.id}-${index}`;
  }

  private move(step: number): void {
    this.active = (this.active + step + this.items.length) % this.items.length;
    this.host.requestUpdate();
  }

  private choose(index: number): void {
    const item = this.items[index];
    if (item !== undefined) this.spec.choose(item);
  }
}
