/**
 * A polite live region: what it is given, a screen reader says once, when
 * the user is not busy. Used for what a sighted user sees happen elsewhere
 * (a turn ended, a permission is asked).
 */
import { html, type TemplateResult } from 'lit';

/** Long agent text is cut: the announcement is a pointer, the transcript has the rest. */
const MAX_ANNOUNCEMENT = 300;

export class LiveRegion {
  private text = '';
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: { requestUpdate(): void }) {}

  announce(text: string): void {
    const clipped = text.length > MAX_ANNOUNCEMENT ? `${text.slice(0, MAX_ANNOUNCEMENT)}…` : text;
    // The same words twice in a row are only spoken again if the region changes in between.
    this.text = '';
    this.host.requestUpdate();
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.text = clipped;
      this.host.requestUpdate();
    }, 50);
  }

  /** Empties the region: what it said is no longer true (a new turn started). */
  clear(): void {
    clearTimeout(this.pending);
    if (this.text === '') return;
    this.text = '';
    this.host.requestUpdate();
  }

  /** The current announcement (tests and the region itself read it). */
  get current(): string {
    return this.text;
  }

  render(): TemplateResult {
    return html`<div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.text}</div>`;
  }
}
