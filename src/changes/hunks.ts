/**
 * The agent's change to one file, hunk by hunk, for review where the user reads code (issue 32): Keep moves the
 * baseline for one hunk only, Undo puts back exactly that hunk's lines. Three texts: `before` (the baseline: the
 * version before the agent's change, or since kept), `after` (what the agent left, or since undone in part) and
 * `now` (the file as the user has it, unsaved edits included). A hunk is a change from `before` to `after`; it is
 * found in `now` through the user's own changes since (`after` to `now`), and when the user changed any of its lines
 * (or right at its edges) it is the user's too: Undo is refused there.
 *
 * Lines keep their ends (`\n`, `\r\n`, none at the end of a file), so putting lines back restores their bytes.
 */
import { diffArrays } from 'diff';

/** Lines [start, start + count) of a text, 0-based. */
export interface LineRange {
  readonly start: number;
  readonly count: number;
}

export interface Hunk {
  readonly before: LineRange;
  readonly after: LineRange;
  /** Where its lines are now; undefined when the user changed them since (or next to them). */
  readonly now?: LineRange;
  /** Where it is shown: `now`, or for one the user changed, where its lines would be but for that. */
  readonly near: LineRange;
  /** Its name (keyOf): the same for the same change wherever it is. */
  readonly key: string;
}

/** Past this many changed lines, or this long, the diff gives up: the whole text is one change (never a freeze). */
const MAX_EDIT_LENGTH = 2000;
const MAX_DIFF_MS = 100;

/** The lines of `text`, each with its end. */
export function linesOf(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.at(-1) === '' ? lines.slice(0, -1) : lines;
}

/** Where `a` and `b` differ, in order: each a range of `a` replaced by a range of `b`. */
export function lineChanges(a: readonly string[], b: readonly string[]): Array<{ a: LineRange; b: LineRange }> {
  const parts = diffArrays(a as string[], b as string[], { maxEditLength: MAX_EDIT_LENGTH, timeout: MAX_DIFF_MS });
  if (!parts) {
    return a.join('') === b.join('') ? [] : [{ a: { start: 0, count: a.length }, b: { start: 0, count: b.length } }];
  }
  const changes: Array<{ a: LineRange; b: LineRange }> = [];
  let ai = 0;
  let bi = 0;
  for (const part of parts) {
    const n = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      ai += n;
      bi += n;
      continue;
    }
    const last = changes.at(-1);
    // A removal next to an addition is one replacement.
    const open = last && last.a.start + last.a.count === ai && last.b.start + last.b.count === bi ? last : undefined;
    const change = open ?? { a: { start: ai, count: 0 }, b: { start: bi, count: 0 } };
    if (!open) changes.push(change);
    if (part.removed) {
      change.a = { start: change.a.start, count: change.a.count + n };
      ai += n;
    } else {
      change.b = { start: change.b.start, count: change.b.count + n };
      bi += n;
    }
  }
  return changes;
}

/** The agent's hunks (`before` to `after`), each placed in `now` unless the user changed its lines since. */
export function hunksOf(before: string, after: string, now: string): Hunk[] {
  const [b, a, n] = [linesOf(before), linesOf(after), linesOf(now)];
  const user = lineChanges(a, n);
  return lineChanges(b, a).map(({ a: inBefore, b: inAfter }) => {
    const start = inAfter.start;
    const end = start + inAfter.count;
    const shift = user.filter((u) => u.a.start + u.a.count < start).reduce((sum, u) => sum + u.b.count - u.a.count, 0);
    const near = { start: start + shift, count: inAfter.count };
    // A user change touches the hunk when it overlaps its lines or sits at either edge.
    const touched = user.some((u) => u.a.start <= end && u.a.start + u.a.count >= start);
    const hunk = { before: inBefore, after: inAfter, near, key: keyOf(b, a, inBefore, inAfter) };
    return touched ? hunk : { ...hunk, now: near };
  });
}

/**
 * A hunk's name, which holds while others are kept or undone: a hash of its lines before and after the agent's
 * change. A Keep or Undo clicked on a hunk finds that hunk by it, even once the review was looked at again.
 */
function keyOf(b: readonly string[], a: readonly string[], inBefore: LineRange, inAfter: LineRange): string {
  const text = `${b.slice(inBefore.start, inBefore.start + inBefore.count).join('')}\0${a.slice(inAfter.start, inAfter.start + inAfter.count).join('')}`;
  // FNV-1a, 32 bits, with the length: a name for finding a hunk again, not a check of its bytes.
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${(hash >>> 0).toString(36)}.${text.length}`;
}

/** `lines` with `range` replaced by `by`, as text. */
function replaced(lines: readonly string[], range: LineRange, by: readonly string[]): string {
  return [...lines.slice(0, range.start), ...by, ...lines.slice(range.start + range.count)].join('');
}

/** Keep: the baseline with this hunk's change made, so the hunk is no longer a change. */
export function keptBefore(before: string, after: string, hunk: Hunk): string {
  const a = linesOf(after);
  return replaced(linesOf(before), hunk.before, a.slice(hunk.after.start, hunk.after.start + hunk.after.count));
}

/** Undo, in the agent's version: `after` with this hunk's lines back as they were. */
export function undoneAfter(before: string, after: string, hunk: Hunk): string {
  const b = linesOf(before);
  return replaced(linesOf(after), hunk.after, b.slice(hunk.before.start, hunk.before.start + hunk.before.count));
}

/** Undo, in the file: `now` with this hunk's lines back as they were; undefined when the user changed them since. */
export function undoneNow(before: string, now: string, hunk: Hunk): string | undefined {
  if (!hunk.now) return undefined;
  const b = linesOf(before);
  return replaced(linesOf(now), hunk.now, b.slice(hunk.before.start, hunk.before.start + hunk.before.count));
}

/** `now` with every hunk still as the agent left it undone (those the user changed stay as the user has them). */
export function undoneAll(before: string, after: string, now: string): string {
  const lines = linesOf(now);
  const b = linesOf(before);
  // From the last hunk to the first, so that the places of those before it hold.
  for (const hunk of hunksOf(before, after, now).reverse()) {
    if (hunk.now) {
      lines.splice(
        hunk.now.start,
        hunk.now.count,
        ...b.slice(hunk.before.start, hunk.before.start + hunk.before.count),
      );
    }
  }
  return lines.join('');
}
