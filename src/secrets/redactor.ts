/**
 * Values that must never be written anywhere the extension writes text (its
 * log, notices, diagnostics): what `${env:...}` references resolved to. Each
 * is redacted as written and as it appears inside a JSON string.
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

  redact(text: string): string {
    for (const form of this.forms) if (text.includes(form)) text = text.split(form).join(REDACTED);
    return text;
  }
}

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
      if (typeof property === 'string' && WRITES.has(property)) return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(text));
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}
