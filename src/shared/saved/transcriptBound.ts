/**
 * The bound on how much transcript a chat keeps in memory. Past
 * MAX_TRANSCRIPT_CHARS the oldest entries are split off (the caller saves
 * them to a file) until TRIM_TARGET_CHARS remain: trimming by a quarter at a
 * time keeps it rare, so its cost (the view re-posting the list) is too.
 */
import { isTextEntry, type Entry, type NoticeEntry, type Thread } from '../thread/thread';

export const MAX_TRANSCRIPT_CHARS = 64 * 1024 * 1024;
export const TRIM_TARGET_CHARS = 48 * 1024 * 1024;

/** Entries are immutable: an unchanged one keeps its size. */
const sizes = new WeakMap<Entry, number>();

/** About how many characters an entry holds: its text, or its serialised form for the rest. */
export function entrySize(entry: Entry): number {
  let size = sizes.get(entry);
  if (size === undefined) {
    size = isTextEntry(entry) ? entry.text.length : JSON.stringify(entry).length;
    sizes.set(entry, size);
  }
  return size;
}

function sizeOf(entries: readonly Entry[]): number {
  let size = 0;
  for (const entry of entries) size += entrySize(entry);
  return size;
}

export function transcriptSize(thread: Pick<Thread, 'entries'>): number {
  return sizeOf(thread.entries);
}

/** What trimming moved out of the chat so far (for the notice that stands in for it). */
export interface Moved {
  readonly entries: number;
  readonly chars: number;
}

export const MOVED_NOTICE_ID = 'moved-out';

/** The notice at the top of a trimmed chat; its action opens what was moved out. */
function movedNotice(moved: Moved): NoticeEntry {
  const mib = (moved.chars / 1024 / 1024).toFixed(1);
  return {
    kind: 'notice',
    id: MOVED_NOTICE_ID,
    level: 'info',
    action: 'openEarlier',
    text: `The ${moved.entries.toLocaleString('en-US')} oldest entries of this chat (${mib} MiB) were moved out of memory to a file: a chat keeps at most the newest ${MAX_TRANSCRIPT_CHARS / 1024 / 1024} MiB.`,
  };
}

/**
 * Splits off the oldest entries when the transcript is over `max`, so that
 * at most `target` remains; the newest entry always stays, whole (a message
 * streamed without end is bounded too: past MAX_ENTRY_CHARS it continues in
 * a new entry, threadReducer.ts). The previous moved-out notice is dropped,
 * not moved. Returns
 * undefined when nothing needs to move.
 */
export function splitOldest(
  thread: Thread,
  moved: Moved,
  max = MAX_TRANSCRIPT_CHARS,
  target = TRIM_TARGET_CHARS,
): { thread: Thread; removed: Entry[]; moved: Moved } | undefined {
  const entries = thread.entries.filter((e) => e.id !== MOVED_NOTICE_ID);
  const size = sizeOf(entries);
  if (size <= max) return undefined;
  let cut = 0;
  let removedChars = 0;
  while (cut < entries.length - 1 && size - removedChars > target) removedChars += entrySize(entries[cut++]);
  const removed = entries.slice(0, cut);
  const total: Moved = { entries: moved.entries + removed.length, chars: moved.chars + removedChars };
  return { thread: { ...thread, entries: [movedNotice(total), ...entries.slice(cut)] }, removed, moved: total };
}
