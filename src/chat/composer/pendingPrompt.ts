/**
 * A prompt the user sent before the agent was connected. A user's text is
 * never lost: it waits here (shown as pending, cancellable) with its
 * attachments and is sent once connected; when the connection fails or the
 * user cancels, the text is handed back to the composer, and held until the
 * composer says it took it (the view may be hidden at that moment); the
 * attachments go back to the chat's draft.
 */
import type { DraftAttachment } from '../../attachments/draftAttachments';
import type { ReturnedDraft } from '../../shared/page/protocol';

export interface WaitingPrompt {
  readonly text: string;
  readonly attachments: readonly DraftAttachment[];
}

export class PendingPrompt {
  private waiting: WaitingPrompt | undefined;
  private returned: ReturnedDraft | undefined;
  private nextId = 0;

  /** The text waiting to be sent, if any (a prompt of attachments only waits as ''). */
  get text(): string | undefined {
    return this.waiting?.text;
  }

  /** Text handed back to the composer and not yet taken. */
  get draft(): ReturnedDraft | undefined {
    return this.returned;
  }

  /** Adds a prompt; a second one while waiting joins the first, as one message. */
  add(text: string, attachments: readonly DraftAttachment[] = []): void {
    this.waiting = {
      text: join(this.waiting?.text, text),
      attachments: [...(this.waiting?.attachments ?? []), ...attachments],
    };
  }

  /** Takes the waiting prompt to send it. */
  take(): WaitingPrompt | undefined {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting;
  }

  /**
   * It will not be sent: the text back to the composer. Returns the
   * attachments that waited with it (for the draft), or undefined when
   * nothing waited.
   */
  giveBack(): readonly DraftAttachment[] | undefined {
    const waiting = this.waiting;
    if (waiting === undefined) return undefined;
    this.waiting = undefined;
    this.handBack(waiting.text);
    return waiting.attachments;
  }

  /** Text of a prompt that could not be sent, back to the composer. */
  handBack(text: string): void {
    if (text.trim() === '') return;
    this.returned = { id: ++this.nextId, text: join(this.returned?.text, text) };
  }

  /** The composer took the returned text. */
  taken(id: number): boolean {
    if (this.returned?.id !== id) return false;
    this.returned = undefined;
    return true;
  }
}

function join(before: string | undefined, text: string): string {
  if (before === undefined || before.trim() === '') return text;
  return text.trim() === '' ? before : `${before}\n\n${text}`;
}
