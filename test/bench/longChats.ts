/**
 * The host's side of issue 45's figures (long chats that stay light), in Node
 * with the real reducer and diffEntries: a day of work saved and reopened, and
 * what the host does to show another of ten 10,000-entry chats. The page's
 * side is longChats.mjs; the heap of ten such chats is tenChats.ts.
 */
import { firstPost, nextPost } from '../../src/views/newestFirst';
import type { HostMessage } from '../../src/shared/page/protocol';
import type { Entry } from '../../src/shared/thread/thread';
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
 * Showing another open chat that the page does not keep (ChatWebviewSync.flush:
 * a chat over KEEP_MAX_CHARS is not kept, so the page is sent its list, newest
 * first: newestFirst.ts). `first`: the first post, what the page shows the chat
 * from; `hostMs`: the host's part before it, the list's newest part diffed and
 * serialised, as postMessage does, with its status (median of 5); `posts`: how
 * many posts the whole list takes, and `restMs`: the host's part of all the
 * later ones together (each one a flush of its own, after the chat is shown).
 */
export function switchAway(message: HostMessage, status: HostMessage) {
  if (message.type !== 'entries') throw new Error('no entries');
  const entries = message.ops.map((op) => (op.op === 'set' ? op.entry : undefined)).filter(isEntry);
  const post = (patch: object) => JSON.stringify({ type: 'entries', ...patch, chatId: 'c2', keep: [] });
  const hostMs = medianMs(5, () => {
    post(firstPost(entries).patch);
    JSON.stringify(status);
  });
  const first = firstPost(entries);
  let posts = 1;
  const t0 = performance.now();
  for (let below = first.unsentBelow; below > 0; posts++) {
    const next = nextPost(entries, below, undefined);
    post(next.patch);
    below = next.unsentBelow;
  }
  const restMs = Math.round(performance.now() - t0);
  return { hostMs, posts, restMs, first: { type: 'entries', ...first.patch } as HostMessage };
}

const isEntry = (e: Entry | undefined): e is Entry => e !== undefined;
