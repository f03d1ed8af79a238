/**
 * Agent text as it appears in a consent prompt or an error message. The
 * agent chooses every character of a command line, so nothing may hide:
 * control characters, bidirectional overrides (which reorder what the user
 * reads: "rm -rf ‮/ etc‬"), zero-width and other invisible characters are
 * shown as escapes, and an argument is quoted as soon as it is not plain.
 */

/** Characters that are invisible, reorder text, or end a line. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u00a0\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164\uffa0]/gu;
/** Text shown bare: unambiguous on its own in a space-separated command line. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A JSON-style quoted string with every hidden character escaped. */
export function quoted(text: string): string {
  // JSON.stringify escapes C0 controls, quotes, backslashes and lone surrogates.
  return JSON.stringify(text).replace(HIDDEN, (c) => escape(c));
}

/** An argument or path: bare when plain, otherwise quoted. */
export function shown(text: string): string {
  return PLAIN.test(text) ? text : quoted(text);
}

/** A long text cut in the middle, for error messages (never for consent prompts). */
export function quotedShort(text: string, max = 160): string {
  const tail = Math.max(0, max / 2 - 10);
  const cut = text.length > max ? `${text.slice(0, max / 2)}…${text.slice(text.length - tail)}` : text;
  return quoted(cut);
}

function escape(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
