/** Each chat's unsent text, kept in the webview's state (it survives the view being hidden and a reload). */
import { MAX_DRAFT_CHARS } from '../../src/shared/page/protocol';
import { loadUiState, saveUiState } from '../host';
import { toHost } from '../shared/to-host';

/** Typing settles this long before the host is told: not a message per keystroke. */
const DRAFT_DELAY_MS = 500;

/** Moves `from`'s unsent text to `to`, unless `to` has its own. */
export function moveDraft(from: string, to: string): void {
  const { [from]: text, ...others } = loadUiState().drafts ?? {};
  if (!text || others[to]) return;
  saveUiState({ drafts: { ...others, [to]: text } });
}

/** Tells the host what is in a chat's box once typing settles, so that the host can bring it back after a reload. */
export class DraftToHost {
  private pending: { chatId: string; text: string } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly from: EventTarget) {}

  schedule(chatId: string, text: string): void {
    if (!chatId) return;
    if (this.pending && this.pending.chatId !== chatId) this.flush();
    this.pending = { chatId, text: text.slice(0, MAX_DRAFT_CHARS) };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), DRAFT_DELAY_MS);
  }

  /** Sends what waits now, under the chat it was typed in. */
  flush(): void {
    clearTimeout(this.timer);
    const pending = this.pending;
    this.pending = undefined;
    if (pending) toHost(this.from, { type: 'draft', chatId: pending.chatId, text: pending.text });
  }
}
