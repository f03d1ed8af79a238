/**
 * Which entries are their previous version plus appended text. The host says
 * so (an `append` op); remembering it lets a streaming answer's Markdown take
 * the new part without first checking that the whole text still starts with
 * what it has (for a 1 MB answer that check copied and compared a megabyte
 * per update).
 */
import type { EntryOp } from '../../src/shared/page/protocol';
import { isTextEntry, type Entry } from '../../src/shared/thread/thread';

/** A text known to be an earlier one plus `appended` (see `MarkdownStream.update`). */
export interface TextGrowth {
  readonly from: string;
  readonly appended: string;
}

const grownFrom = new WeakMap<Entry, { readonly previous: Entry; readonly appended: string }>();

/**
 * Records, for each `append` op of a patch just applied (`before` -> `after`),
 * which entry the new one was made from. An index with more than one op is
 * left out: its entry was not made from `before`'s alone.
 */
export function noteAppends(before: readonly Entry[], after: readonly Entry[], ops: readonly EntryOp[]): void {
  const opsAt = new Map<number, number>();
  for (const op of ops) opsAt.set(op.index, (opsAt.get(op.index) ?? 0) + 1);
  for (const op of ops) {
    const [old, grown] = [before[op.index], after[op.index]];
    if (op.op === 'append' && opsAt.get(op.index) === 1 && old && grown && old !== grown) {
      grownFrom.set(grown, { previous: old, appended: op.text });
    }
  }
}

/** How `entry`'s text grew from `previous`'s, when `entry` is `previous` with text appended. */
export function textGrowth(entry: Entry, previous: Entry | undefined): TextGrowth | undefined {
  const growth = grownFrom.get(entry);
  return previous && growth?.previous === previous && isTextEntry(previous)
    ? { from: previous.text, appended: growth.appended }
    : undefined;
}
