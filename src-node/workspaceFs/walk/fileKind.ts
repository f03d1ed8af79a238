/**
 * What a looked-up name turned out to be, checked on a descriptor's fstat
 * (never on a second lookup by path), with messages that say what was found.
 */
import type { BigIntStats } from 'node:fs';
import { WorkspaceFsError } from '../errors';

/** "a folder", "a FIFO", ... for messages. */
export function describeKind(stat: BigIntStats): string {
  if (stat.isFile()) return 'a file';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'an unknown kind of file';
}

function refuseLink(shown: string): WorkspaceFsError {
  return new WorkspaceFsError(
    'symlink',
    `${shown} is a symbolic link; links are not followed (use the path of the file itself, inside the workspace folder).`,
  );
}

/** A folder on the way to the target. */
export function requireFolder(stat: BigIntStats, shown: string): void {
  if (stat.isSymbolicLink()) throw refuseLink(shown);
  if (!stat.isDirectory()) {
    throw new WorkspaceFsError('not-found', `${shown} is not a folder (it is ${describeKind(stat)}).`);
  }
}

/** The target itself: only regular files are read or written. */
export function requireRegularFile(stat: BigIntStats, shown: string): void {
  if (stat.isSymbolicLink()) throw refuseLink(shown);
  if (!stat.isFile()) {
    throw new WorkspaceFsError('not-a-file', `${shown} is ${describeKind(stat)}, not a regular file.`);
  }
}

/**
 * Writes only: a file with other hard links is the same file under another
 * name, possibly outside the workspace folder (a package store, a file
 * linked in before the agent started), and a write would change it there too.
 */
export function requireSingleLink(stat: BigIntStats, shown: string): void {
  if (stat.nlink > 1n) {
    throw new WorkspaceFsError(
      'hard-link',
      `${shown} has ${stat.nlink} hard links; writing would change the other copies too, so it was not written.`,
    );
  }
}
