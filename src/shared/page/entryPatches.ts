/**
 * Turns "the entries the view has" and "the entries the thread has now" into
 * the few ops that bring the view up to date.
 */
import type { EntryOp } from './protocol';
import { grownSince } from '../text/textGrowth';
import { isTextEntry, type Entry, type TextEntry } from '../thread/thread';

export interface EntriesPatch {
  length: number;
  ops: EntryOp[];
}

/**
 * The view is patched at most this often while an agent streams: every
 * other frame at 60 Hz. A patch's cost in the view is part fixed (the
 * message, the render, a frame's style, layout and paint of what is in view)
 * and part the text it brings, so fewer patches cost less for the same text
 * (measured on a 1 MB reply in 10,000 chunks: 629 patches at 16 ms, 307 at
 * 33 ms, a quarter less main-thread CPU). Text still arrives in its first
 * frame after a pause (see nextFlushAt); a steady stream is shown 30 times a
 * second, as fast as anyone reads it.
 */
export const FLUSH_INTERVAL_MS = 33;

/**
 * When to post what changed at `now`, the last post having been at
 * `lastFlushAt`: at once when nothing was posted for an interval (the first
 * chunk after a pause is not held back), else an interval after that post (at
 * most one patch per interval, carrying every change since).
 */
export function nextFlushAt(now: number, lastFlushAt: number): number {
  return Math.max(now, lastFlushAt + FLUSH_INTERVAL_MS);
}

/**
 * The most of one message's text the view is given. One agent message can be
 * as long as the 16 MiB line limit (and grow past it chunk by chunk); laid out
 * as Markdown that froze the whole window. The view shows this much and says
 * how long the message is; the whole text opens in an editor.
 */
export const SHOWN_TEXT_LIMIT = 256 * 1024;

/**
 * Diffs by identity: an unchanged entry is the same object (the reducer keeps
 * identity), so the scan is one pointer comparison per entry. A text entry
 * that only grew is sent as an `append` of the new tail: the pieces appended
 * since (textGrowth.ts), else the tail sliced off. Text past `limit`
 * characters is not sent, only the message's whole length.
 */
export function diffEntries(
  sent: readonly Entry[],
  now: readonly Entry[],
  limit = SHOWN_TEXT_LIMIT,
): EntriesPatch | undefined {
  const ops: EntryOp[] = [];
  // Tool calls can change far back in the list, so every entry is compared;
  // identity checks are cheap.
  for (let i = 0; i < now.length; i++) {
    const before = sent[i];
    const after = now[i];
    if (before === after) continue;
    // The reducer changes a text entry only by appending to it (same id).
    if (
      before &&
      isTextEntry(before) &&
      isTextEntry(after) &&
      before.kind === after.kind &&
      before.id === after.id &&
      after.text.length >= before.text.length
    ) {
      ops.push(appendOp(i, before, after, limit));
    } else {
      ops.push({ op: 'set', index: i, entry: isTextEntry(after) ? shownText(after, limit) : after });
    }
  }
  if (ops.length === 0 && sent.length === now.length) return undefined;
  return { length: now.length, ops };
}

function appendOp(index: number, before: TextEntry, after: TextEntry, limit: number): EntryOp {
  const fullLength = after.text.length > limit ? { fullLength: after.text.length } : {};
  if (before.text.length >= limit) return { op: 'append', index, text: '', ...fullLength };
  const added = grownSince(before, after) ?? after.text.slice(before.text.length);
  return { op: 'append', index, text: clip(added, limit - before.text.length), ...fullLength };
}

/** The entry as the view is given it: at most `limit` characters, and the whole length when cut. */
function shownText(entry: TextEntry, limit: number): TextEntry {
  return entry.text.length > limit ? { ...entry, text: clip(entry.text, limit), fullLength: entry.text.length } : entry;
}

/** The first `length` characters, never ending on half of a surrogate pair. */
function clip(text: string, length: number): string {
  if (text.length <= length) return text;
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** Applies a patch on the view side; returns a new array. */
export function applyEntriesPatch(entries: readonly Entry[], patch: EntriesPatch): Entry[] {
  const next = entries.slice(0, patch.length);
  for (const op of patch.ops) {
    if (op.op === 'set') {
      next[op.index] = op.entry;
    } else {
      const old = next[op.index];
      if (old && isTextEntry(old)) {
        next[op.index] = {
          ...old,
          text: old.text + op.text,
          ...(op.fullLength !== undefined ? { fullLength: op.fullLength } : {}),
        };
      }
    }
  }
  return next;
}
