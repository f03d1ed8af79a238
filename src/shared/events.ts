/**
 * Events and disposables without VS Code, shaped like its own (an Event is a
 * function that takes a listener and returns how to stop listening), so
 * that the chat core runs in plain Node too and VS Code's API takes them
 * where it takes its own.
 */

/** Every host has one (src/shared is compiled without the DOM's or Node's types). */
declare const console: { error(...data: unknown[]): void };

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> implements Disposable {
  /** One entry per subscription (the same function may listen twice); undefined once disposed. */
  private listeners: Set<{ readonly call: (e: T) => unknown }> | undefined = new Set();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const listeners = this.listeners;
    if (!listeners) return { dispose: () => undefined };
    const entry = { call: thisArgs === undefined ? listener : listener.bind(thisArgs) };
    listeners.add(entry);
    const subscription = { dispose: () => void listeners.delete(entry) };
    disposables?.push(subscription);
    return subscription;
  };

  /**
   * Calls each listener in the order they came. One that stopped listening
   * meanwhile is not called; one that throws does not keep the others from
   * their call (as in VS Code: the error is logged).
   */
  fire(e: T): void {
    const listeners = this.listeners;
    if (!listeners) return;
    for (const entry of [...listeners]) {
      if (!listeners.has(entry)) continue;
      try {
        entry.call(e);
      } catch (error) {
        console.error('An event listener failed:', error);
      }
    }
  }

  dispose(): void {
    this.listeners = undefined;
  }
}
