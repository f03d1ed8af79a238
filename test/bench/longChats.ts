/**
 * The host's side of issue 45's figures (long chats that stay light), in Node
 * with the real reducer and diffEntries: a day of work saved and reopened, and
 * what the host does to show another of ten 10,000-entry chats. The page's
 * side is longChats.mjs; the heap of ten such chats is tenChats.ts.
 */
import { diffEntries } from '../../src/shared/entryPatches';
import type { HostMessage } from '../../src/shared/protocol';
import type { Entry } from '../../src/shared/thread';
import { markdown, seededRandom } from './corpus';
import { statusOf } from './hostMessages';
import { medianMs, Player, reopenHost, turn, withTerminalOutput } from './transcript';

/** Text that the day's newest entry ends with: the page waits until it is painted. */
export const DAY_MARKER = 'Bench day end marker 2c9e';
/** A day of work: this many turns, each with 2 to 7 tool calls (edits with their diffs, commands, reads). */
export const DAY_TURNS = 300;

export interface DayOfWork {
  status: HostMessage;
  /** What the reopened chat's view is sent: the saved entries, each one `set`. */
  entries: HostMessage;
  dayEntries: number;
  savedKB: number;
  savedEntries: number;
  /** The host's part: the file parsed and checked, ids renewed, the list diffed and serialised (median of 5). */
  openHostMs: number;
}

/** A day of work played through the reducer, saved as the history saves it, and reopened (the host's part). */
export function dayOfWork(turns = DAY_TURNS): DayOfWork {
  const rng = seededRandom(45);
  const p = new Player();
  for (let i = 0; i < turns - 1; i++) turn(p, rng, i, 2 + Math.floor(rng() * 6));
  p.prompt('That is all for today: sum it up.');
  p.update({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: `${markdown(rng, 800)}\n\n${DAY_MARKER}` },
  });
  p.end('end_turn');
  const entries = withTerminalOutput(p.thread.entries, rng);
  const { savedKB, savedEntries, openHostMs, message } = reopenHost(entries);
  return {
    status: { type: 'status', status: statusOf(p.thread) },
    entries: message,
    dayEntries: entries.length,
    savedKB,
    savedEntries,
    openHostMs,
  };
}

/**
 * The host's part of showing another open chat that the page does not keep
 * (ChatWebviewSync.flush: a chat over KEEP_MAX_CHARS is not kept, so the page
 * is sent its whole list): the list diffed against nothing and serialised, as
 * postMessage does, with its status. Median of 5, in ms.
 */
export function switchAwayHostMs(message: HostMessage, status: HostMessage): number {
  if (message.type !== 'entries') throw new Error('no entries');
  const entries = message.ops.map((op) => (op.op === 'set' ? op.entry : undefined)).filter(isEntry);
  return medianMs(5, () => {
    const patch = diffEntries([], entries) ?? { length: 0, ops: [] };
    JSON.stringify({ type: 'entries', ...patch, chatId: 'c2', keep: [] });
    JSON.stringify(status);
  });
}

const isEntry = (e: Entry | undefined): e is Entry => e !== undefined;
