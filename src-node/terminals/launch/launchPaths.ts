/**
 * The two paths a launch depends on, the working folder and the executable,
 * resolved to canonical paths plus the identity of what they name, so that
 * the check right before the start can tell whether either changed since
 * the user saw them.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { TerminalError, isTerminalError } from '../errors';
import { quotedShort } from './shownText';
import { isInside } from '../../paths/pathInside';
import { agentPathInside, OUTSIDE, type PathFlavour } from '../../paths/agentPathText';

/** What makes two looks at a path the same file, unchanged. */
export interface PathIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly mode: bigint;
}

export async function identityOf(file: string): Promise<PathIdentity> {
  const s = await fs.stat(file, { bigint: true });
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, mode: s.mode };
}

/** Folders are compared by dev/ino only: their size and mtime change whenever a file in them does. */
export function sameFolder(a: PathIdentity, b: PathIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

export function sameFile(a: PathIdentity, b: PathIdentity): boolean {
  return sameFolder(a, b) && a.size === b.size && a.mtimeNs === b.mtimeNs && a.mode === b.mode;
}

/** The workspace folder from the editor (trusted), canonical. */
export async function canonicalRoot(root: string): Promise<string> {
  if (!path.isAbsolute(root) || root.includes('\0')) {
    throw new TerminalError('cwd-not-found', 'The workspace folder is not an absolute path.');
  }
  return (await canonicalFolder(root, () => `The workspace folder ${quotedShort(root)}`)).path;
}

/**
 * The agent's `cwd` (absolute; default: the first of `roots`) as a canonical
 * folder inside one of the canonical `roots` (the folders it was given), and
 * that root. It is judged as text first (agentPathText.ts), inside `roots` or
 * the same folders as the workspace names them (`spellings`), so that
 * nothing of a refused one reaches the disk; then symlinks are followed to
 * find where it really is, and it is refused when that is outside.
 */
export async function resolveCwd(
  requested: unknown,
  roots: readonly string[],
  { spellings = [], flavour = path }: { spellings?: readonly string[]; flavour?: PathFlavour } = {},
): Promise<{ path: string; identity: PathIdentity; root: string }> {
  const [first] = roots;
  if (first === undefined) throw new TerminalError('cwd-not-found', 'The agent was given no folder.');
  if (requested === undefined || requested === null) {
    return { ...(await canonicalFolder(first, () => 'The workspace folder')), root: first };
  }
  if (typeof requested !== 'string' || requested.includes('\0')) {
    throw new TerminalError('invalid-request', 'cwd must be a string without NUL bytes.');
  }
  if (!flavour.isAbsolute(requested)) {
    throw new TerminalError('invalid-request', `cwd must be an absolute path: ${quotedShort(requested)}.`);
  }
  const checked = agentPathInside(flavour, requested, [...roots, ...spellings]);
  if (!checked.ok && checked.why === OUTSIDE) throw outside(requested, roots, 'is');
  if (!checked.ok) {
    throw new TerminalError('invalid-request', `cwd ${quotedShort(requested)} is refused: ${checked.why}.`);
  }
  const folder = await canonicalFolder(checked.path, () => `The folder ${quotedShort(requested)}`);
  const root = roots.find((r) => isInside(r, folder.path));
  // Where a symlink leads is not told: the agent only learns that it leads out.
  if (root === undefined) throw outside(requested, roots, checked.path === folder.path ? 'is' : 'leads');
  return { ...folder, root };
}

function outside(requested: string, roots: readonly string[], how: 'is' | 'leads'): TerminalError {
  const where =
    roots.length === 1
      ? `the workspace folder ${quotedShort(roots[0]!)}`
      : `the folders it was given (${roots.map((r) => quotedShort(r)).join(', ')})`;
  return new TerminalError('outside-workspace', `The folder ${quotedShort(requested)} ${how} outside ${where}.`);
}

async function canonicalFolder(given: string, name: () => string): Promise<{ path: string; identity: PathIdentity }> {
  try {
    const real = await fs.realpath(given);
    const identity = await identityOf(real);
    if ((identity.mode & BigInt(constants.S_IFMT)) !== BigInt(constants.S_IFDIR)) {
      throw new TerminalError('cwd-not-found', `${name()} is not a folder.`);
    }
    return { path: real, identity };
  } catch (e) {
    if (isTerminalError(e)) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'ELOOP'
        ? 'is a symbolic link loop'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be opened (permission denied)'
          : 'does not exist';
    throw new TerminalError('cwd-not-found', `${name()} ${why}.`);
  }
}
