/**
 * A minimal event: the `vscode.EventEmitter` shape (subscribe, get a
 * disposable) without importing vscode, which this folder must not.
 */

export interface Disposable {
  dispose(): void;
}

export type Event<A extends unknown[]> = (listener: (...args: A) => void) => Disposable;

export class Listeners<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  /** A throwing listener must not stop the others or the output pipeline that fires it. */
  constructor(private readonly onError: (error: unknown) => void) {}

  readonly event: Event<A> = (listener) => {
    // Wrapped, so that the same function subscribed twice gets two subscriptions.
    const entry = (...args: A) => listener(...args);
    this.listeners.add(entry);
    return { dispose: () => this.listeners.delete(entry) };
  };

  fire(...args: A): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
