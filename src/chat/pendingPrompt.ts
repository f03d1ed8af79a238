/**
 * A prompt the user sent before the agent was connected. A user's text is
 * never lost: it waits here (shown as pending, cancellable) and is sent once
 * connected; when the connection fails or the user cancels, it is handed back
 * to the composer, and held until the composer says it took it (the view may
 * be hidden at that moment).
 */
import type { ReturnedDraft } from '../shared/protocol';

export class PendingPrompt {
  private waiting: string | undefined;
  private returned: ReturnedDraft | undefined;
  private nextId = 0;

  /** The text waiting to be sent, if any. */
  get text(): string | undefined {
    return this.waiting;
  }

  /** Text handed back to the composer and not yet taken. */
  get draft(): ReturnedDraft | undefined {
    return this.returned;
  }

  /** Adds a prompt; a second one while waiting joins the first, as one message. */
  add(text: string): void {
    this.waiting = join(this.waiting, text);
  }

  /** Takes the waiting text to send it. */
  take(): string | undefined {
    const text = this.waiting;
    this.waiting = undefined;
    return text;
  }

  /** It will not be sent: back to the composer. Returns whether anything was waiting. */
  giveBack(): boolean {
    if (this.waiting === undefined) return false;
    this.returned = { id: ++this.nextId, text: join(this.returned?.text, this.waiting) };
    this.waiting = undefined;
    return true;
  }

  /** The composer took the returned text. */
  taken(id: number): boolean {
    if (this.returned?.id !== id) return false;
    this.returned = undefined;
    return true;
  }
}

function join(before: string | undefined, text: string): string {
  return before === undefined ? text : `${before}\n\n${text}`;
}
