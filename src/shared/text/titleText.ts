/**
 * A title from an agent (a session's title today, session listings later)
 * made fit for one line of the UI: control characters, bidi overrides and
 * isolates (which could make a title read differently than it is, as in
 * CVE-2021-42574) and zero-width characters go, whitespace runs become one
 * space, and a long title is cut with "…". Never markup: it stays text.
 */

/** The longest title shown; the chat header shows the whole of it in its tooltip. */
export const MAX_TITLE_CHARS = 200;

// C0 and C1 controls (tab and newlines become spaces below), bidi embeddings, overrides, isolates and
// marks, zero-width spaces and joiners, the BOM, and lone surrogates.
const INVISIBLE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function titleText(raw: string, max = MAX_TITLE_CHARS): string {
  return cutText(
    raw
      .slice(0, max * 4)
      .replace(INVISIBLE, '')
      .replace(/\s+/g, ' ')
      .trim(),
    max,
  );
}

/** `text` when at most `max` characters, else its start and "…" in `max` characters, cut on a code point boundary. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  if (/[\ud800-\udbff]/.test(text[cut - 1] ?? '')) cut--;
  return `${text.slice(0, cut)}…`;
}
