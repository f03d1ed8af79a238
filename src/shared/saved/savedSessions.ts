/**
 * This workspace's saved chat history, as data: the index (which sessions,
 * of which agent, when) and each session's local transcript, their schemas,
 * and the rules that keep them bounded. No I/O here (history/historyStore.ts
 * reads and writes them); everything read back is parsed, as it may have been
 * edited by hand into anything.
 */
import { z } from 'zod';
import { entrySchema, type Entry, type TerminalState, type Thread } from '../thread/thread';
import { MAX_TITLE_CHARS, titleText } from '../text/titleText';
import { VERSION_KEY } from '../changes';
import { MAX_REVIEW_COMMENTS, reviewCommentSchema, type ReviewComment } from './reviewComments';
import { entrySize } from './transcriptBound';

/** A saved transcript keeps its newest entries up to this many characters (the notice at its top says so). */
export const MAX_SAVED_CHARS = 4 * 1024 * 1024;

export const MAX_HISTORY_LIMIT = 200;

/** A file name we made: never from the agent. */
const fileNameSchema = z.string().regex(/^[a-z0-9-]{1,64}$/);

/** Whether `name` is a saved transcript's file name (`<key>.json`; the index is not one). */
export function isTranscriptFileName(name: string): boolean {
  return (
    name.endsWith('.json') && fileNameSchema.safeParse(name.slice(0, -'.json'.length)).success && name !== 'index.json'
  );
}

export const historyEntrySchema = z.object({
  /** Ours: the saved transcript's file name, and the id commands use. */
  key: fileNameSchema,
  agentId: z.string().min(1).max(256),
  /** The agent's; untrusted, only ever sent back to that agent. */
  sessionId: z.string().min(1).max(1024),
  cwd: z.string().max(4096),
  title: z
    .string()
    .max(MAX_TITLE_CHARS * 2)
    .transform((t) => titleText(t)),
  /** The user named it (Rename): the agent's titles and listing do not rename it back (the index says so, not the transcript). */
  titleByUser: z.boolean().optional().catch(undefined),
  createdAt: z.number().finite(),
  updatedAt: z.number().finite(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

const terminalStateSchema = z.object({
  output: z.string(),
  exitCode: z.number().int().nullable().optional(),
  signal: z.string().nullable().optional(),
});

const fileVersionSchema = z.object({
  size: z.number().int().nonnegative(),
  hash: z.string().regex(VERSION_KEY).optional(),
  missing: z.enum(['too-large', 'no-room', 'unreadable', 'unseen']).optional(),
});
const fileChangeSchema = z.object({
  path: z.string().min(1).max(4096),
  before: fileVersionSchema.optional(),
  after: fileVersionSchema.optional(),
});

/** A chat's Changes bar and its turns' changes (checkpoints), each turn by the index of its prompt in the saved entries. */
export const savedChangesSchema = z.object({
  bar: z.array(fileChangeSchema).max(100_000),
  turns: z
    .array(z.object({ entry: z.number().int().nonnegative(), files: z.array(fileChangeSchema).max(100_000) }))
    .max(10_000),
  /** The review comments on the agent's changes (a damaged list: none, the rest of the chat still loads). */
  comments: z.array(reviewCommentSchema).max(MAX_REVIEW_COMMENTS).optional().catch(undefined),
});
export type SavedChanges = z.infer<typeof savedChangesSchema>;
/** What a chat gives to be saved: its turns by their prompt entries' ids. */
export interface ChangesToSave {
  readonly bar: SavedChanges['bar'];
  readonly turns: ReadonlyArray<{ readonly entryId: string; readonly files: SavedChanges['bar'] }>;
  readonly comments?: readonly ReviewComment[];
}

export const savedTranscriptSchema = z.object({
  version: z.literal(1),
  /** The agent's title for the session, if it gave one. */
  title: z
    .string()
    .max(MAX_TITLE_CHARS * 2)
    .transform((t) => titleText(t))
    .optional(),
  entries: z.array(entrySchema),
  terminals: z.record(z.string(), terminalStateSchema),
  /** What the agent changed (a damaged record loses only this: the transcript still opens). */
  changes: savedChangesSchema.optional().catch(undefined),
});
export type SavedTranscript = z.infer<typeof savedTranscriptSchema>;

/** The index as read: the entries that parse, newest first, one per agent session; and how many did not. */
export function parseIndex(raw: unknown): { sessions: HistoryEntry[]; unreadable: number } {
  const list = (raw as { sessions?: unknown } | null)?.sessions;
  if (!Array.isArray(list)) return { sessions: [], unreadable: raw === undefined ? 0 : 1 };
  const sessions: HistoryEntry[] = [];
  let unreadable = 0;
  const seen = new Set<string>();
  for (const item of list.slice(0, MAX_HISTORY_LIMIT * 2)) {
    const parsed = historyEntrySchema.safeParse(item);
    if (!parsed.success) {
      unreadable++;
      continue;
    }
    const id = sessionKey(parsed.data);
    if (seen.has(id) || seen.has(`file:${parsed.data.key}`)) continue;
    seen.add(id).add(`file:${parsed.data.key}`);
    sessions.push(parsed.data);
  }
  return { sessions: newestFirst(sessions), unreadable };
}

/** One saved session per agent and session id. */
export function sessionKey(entry: Pick<HistoryEntry, 'agentId' | 'sessionId'>): string {
  return `${entry.agentId}\u0000${entry.sessionId}`;
}

export function newestFirst(sessions: readonly HistoryEntry[]): HistoryEntry[] {
  return [...sessions].sort((a, b) => b.updatedAt - a.updatedAt);
}

/**
 * `sessions` with `entry` put in (replacing the same agent session), newest
 * first, cut to `max`; `dropped` are those cut (their transcripts go too).
 */
export function upsert(
  sessions: readonly HistoryEntry[],
  entry: HistoryEntry,
  max: number,
): { sessions: HistoryEntry[]; dropped: HistoryEntry[] } {
  const id = sessionKey(entry);
  const others = sessions.filter((s) => sessionKey(s) !== id);
  const all = newestFirst([entry, ...others]); // the entry first: it wins a tie of milliseconds
  const keep = Math.min(Math.max(1, Math.floor(max)), MAX_HISTORY_LIMIT);
  return { sessions: all.slice(0, keep), dropped: all.slice(keep) };
}

/**
 * What is saved of a thread: its newest entries within MAX_SAVED_CHARS (the
 * newest always, whole), a notice in place of what was left out, and the
 * output of the terminals the kept entries show.
 */
export function transcriptToSave(
  thread: Pick<Thread, 'entries' | 'terminals' | 'title'>,
  max = MAX_SAVED_CHARS,
  changes?: ChangesToSave,
): SavedTranscript {
  const entries = thread.entries;
  let size = 0;
  let cut = entries.length;
  while (cut > 0 && (cut === entries.length || size + entrySize(entries[cut - 1]) <= max)) {
    size += entrySize(entries[--cut]);
  }
  const kept: Entry[] = entries.slice(cut);
  if (cut > 0) {
    kept.unshift({
      kind: 'notice',
      id: 'saved-cut',
      level: 'info',
      text: `The ${cut.toLocaleString('en-US')} oldest entries of this chat were not saved: a saved chat keeps its newest ${MAX_SAVED_CHARS / 1024 / 1024} MiB.`,
    });
  }
  const shown = new Set<string>();
  for (const entry of kept) {
    if (entry.kind !== 'tool') continue;
    for (const block of entry.content) if (block.type === 'terminal') shown.add(block.terminalId);
  }
  const terminals: Record<string, TerminalState> = {};
  for (const id of shown) if (Object.hasOwn(thread.terminals, id)) terminals[id] = thread.terminals[id];
  return {
    version: 1,
    ...(thread.title ? { title: thread.title } : {}),
    entries: kept,
    terminals,
    ...(changes ? { changes: changesToSave(changes, kept) } : {}),
  };
}

/** The changes with each turn named by its prompt's index in `kept` (a turn whose prompt was cut is left out). */
function changesToSave(changes: ChangesToSave, kept: readonly Entry[]): SavedChanges {
  const index = new Map(kept.map((e, i) => [e.id, i]));
  const turns = changes.turns.flatMap((t) =>
    index.has(t.entryId) ? [{ entry: index.get(t.entryId)!, files: [...t.files] }] : [],
  );
  return { bar: [...changes.bar], turns, ...(changes.comments?.length ? { comments: [...changes.comments] } : {}) };
}

/** The id a saved entry gets when a chat with id `prefix` shows it again (see withFreshIds). */
export function savedEntryId(prefix: string, index: number): string {
  return `${prefix}s${index}`;
}

/** A saved transcript's entries with ids of `prefix` (ids must be unique among the open chats). */
export function withFreshIds(saved: SavedTranscript, prefix: string): Entry[] {
  return saved.entries.map((entry, i) => ({ ...entry, id: savedEntryId(prefix, i) }));
}
