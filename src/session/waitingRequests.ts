/**
 * Requests of an agent that wait for the user (permission prompts,
 * questions), oldest first: each is answered once, by the user or with
 * `withdrawn` when the agent takes it back; at most `max` wait, and the chat
 * hears once per flood that the rest were refused.
 */
export interface Waiting<R> {
  readonly resolve: (response: R) => void;
}

export class WaitingRequests<T extends Waiting<R>, R> {
  private waiting: T[] = [];
  /** Requests refused for the limit since none waited. */
  private refused = 0;

  constructor(
    private readonly max: number,
    /** Told after every change of what waits. */
    private readonly changed: () => void,
  ) {}

  get items(): readonly T[] {
    return this.waiting;
  }

  /** True when the next request would be refused. */
  get full(): boolean {
    return this.waiting.length >= this.max;
  }

  /** Counts a request refused for the limit; true for the first of a flood (the one to tell the user about). */
  refuse(): boolean {
    return this.refused++ === 0;
  }

  /** `item` waits until settled; the agent aborting `signal` settles it with `withdrawn`. */
  add(item: T, signal: AbortSignal, withdrawn: R): void {
    this.waiting.push(item);
    signal.addEventListener('abort', () => this.settle(item, withdrawn));
    this.changed();
  }

  settle(item: T, response: R): void {
    const index = this.waiting.indexOf(item);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    if (this.waiting.length === 0) this.refused = 0;
    item.resolve(response);
    this.changed();
  }

  settleAll(response: R): void {
    for (const item of [...this.waiting]) this.settle(item, response);
  }
}
