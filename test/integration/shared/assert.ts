/**
 * The few assertions the integration tests use. Written here instead of
 * importing Node's `assert`, because the web worker bundle must not carry
 * Node builtins or their polyfills (a process shim would hide real leaks).
 */
export class AssertionError extends Error {
  override name = 'AssertionError';
}

export function ok(value: unknown, message = 'expected a truthy value'): asserts value {
  if (!value) throw new AssertionError(message);
}

export function equal<T>(actual: T, expected: T, message?: string): void {
  if (actual !== expected) {
    throw new AssertionError(message ?? `expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export function match(text: string, pattern: RegExp, message?: string): void {
  if (!pattern.test(text)) throw new AssertionError(message ?? `expected ${pattern} to match:\n${text}`);
}

/** Equal as JSON (plain data: arrays, objects, strings, numbers). */
export function deepEqual<T>(actual: T, expected: T, message?: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new AssertionError(message ?? `expected ${e}, got ${a}`);
}
