/**
 * Values that must never be written anywhere the extension writes text or
 * shows it (its log, notices, diagnostics, the transcript and everything
 * made from it: the view, saved history, titles, archived Markdown): what
 * `${env:...}` references resolved to. Each is redacted as written and as it
 * appears inside a JSON string.
 */
import type * as vscode from 'vscode';

export const REDACTED = '[redacted]';
/** Shorter values are not secrets worth the damage of redacting them everywhere. */
const MIN_SECRET_CHARS = 4;
/** Kept for the extension host's life; the oldest go first past this. */
const MAX_SECRETS = 512;

export class Redactor {
  /** Longest first, so a secret containing another is replaced whole. */
  private forms: string[] = [];
  private readonly values = new Set<string>();

  add(values: Iterable<string>): void {
    let changed = false;
    for (const value of values) {
      if (value.length < MIN_SECRET_CHARS || this.values.has(value)) continue;
      this.values.add(value);
      changed = true;
      if (this.values.size > MAX_SECRETS) this.values.delete(this.values.values().next().value!);
    }
    if (!changed) return;
    const forms = new Set<string>();
    for (const value of this.values) {
      forms.add(value);
      forms.add(JSON.stringify(value).slice(1, -1));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** Whether there is anything to redact (no `${env:...}` resolved yet: nothing to do anywhere). */
  get active(): boolean {
    return this.forms.length > 0;
  }

  redact(text: string): string {
    for (const form of this.forms) if (text.includes(form)) text = text.split(form).join(REDACTED);
    return text;
  }

  /**
   * How many characters at the end of `text` could be the start of a secret
   * that the next piece of a stream completes: the longest end of `text`
   * that is the beginning of a secret (not the whole of one: `redact` first).
   */
  pendingLength(text: string): number {
    let longest = 0;
    for (const form of this.forms) {
      // Only where the form's first character stands can one of its beginnings start.
      for (let at = Math.max(0, text.length - form.length + 1); at < text.length; at++) {
        if (text.length - at <= longest) break;
        if (text.charCodeAt(at) === form.charCodeAt(0) && form.startsWith(text.slice(at))) {
          longest = text.length - at;
          break;
        }
      }
    }
    return longest;
  }

  /** `value` with every string in it redacted; the same object when nothing was (so identity checks still say what changed). */
  redactStrings<T>(value: T): T {
    if (!this.active) return value;
    return this.redactDeep(value, 0) as T;
  }

  private redactDeep(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const redacted = this.redactDeep(item, depth + 1);
        changed ||= redacted !== item;
        return redacted;
      });
      return changed ? out : value;
    }
    let out: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const redacted = this.redactDeep(item, depth + 1);
      if (redacted !== item) (out ??= { ...value })[key] = redacted;
    }
    return out ?? value;
  }
}

/** Deeper than this an agent's message is not walked (the SDK's schemas are far shallower; a hostile one may not be). */
const MAX_DEPTH = 64;

/** The extension's one redactor: every log and notice goes through it. */
export const redactor = new Redactor();

const WRITES = new Set(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/** `log`, with every text written to it redacted first. */
export function redactingLog(log: vscode.LogOutputChannel, by: Redactor = redactor): vscode.LogOutputChannel {
  const text = (arg: unknown): unknown => {
    if (typeof arg === 'string') return by.redact(arg);
    if (arg instanceof Error) return by.redact(arg.stack ?? arg.message);
    if (typeof arg === 'object' && arg !== null) {
      try {
        return by.redact(JSON.stringify(arg));
      } catch {
        return '[unprintable]';
      }
    }
    return arg;
  };
  return new Proxy(log, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (typeof property === 'string' && WRITES.has(property)) {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(text));
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
