/**
 * Notices and compaction boundaries come without anything said between them, and an agent can send them without
 * end: a run of 10,000 boundaries stayed in the page as identical rows and made every later update cost the view
 * 0.3-1 s (and a stray line of output is a notice each). So a run of them (nothing else between) holds at most
 * MAX_RUN entries: the first MAX_RUN - 1, then the newest, which says how many before it are not shown.
 */
import { append, replaceAt } from './messageEntries';
import type { CompactionEntry, Entry, NoticeEntry, Thread } from './thread';

export const MAX_RUN = 20;

type RunEntry = NoticeEntry | CompactionEntry;

const inRun = (entry: Entry | undefined): entry is RunEntry => entry?.kind === 'notice' || entry?.kind === 'compaction';

/** `thread` with `entry` added at the end, within its run's bound. */
export function appendToRun(thread: Thread, entry: RunEntry): Thread {
  const { entries } = thread;
  let run = 0;
  while (run < MAX_RUN && inRun(entries[entries.length - 1 - run])) run++;
  if (run < MAX_RUN) return append(thread, entry);
  const last = entries[entries.length - 1] as RunEntry;
  return replaceAt(thread, entries.length - 1, { ...entry, leftOut: (last.leftOut ?? 0) + 1 });
}
