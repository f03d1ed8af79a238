/**
 * The files a chat's agent changed, as the Changes bar above the composer
 * shows them, and the data behind them (kept by the host, saved with the
 * chat). No vscode, no Node: the page and both hosts use this.
 */
import { z } from 'zod/mini';
import { nonNegativeInt } from './thread/thread';

/** A file's content as a checkpoint knows it: the key of its kept copy, or why none was kept. */
/**
 * A version's key (FileVersion.hash): the SHA-256 of a copy the checkpoints keep, or `git:<blob id>` for bytes the
 * workspace's Git repository keeps (src-node/checkpoints/versionKeys.ts).
 */
export const VERSION_KEY = /^(?:[0-9a-f]{64}|git:(?:[0-9a-f]{40}|[0-9a-f]{64}))$/;

export interface FileVersion {
  readonly size: number;
  readonly hash?: string;
  /** Why there is no copy; `unseen`: the file changed before the window's first pass had read it. */
  readonly missing?: 'too-large' | 'no-room' | 'unreadable' | 'unseen';
}

/** One file's change, by absolute path: `before` absent for a file created, `after` absent for one deleted. */
export interface FileChange {
  readonly path: string;
  readonly before?: FileVersion;
  readonly after?: FileVersion;
}

/** Same content: equal copies, or both absent. Two versions without copies are never known to be the same. */
export function sameVersion(a: FileVersion | undefined, b: FileVersion | undefined): boolean {
  if (!a || !b) return a === b;
  return a.hash !== undefined && a.hash === b.hash;
}

/** The file was `a`, then `b`: it changed in between (never said of versions without copies: not known). */
export function changedBetween(a: FileVersion | undefined, b: FileVersion | undefined): boolean {
  if (!a || !b) return a !== b;
  return a.hash !== undefined && b.hash !== undefined && a.hash !== b.hash;
}

/** Most files the bar lists; Keep All and Undo All act on every one. */
export const MAX_LISTED_CHANGES = 200;

export const changedFileSchema = z.object({
  /** Absolute path: what the page names in its Keep / Undo / open messages. */
  path: z.string().check(z.maxLength(4_096)),
  /** Shown: the path relative to its workspace folder. */
  label: z.string().check(z.maxLength(4_096)),
  kind: z.enum(['created', 'edited', 'deleted']),
  /** Lines added and removed, when both sides are text that was kept. */
  added: z.optional(nonNegativeInt()),
  removed: z.optional(nonNegativeInt()),
  /** Why Undo is not offered (no copy from before: too large, no room, unreadable). */
  noUndo: z.optional(z.string().check(z.maxLength(500))),
  /**
   * The user saved this file while a turn that changed it ran, or it changed between turns in a way that could not be
   * told apart from the agent's change (not text): Undo asks first.
   */
  userSaved: z.optional(z.boolean()),
});
export type ChangedFile = z.infer<typeof changedFileSchema>;

export const changesSchema = z.object({
  files: z.array(changedFileSchema).check(z.maxLength(MAX_LISTED_CHANGES)),
  /** How many files changed in all (more than `files` lists when over the bound). */
  total: nonNegativeInt(),
  /** Keep / Undo at work: the bar's buttons wait. */
  busy: z.boolean(),
});
export type Changes = z.infer<typeof changesSchema>;

export const noChanges: Changes = { files: [], total: 0, busy: false };
