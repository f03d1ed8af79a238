/**
 * Issue 45's memory figure: ten open chats of 10,000 entries each, held as
 * the extension host holds them. What the host keeps per chat is its
 * ChatTranscript (src/chat/chatTranscript.ts): the reducer's Thread (entries and
 * terminal output), kept within the transcript's bound (transcriptBound.ts),
 * and the text growth chains of entries not yet posted (textGrowth.ts). The
 * view sync keeps only references to the shown chat's entries (and to those
 * of a kept chat under KEEP_MAX_CHARS: these are all over it); the history
 * saver keeps nothing between saves. So each chat here is the real
 * ChatTranscript, fed a day's turns the way an agent streams them, with the
 * view's flushes and the history's saves that shape what stays alive.
 *
 * Runs in a Node of its own with --expose-gc (longChats.mjs starts it):
 * the heap in use after forced GCs, before and after the ten chats.
 */
import { writeHeapSnapshot } from 'node:v8';
import { ChatTranscript, type Archive } from '../../src/chat/chatTranscript';
import { diffEntries } from '../../src/shared/page/entryPatches';
import type { Entry, Thread } from '../../src/shared/thread/thread';
import type { ThreadAction } from '../../src/shared/thread/threadReducer';
import { splitOldest, transcriptSize, type Moved } from '../../src/shared/saved/transcriptBound';
import { seededRandom, terminalOutput } from './corpus';
import { Player, turn } from './transcript';

export const TEN_CHATS = { chats: 10, entries: 10_000, chunkChars: 128 };
/** While a chat is shown the view gets one patch per FLUSH_INTERVAL_MS (33 ms): at 1,000 chunks/s, one per 33. */
const ACTIONS_PER_FLUSH = 33;
/** TranscriptArchive looks at the size after this many changes (views/transcriptArchive.ts; it imports vscode). */
const BOUND_CHECK_CHANGES = 64;

/** The transcript's real bound; what it moves out goes to a file in the host (dropped here: it never happens at these sizes). */
class BoundOnly implements Archive {
  private moved: Moved = { entries: 0, chars: 0 };
  private changes = 0;
  keepWithinBound(thread: Thread): Thread {
    if (++this.changes % BOUND_CHECK_CHANGES !== 0) return thread;
    const split = splitOldest(thread, this.moved);
    if (!split) return thread;
    this.moved = split.moved;
    return split.thread;
  }
  open(): Promise<void> {
    return Promise.resolve();
  }
  clear(): void {}
  dispose(): void {}
}

/** `shown`: the chat is in the view while it streams (its growth chains are cut at each post); else hidden. */
export type Shown = 'shown' | 'hidden';

/**
 * One chat of `entries` entries, played turn by turn into a ChatTranscript: text
 * streamed in pieces of `chunkChars`, tool calls with their diffs, command
 * output through terminal actions. While shown, each flush diffs and
 * serialises what changed; at each turn's end the history saver serialises
 * the chat (here only the turn's entries: the older ones were serialised,
 * so their strings flattened, by the saves before).
 */
function playChat(index: number, shown: Shown): { thread: ChatTranscript; sent: readonly Entry[] } {
  const rng = seededRandom(100 + index);
  const outputRng = seededRandom(200 + index);
  const thread = new ChatTranscript(`c${index}`, new BoundOnly(), () => undefined);
  let sent: readonly Entry[] = [];
  let actions = 0;
  let saved = 0;
  const flush = () => {
    const patch = diffEntries(sent, thread.value.entries);
    sent = thread.value.entries;
    if (patch) JSON.stringify(patch);
  };
  const reduce = (_: Thread, action: ThreadAction): Thread => {
    // Each update reaches the host parsed from its own JSON line: its text is a string of its own, not a
    // slice that would keep the whole generated reply alive.
    thread.dispatch(JSON.parse(JSON.stringify(action)) as ThreadAction);
    if (shown === 'shown' && ++actions % ACTIONS_PER_FLUSH === 0) flush();
    if (action.type === 'turnEnded') {
      if (shown === 'shown') flush();
      JSON.stringify(thread.value.entries.slice(saved));
      saved = thread.value.entries.length;
    }
    return thread.value;
  };
  const player = new Player({
    reduce,
    chunkChars: TEN_CHATS.chunkChars,
    terminalStarted: (p, id) => p.terminal(id, terminalOutput(outputRng, 10 + Math.floor(outputRng() * 40))),
  });
  for (let i = 0; thread.value.entries.length < TEN_CHATS.entries; i++) turn(player, rng, i);
  return { thread, sent };
}

const MiB = 1024 * 1024;
const round = (x: number) => Math.round(x * 10) / 10;

/** The heap in use after two forced collections (the first runs finalizers that free more for the second). */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench: tenChats needs node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** The ten chats' heap growth after GC, their entries and characters (entrySize), and how long playing them took. */
export function tenChatsHeap(shown: Shown): {
  shown: Shown;
  heapMiB: number;
  entries: number;
  textMiB: number;
  terminalMiB: number;
  playS: number;
} {
  const before = heapAfterGc();
  const start = performance.now();
  const chats = Array.from({ length: TEN_CHATS.chats }, (_, i) => playChat(i, shown));
  const playS = round((performance.now() - start) / 1000);
  const heapMiB = round((heapAfterGc() - before) / MiB);
  // For a diagnosis: what the chats hold, by constructor, in Chrome DevTools or any heap snapshot reader.
  if (process.env.BENCH_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
  let entries = 0,
    chars = 0,
    terminalChars = 0;
  for (const { thread } of chats) {
    entries += thread.value.entries.length;
    chars += transcriptSize(thread.value);
    for (const t of Object.values(thread.value.terminals)) terminalChars += t.output.length;
  }
  return { shown, heapMiB, entries, textMiB: round(chars / MiB), terminalMiB: round(terminalChars / MiB), playS };
}
