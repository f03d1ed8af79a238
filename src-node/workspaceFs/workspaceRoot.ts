/**
 * A workspace folder as the file system sees it: its canonical path and the
 * identity (device, inode) of the folder at the moment it was opened. Every
 * later request starts from that identity, so a root that is moved away or
 * replaced by a symlink is noticed instead of followed.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WorkspaceFsError, fromSystemError, quote } from './errors';

export interface WorkspaceRoot {
  /** The canonical path (realpath) of the folder. */
  readonly path: string;
  /**
   * The spellings an agent path may start with: the canonical path, plus the
   * path the folder was opened by when that differs (a symlinked ancestor,
   * like macOS /tmp -> /private/tmp, or a home folder on another disk).
   * Agents are started in the folder as the editor names it and build paths
   * from that. The spelling comes from the trusted caller and is only ever
   * compared as text: the file system is reached through `path` alone.
   */
  readonly prefixes: readonly string[];
  readonly dev: bigint;
  readonly ino: bigint;
}

/** Device and inode: what makes two opens the same file. */
export interface FileIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/** Same device and inode: the same file, whatever its names. */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/**
 * Opens a workspace folder (an absolute path from the editor, not from an
 * agent). Throws WorkspaceFsError when it is missing, not a folder, or has a
 * name that is not valid UTF-8 (agent paths are UTF-8 strings, so they
 * could never name anything below such a folder).
 */
export async function openWorkspaceRoot(dir: string): Promise<WorkspaceRoot> {
  if (process.platform === 'win32') {
    // Windows paths (drive letters, UNC, 8.3 names, streams, device names)
    // need their own parser; until then refuse rather than guess.
    throw new WorkspaceFsError('unsupported', 'Agent file access is not supported on Windows yet.');
  }
  if (!path.isAbsolute(dir) || dir.includes('\0')) {
    throw new WorkspaceFsError('invalid-path', `The workspace folder ${quote(dir)} is not an absolute path.`);
  }
  const canonical = await canonicalPath(dir);
  let stat;
  try {
    stat = await fs.lstat(canonical, { bigint: true });
  } catch (e) {
    throw fromSystemError(e, quote(canonical));
  }
  if (!stat.isDirectory()) {
    throw new WorkspaceFsError('not-a-file', `The workspace folder ${quote(canonical)} is not a folder.`);
  }
  const given = path.normalize(dir).replace(/(.)\/+$/, '$1');
  // A spelling with '..' means something else to the kernel once a symlink is
  // involved (normalize() resolves it by text alone), so only a plain one is kept.
  const prefixes = given !== canonical && !dir.split('/').includes('..') ? [canonical, given] : [canonical];
  return Object.freeze({ path: canonical, prefixes: Object.freeze(prefixes), dev: stat.dev, ino: stat.ino });
}

async function canonicalPath(dir: string): Promise<string> {
  let real: Buffer;
  try {
    real = await fs.realpath(dir, { encoding: 'buffer' });
  } catch (e) {
    throw fromSystemError(e, quote(dir));
  }
  const text = real.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(real)) {
    throw new WorkspaceFsError(
      'invalid-path',
      `The workspace folder ${quote(text)} has a name that is not valid UTF-8.`,
    );
  }
  return text;
}

/** The error for a root that is no longer the folder that was opened. */
export function rootChanged(root: WorkspaceRoot): WorkspaceFsError {
  return new WorkspaceFsError(
    'changed',
    `The workspace folder ${quote(root.path)} was moved, removed or replaced; reopen it.`,
  );
}
