/**
 * Prompts the user sent while a turn ran: each waits here, in order, with its
 * attachments, and is sent as its own turn when the turn before it finishes.
 * Send now puts one first and has the running turn stopped: it goes as soon
 * as that turn ends; Move up reorders. A turn that is stopped or fails, or a connection that is
 * lost, leaves the queue as it is (nothing more is sent on its own after
 * those); Edit hands a prompt back to the composer. A prompt being steered
 * into the running turn stays here, marked, until the agent has taken it
 * (then it leaves) or not (then it goes on waiting). Nothing is lost.
 */
import type { DraftAttachment } from '../../attachments/draftAttachments';
import type { WebviewMessage } from '../../shared/page/pageMessages';
import type { QueuedPromptView } from '../../shared/page/protocol';

/** At most this many prompts wait: one more is handed back to the composer. */
export const MAX_QUEUED = 50;

/** What a queued prompt's buttons ask (pageMessages.ts lists them). */
export type QueueAction = Extract<WebviewMessage, { type: 'queued' }>['action'];

export interface QueuedPrompt {
  readonly id: number;
  readonly text: string;
  readonly attachments: readonly DraftAttachment[];
}

export class PromptQueue {
  private items: QueuedPrompt[] = [];
  private nextId = 0;
  /** Counts changes, so that watchers can tell a change without comparing the queue. */
  private changes = 0;
  /** Set by Send now: this prompt (put first) goes when the running turn ends, however it ends. */
  private urgent: number | undefined;
  /** Prompts on their way into the running turn (Steer): not sent as turns of their own meanwhile. */
  private readonly steering = new Set<number>();

  /** What the view shows of the queue, in order. */
  get shown(): QueuedPromptView[] {
    return this.items.map((q) => ({
      id: q.id,
      text: q.text,
      attachments: q.attachments.length,
      ...(this.steering.has(q.id) ? { steering: true } : {}),
    }));
  }

  /** Grows with every change of the queue. */
  get version(): number {
    return this.changes;
  }

  /** The queued prompts' texts, in order (kept over a window reload: see openChats.ts). */
  get texts(): string[] {
    return this.items.map((q) => q.text);
  }

  get full(): boolean {
    return this.items.length >= MAX_QUEUED;
  }

  add(text: string, attachments: readonly DraftAttachment[]): void {
    this.items.push({ id: ++this.nextId, text, attachments });
    this.changes++;
  }

  /** Takes prompt `id` off the queue (not while it is being steered). */
  remove(id: number): QueuedPrompt | undefined {
    const at = this.items.findIndex((q) => q.id === id);
    if (at < 0 || this.steering.has(id)) return undefined;
    this.changes++;
    return this.items.splice(at, 1)[0];
  }

  /** Steer: prompt `id` is on its way into the running turn; undefined when it is not queued or already on its way. */
  steer(id: number): QueuedPrompt | undefined {
    const item = this.items.find((q) => q.id === id);
    if (!item || this.steering.has(id)) return undefined;
    this.steering.add(id);
    this.changes++;
    return item;
  }

  /** The agent answered a Steer: `taken`, the prompt leaves the queue; else it waits again where it was. */
  steered(id: number, taken: boolean): void {
    if (!this.steering.delete(id)) return;
    this.changes++;
    if (taken) this.items = this.items.filter((q) => q.id !== id);
  }

  /** Prompt `id` goes one place earlier. */
  moveUp(id: number): boolean {
    const at = this.items.findIndex((q) => q.id === id);
    if (at <= 0) return false;
    [this.items[at - 1], this.items[at]] = [this.items[at]!, this.items[at - 1]!];
    this.changes++;
    return true;
  }

  /** Send now: prompt `id` goes first, when the running turn ends however it ends. */
  putFirst(id: number): boolean {
    const item = this.remove(id);
    if (!item) return false;
    this.items.unshift(item);
    this.urgent = id;
    return true;
  }

  /** The prompt to send after a turn ended (`finished`: not stopped, not failed), taken off the queue; else undefined. */
  next(finished: boolean): QueuedPrompt | undefined {
    const first = this.items[0];
    if (!first || this.steering.has(first.id) || !(finished || first.id === this.urgent)) return undefined;
    this.urgent = undefined;
    this.changes++;
    return this.items.shift();
  }
}
