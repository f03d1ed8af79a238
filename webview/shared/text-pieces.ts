/**
 * Long text, laid out in pieces.
 *
 * Chromium lays out one block of text (an inline formatting context) in time
 * that grows faster than its length for some kinds of text: 262,144
 * characters of Thai took 34 s, alternating Latin and Hebrew letters 22 s
 * (every direction change is a bidi run, and the runs are walked again per
 * line), Hebrew alone 2.5 s, Arabic 1.3 s, while as many `x` took 36 ms
 * (measured in Debian's Chromium at 300 px wide; newlines inside the block do
 * not help, the cost is per block). So no element here lays out more than
 * PIECE_CHARS characters of an agent's text: longer text is cut into pieces,
 * each a block of its own (4,096 characters of those shapes: 4 to 13 ms),
 * and a piece is skipped by layout while it is off screen
 * (`content-visibility: auto`), so a frame lays out only the pieces in view.
 *
 * A piece ends after a newline where one falls in its second half (a block's
 * last newline adds no empty line), else it is cut at
 * PIECE_CHARS, never inside a character, before a combining mark or next to
 * a joiner. The pieces' text is the whole text; a cut line shows a line break
 * at the cut.
 */
import { css } from 'lit';
import { visibleProse } from '../../src/shared/text/visibleText';

/** The most characters of text one block lays out. */
export const PIECE_CHARS = 2048;
/**
 * The most characters of a piece that starts with text of a script Chromium lays out many times slower (COSTLY_SCRIPT:
 * right-to-left, Thai and its kin): its cost grows about as the square of its length, so pieces a quarter as long
 * lay out the same text in about a quarter of the time (a streamed 256 KiB of alternating Latin and Hebrew letters:
 * a renderer task of 60-70 ms per update at 292 px with 2,048, the workbench's longest 100 ms).
 */
export const COSTLY_PIECE_CHARS = 512;
/** How much of a piece's start says whether it is of a costly script (fixed once the piece can end: stable as text grows). */
const PROBE_CHARS = 256;

/**
 * Scripts whose text Chromium lays out many times slower than Latin (measured at 300 px, one block of 262,144
 * characters: Thai 34 s, alternating Latin and Hebrew 22 s, Hebrew 2.5 s, Arabic 1.3 s, `x` 36 ms): right-to-left
 * scripts and their presentation forms, and the South-East Asian scripts laid out by dictionary (Thai, Lao, Tibetan,
 * Myanmar, Khmer).
 */
export const COSTLY_SCRIPT = /[\u0590-\u08ff\u0e00-\u0fff\u1000-\u109f\u1780-\u17ff\ufb1d-\ufdff\ufe70-\ufefc]/;

/** The most characters of the piece that starts at `start`: fewer when it starts with text of a costly script. */
function pieceMax(text: string, start: number): number {
  return COSTLY_SCRIPT.test(text.slice(start, start + PROBE_CHARS)) ? COSTLY_PIECE_CHARS : PIECE_CHARS;
}

/** How far back from the cut a safe place to cut is looked for (a run of combining marks can be longer: then it is cut anyway). */
const MAX_BACKOFF = 32;

/** Code points a piece must not start with: the second half of a surrogate pair, combining marks, joiners, variation selectors. */
// eslint-disable-next-line no-misleading-character-class -- each mark, joiner or selector alone, on purpose: a piece must not start with one
const CLINGS_TO_PREVIOUS = /^(?:[\udc00-\udfff]|[\p{M}\u200c\u200d\ufe00-\ufe0f])/u;

/**
 * Where the piece of `text` that starts at `start` ends (the next one starts
 * there); undefined when the rest of the text is short enough to be the last
 * piece.
 */
export function pieceEnd(text: string, start: number, max = pieceMax(text, start)): number | undefined {
  if (text.length - start <= max) return undefined;
  // Looked for in the second half only: lastIndexOf from the cut searches back to the start of the whole text,
  // so a long text without newlines cost each piece all the text before it (40 s for 8 MiB on one line).
  const half = start + Math.ceil(max / 2);
  const newline = text.slice(half, start + max).lastIndexOf('\n');
  if (newline >= 0) return half + newline + 1;
  let end = start + max;
  for (let back = 0; back < MAX_BACKOFF && !safeCut(text, end); back++) end--;
  return safeCut(text, end) ? end : start + max - (isLowSurrogate(text.charCodeAt(start + max)) ? 1 : 0);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function safeCut(text: string, at: number): boolean {
  return !CLINGS_TO_PREVIOUS.test(text.slice(at, at + 1)) && text.charCodeAt(at - 1) !== 0x200d;
}

/** `text` cut into pieces of at most `max` characters (by default, as pieceEnd cuts). */
export function textPieces(text: string, max?: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let end = pieceEnd(text, start, max); end !== undefined; end = pieceEnd(text, start, max)) {
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * Agent text to show as it is (white space as the container says), the bidi
 * controls that would reorder it and runs of combining marks made visible
 * (visibleText.ts): the text itself when short, else its pieces, each a `<span class="piece">` (a
 * block: see pieceStyles, which every element that uses this includes).
 * Elements, not a Lit template per piece: a template instance, its part and
 * its two marker comments per piece made a 64 MiB transcript's view take
 * 70 MiB more.
 */
export function plainText(raw: string): string | DocumentFragment {
  const text = visibleProse(raw);
  if (pieceEnd(text, 0) === undefined) return text;
  const pieces = document.createDocumentFragment();
  for (const piece of textPieces(text)) pieces.append(pieceElement(piece));
  return pieces;
}

/** The pieces of a text that is still growing, by where each starts (see growingText). */
export type PieceCache = Map<number, { readonly text: string; readonly view: HTMLElement }>;

/**
 * The pieces of a text that is still growing, as elements: a piece that is
 * complete (text follows it) is made once and kept in `cache`, so Lit leaves
 * its element in place; only the last piece is made anew. A piece's end
 * depends only on the text up to it (see pieceEnd), so it stays complete.
 */
export function growingText(text: string, cache: PieceCache): HTMLElement[] {
  const out: HTMLElement[] = [];
  let start = 0;
  for (let end = pieceEnd(text, start); end !== undefined; start = end, end = pieceEnd(text, start)) {
    let piece = cache.get(start);
    if (piece?.text.length !== end - start || !text.startsWith(piece.text, start)) {
      const slice = text.slice(start, end);
      piece = { text: slice, view: pieceElement(visibleProse(slice)) };
      cache.set(start, piece);
    }
    out.push(piece.view);
  }
  out.push(pieceElement(visibleProse(text.slice(start))));
  return out;
}

/** One piece: `<span class="piece">` holding `content`. */
export function pieceElement(content: string | Node): HTMLElement {
  const span = document.createElement('span');
  span.className = 'piece';
  span.append(content);
  return span;
}

/**
 * A piece is a block (a span, so that it may stand inside a paragraph), laid
 * out only near the viewport; its size is remembered once laid out, the
 * estimate is for pieces never seen (4,096 characters wrap to tens of lines
 * in a side bar).
 */
export const pieceStyles = css`
  .piece { display: block; content-visibility: auto; contain-intrinsic-block-size: auto 40em; }
`;
