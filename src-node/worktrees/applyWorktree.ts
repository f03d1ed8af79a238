/**
 * Apply to my workspace (issue 49): what the agent changed in its worktree since it began (`start`, the commit the
 * worktree was made at) goes into the user's work tree, file by file, as changes Git shows unstaged. A file the user
 * has not changed since `start` takes the worktree's version; one the user changed too is merged (the agent's change
 * as a patch from `start`, applied to the user's text as it is, no fuzz); where the two touch the same lines, or a
 * file is not text, or one side deleted it, nothing is written and the file is a conflict, with its three versions
 * for VS Code's merge editor. Nothing of the user's is overwritten: each write goes through the descriptor walk and
 * only if the file is still as it was read (checkpoints/fileVersions.ts restoreFile).
 * The same step the other way carries the user's uncommitted changes into a new worktree, when the user asks.
 */
import { applyPatch, structuredPatch } from 'diff';
import { hashOf } from '../checkpoints/blobStore';
import { restoreFile } from '../checkpoints/fileVersions';
import type { FolderGit } from '../checkpoints/gitProcess';
import { catBatch } from '../checkpoints/gitView';
import { isWorkspaceFsError } from '../workspaceFs/errors';
import { readFileBytes } from '../workspaceFs/readTextFile';
import type { WorkspaceRoot } from '../workspaceFs/workspaceRoot';

/** A file's bytes, or null where there is no file. */
type Bytes = Uint8Array | null;

export type AppliedFile =
  | { readonly path: string; readonly outcome: 'applied' | 'merged' | 'same' }
  | {
      readonly path: string;
      readonly outcome: 'conflict';
      readonly why: string;
      /** At `start`, the user's now, the agent's: for the merge editor. */
      readonly versions: { readonly start: Bytes; readonly yours: Bytes; readonly agents: Bytes };
    }
  | { readonly path: string; readonly outcome: 'failed'; readonly why: string };

export interface ApplyLimits {
  /** Files over this many bytes are not applied (said). */
  readonly maxFileBytes: number;
  /** At most this many files; more is refused whole. */
  readonly maxFiles: number;
}

/** The files the worktree changed since `start` (relative paths, '/'-separated), its new files included. */
export async function changedInWorktree(worktree: FolderGit, start: string): Promise<string[] | undefined> {
  const tracked = await worktree.run('diff', ['--name-only', '--no-renames', '-z', start, '--']);
  const added = await worktree.run('ls-files', ['--others', '--exclude-standard', '-z']);
  if (tracked === undefined || added === undefined) return undefined;
  const names = [...tracked.toString('utf8').split('\0'), ...added.toString('utf8').split('\0')];
  return [...new Set(names.filter(Boolean))].sort();
}

/** Applies the worktree's changes (`paths`, from changedInWorktree) to the user's tree. */
export async function applyWorktree(
  worktree: { readonly git: FolderGit; readonly root: WorkspaceRoot },
  start: string,
  user: WorkspaceRoot,
  paths: readonly string[],
  limits: ApplyLimits,
  /** Files an earlier Apply wrote as the agent had them: path to the hash of those bytes (the user's since, if equal). */
  applied: Readonly<Record<string, string>> = {},
): Promise<AppliedFile[]> {
  if (paths.length > limits.maxFiles) {
    return [{ path: '', outcome: 'failed', why: `${paths.length} files changed: more than ${limits.maxFiles}` }];
  }
  // Every file's version at the start in one `git cat-file --batch` (a path with a line break: on its own).
  const batched = paths.filter((p) => !p.includes('\n'));
  const blobs = await catBatch(
    worktree.git,
    batched.map((p) => `${start}:${p}`),
  );
  const atStart = new Map(batched.map((p, i) => [p, blobs[i] ?? null]));
  const done: AppliedFile[] = [];
  for (const path of paths) {
    try {
      const base = atStart.has(path)
        ? atStart.get(path)!
        : ((await worktree.git.run('cat-file', ['blob', `${start}:${path}`])) ?? null);
      done.push(await applyFile(worktree, base, user, path, limits.maxFileBytes, applied[path]));
    } catch (error) {
      done.push({ path, outcome: 'failed', why: error instanceof Error ? error.message : String(error) });
    }
  }
  return done;
}

async function applyFile(
  worktree: { readonly git: FolderGit; readonly root: WorkspaceRoot },
  /** The file at the worktree's start (null: none). */
  atStart: Buffer | null,
  user: WorkspaceRoot,
  path: string,
  maxBytes: number,
  appliedBefore: string | undefined,
): Promise<AppliedFile> {
  const agents = await readOrNone(worktree.root, path, maxBytes);
  const yours = await readOrNone(user, path, maxBytes);
  const write = async (target: Bytes, outcome: 'applied' | 'merged'): Promise<AppliedFile> => {
    await restoreFile(user, `${user.path}/${path}`, yours === null ? null : hashOf(yours), asBuffer(target), maxBytes);
    return { path, outcome };
  };
  if (same(yours, agents)) return { path, outcome: 'same' };
  // Unchanged by the user since `start`, or since an earlier Apply wrote it: the agent's version as it is.
  if (same(yours, atStart) || (yours !== null && appliedBefore === hashOf(yours))) return write(agents, 'applied');
  const conflict = (why: string): AppliedFile => ({
    path,
    outcome: 'conflict',
    why,
    versions: { start: atStart, yours, agents },
  });
  if (yours === null || agents === null || atStart === null) return conflict('one side deleted or added it');
  const texts = [atStart, yours, agents].map(textOf);
  if (texts.some((t) => t === undefined)) return conflict('it is not text');
  const [base, mine, theirs] = texts as [string, string, string];
  const merged = applyPatch(mine, structuredPatch(path, path, base, theirs, '', '', { context: 3 }), { fuzzFactor: 0 });
  if (merged === false) return conflict('you and the agent changed the same lines');
  return write(new TextEncoder().encode(merged), 'merged');
}

async function readOrNone(root: WorkspaceRoot, path: string, maxBytes: number): Promise<Bytes> {
  try {
    return await readFileBytes(root, `${root.path}/${path}`, maxBytes);
  } catch (error) {
    if (isWorkspaceFsError(error, 'no-file') || isWorkspaceFsError(error, 'not-found')) return null;
    throw error;
  }
}

function same(a: Bytes, b: Bytes): boolean {
  return a === null || b === null ? a === b : Buffer.from(a).equals(Buffer.from(b));
}

function asBuffer(bytes: Bytes): Buffer | null {
  return bytes === null ? null : Buffer.from(bytes);
}

/** UTF-8 text without NUL, or undefined. */
function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
