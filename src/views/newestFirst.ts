/**
 * A chat the page does not hold is sent newest first. Showing another of a
 * few long chats (one the page did not keep: over KEEP_MAX_CHARS) used to post
 * its whole list at once: 21 MB for 10,000 entries, ~90 ms of serialising in
 * the host and ~250 ms in the page before the chat appeared. The page shows a
 * chat from its newest end and holds only the entries near the view (see the
 * list's far-groups.ts), so it needs the newest entries first: the first post
 * carries the newest POST_CHARS of the list (with its whole length), and each
 * flush after it the next older POST_CHARS, until all are there. An entry not
 * sent yet is a hole in the page's list, which the page shows as an empty
 * group until it comes.
 */
import { diffEntries, type EntriesPatch } from '../shared/page/entryPatches';
import type { Entry } from '../shared/thread/thread';
import { entrySize } from '../shared/saved/transcriptBound';

/** Characters of entries in one post of a list sent newest first. */
export const POST_CHARS = 256 * 1024;

/** Where the entries before `below` that fit in one post start (at least one entry). */
function postStart(entries: readonly Entry[], below: number): number {
  let size = 0;
  let start = below;
  while (start > 0) {
    size += entrySize(entries[start - 1]!);
    if (size > POST_CHARS && start < below) break;
    start--;
  }
  return start;
}

/**
 * The first post of `entries` to a page that holds none of them: the whole
 * length and the newest entries that fit; `unsentBelow`: the entries before
 * it are still to send (see nextPost).
 */
export function firstPost(entries: readonly Entry[]): { patch: EntriesPatch; unsentBelow: number } {
  const start = postStart(entries, entries.length);
  const patch = diffEntries(entries.slice(0, start), entries) ?? { length: entries.length, ops: [] };
  return { patch, unsentBelow: start };
}

/**
 * The next older entries to send, to go with a flush's patch (`patch`: what
 * changed since the last post, or undefined): the patch with them, and the
 * new `unsentBelow`.
 */
export function nextPost(
  entries: readonly Entry[],
  unsentBelow: number,
  patch: EntriesPatch | undefined,
): { patch: EntriesPatch; unsentBelow: number } {
  const below = Math.min(unsentBelow, entries.length);
  const start = postStart(entries, below);
  const older = diffEntries(entries.slice(0, start), entries.slice(0, below))?.ops ?? [];
  const changed = (patch?.ops ?? []).filter((op) => op.index >= below || op.index < start);
  return { patch: { length: entries.length, ops: [...older, ...changed] }, unsentBelow: start };
}
