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

/** While a test watches for leaks (watchListeners): each live subscription to an emitter older than the watch. */
let watched: Map<object, string> | undefined;
/** Grows at each watch: an emitter made during one is the test's own, not older. */
let era = 0;

/**
 * Starts (`on`) or stops keeping every subscription made from now on to an emitter made before, until it ends
 * (disposed, or its emitter disposed): the unit tests' leak check (test/unit/noLeaks.test.ts), as VS Code's own tests
 * have. What a test makes and leaves to be collected with it is not kept; a listener it leaves on something that
 * outlives it is. Off, nothing is kept.
 */
export function watchListeners(on: boolean): ReadonlyMap<object, string> | undefined {
  era++;
  watched = on ? new Map() : undefined;
  return watched;
}

export class Emitter<T> implements Disposable {
  private readonly born = era;
  /** One entry per subscription (the same function may listen twice); undefined once disposed. */
  private listeners: Set<{ readonly call: (e: T) => unknown }> | undefined = new Set();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const listeners = this.listeners;
    if (!listeners) return { dispose: () => undefined };
    const entry = { call: thisArgs === undefined ? listener : listener.bind(thisArgs) };
    listeners.add(entry);
    if (watched && this.born < era) watched.set(entry, new Error('a listener left subscribed').stack ?? '');
    const subscription = {
      dispose: () => {
        listeners.delete(entry);
        watched?.delete(entry);
      },
    };
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
    for (const entry of this.listeners ?? []) watched?.delete(entry);
    this.listeners = undefined;
  }
}
