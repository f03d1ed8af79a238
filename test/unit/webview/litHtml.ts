/**
 * Lit template values as markup, for the Markdown renderer's unit tests:
 * a template keeps its own fixed markup, and every value in it is escaped
 * text or an attribute value, which is how Lit puts values into the DOM.
 */
import { escapeText, miniNodeHtml } from './miniDom';

interface Template {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}
const isTemplate = (v: unknown): v is Template => typeof v === 'object' && v !== null && '_$litType$' in v;

/** A Lit value as markup: templates keep their own markup, DOM nodes (miniDom.ts) theirs, everything else is escaped text. */
export function toHtml(value: unknown): string {
  const node = miniNodeHtml(value);
  if (node !== undefined) return node;
  if (value === undefined || value === null || value === false || typeof value === 'symbol') return ''; // `nothing` is a symbol
  if (Array.isArray(value)) return value.map(toHtml).join('');
  if (isTemplate(value)) {
    return value.strings
      .reduce((out, text, i) => {
        if (i === value.values.length) return out + text;
        const v = value.values[i];
        if (/@[\w-]+=$/.test(text)) return `${out}${text}"[handler]"`;
        // `nothing` (a symbol) or undefined removes the attribute, as Lit does.
        if (/=$/.test(text)) {
          return typeof v === 'symbol' || v === undefined
            ? out + text.replace(/\s+[\w-]+=$/, '')
            : `${out}${text}"${escapeText(String(v))}"`;
        }
        return out + text + toHtml(v);
      }, '')
      .replace(/\s*\n\s*/g, ' ');
  }
  return escapeText(String(value));
}
