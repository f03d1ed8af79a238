/**
 * Turns "the entries the view has" and "the entries the thread has now" into
 * the few ops that bring the view up to date.
 */
import type { EntryOp } from './protocol';
import { grownSince } from './textGrowth';
import { isTextEntry, type Entry } from './thread';

export interface EntriesPatch {
  length: number;
  ops: EntryOp[];
}

/** One animation frame: the view is patched at most this often while streaming. */
export const FLUSH_INTERVAL_MS = 16;

/**
 * When to post what changed at `now`, the last post having been at
 * `lastFlushAt`: at once when nothing was posted for a frame (the first chunk
 * after a pause is not held back a frame), else a frame after that post (at
 * most one patch per frame, carrying every change since).
 */
export function nextFlushAt(now: number, lastFlushAt: number): number {
  return Math.max(now, lastFlushAt + FLUSH_INTERVAL_MS);
}

/**
 * Diffs by identity: an unchanged entry is the same object (the reducer keeps
 * identity), so the scan is one pointer comparison per entry. A text entry
 * that only grew is sent as an `append` of the new tail: the pieces appended
 * since (textGrowth.ts), else the tail sliced off.
 */
export function diffEntries(sent: readonly Entry[], now: readonly Entry[]): EntriesPatch | undefined {
  const ops: EntryOp[] = [];
  // Tool calls can change far back in the list, so every entry is compared;
  // identity checks are cheap.
  for (let i = 0; i < now.length; i++) {
    const before = sent[i];
    const after = now[i];
    if (before === after) continue;
    // The reducer changes a text entry only by appending to it (same id).
    if (before && isTextEntry(before) && isTextEntry(after) && before.kind === after.kind && before.id === after.id
      && after.text.length >= before.text.length) {
      ops.push({ op: 'append', index: i, text: grownSince(before, after) ?? after.text.slice(before.text.length) });
    } else {
      ops.push({ op: 'set', index: i, entry: after });
    }
  }
  if (ops.length === 0 && sent.length === now.length) return undefined;
  return { length: now.length, ops };
}

/** Applies a patch on the view side; returns a new array. */
export function applyEntriesPatch(entries: readonly Entry[], patch: EntriesPatch): Entry[] {
  const next = entries.slice(0, patch.length);
  for (const op of patch.ops) {
    if (op.op === 'set') {
      next[op.index] = op.entry;
    } else {
      const old = next[op.index];
      if (old && isTextEntry(old)) next[op.index] = { ...old, text: old.text + op.text };
    }
  }
  return next;
}
