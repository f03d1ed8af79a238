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
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function titleText(raw: string, max = MAX_TITLE_CHARS): string {
  const clean = raw.slice(0, max * 4).replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  // Cut on a code point boundary.
  let cut = max - 1;
  if (/[\ud800-\udbff]/.test(clean[cut - 1] ?? '')) cut--;
  return `${clean.slice(0, cut)}…`;
}
