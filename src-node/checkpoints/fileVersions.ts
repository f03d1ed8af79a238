/**
 * A workspace file's bytes as they are now, and putting back an earlier
 * version of it, only through the descriptor walk (src-node/workspaceFs):
 * no path an agent could have swapped for a link leads outside the folder.
 *
 * A restore first reads the file through the very descriptor it will write
 * through and refuses when its bytes are not the ones the caller expects
 * (the agent's version): the user's own later edit is never overwritten.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { namesInside, shownPath } from '../workspaceFs/agentPath';
import { lookupName, openParentFolder, openRootFolder, viaDescriptor } from '../workspaceFs/walk/descriptorWalk';
import { WorkspaceFsError, fromSystemError, notFound } from '../workspaceFs/errors';
import { requireFolder, requireRegularFile, requireSingleLink } from '../workspaceFs/walk/fileKind';
import { readAtMost } from '../workspaceFs/readTextFile';
import { reopen } from '../workspaceFs/walk/fileByWalk';
import type { WorkspaceRoot } from '../workspaceFs/workspaceRoot';
import { keyMatches } from './versionKeys';

/** The bytes of the file at `names` now and the stamp they were read with; undefined when there is no such file. */
export async function readNow(
  root: WorkspaceRoot,
  names: readonly string[],
  maxBytes: number,
): Promise<{ bytes: Buffer; stat: BigIntStats } | undefined> {
  const dir = await openParentFolderOrNone(root, names);
  if (!dir) return undefined;
  try {
    const shown = shownPath(root, names);
    const found = await lookupName(dir, names[names.length - 1], shown);
    if (!found) return undefined;
    let handle: FileHandle;
    try {
      requireRegularFile(found.stat, shown);
      handle = await reopen(found.handle, constants.O_RDONLY | constants.O_NONBLOCK, shown);
    } finally {
      await found.handle.close();
    }
    try {
      const bytes = await readAtMost(handle, shown, maxBytes);
      return { bytes, stat: await handle.stat({ bigint: true }) };
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}

/** The name a file's new bytes have for a moment, beside it, before they replace it (passes skip such names). */
export const RESTORE_PREFIX = '.acp-restore-';

/** What a file is expected to be now (its version's key, versionKeys.ts), or null for "no file". */
export type Expected = string | null;

/**
 * Puts the file at `absolutePath` back to `target` (bytes, or null: no file),
 * but only if it is now exactly `expected`. Returns 'restored', or
 * 'already' when it is already as `target` says. Throws WorkspaceFsError
 * 'changed' when it is neither (someone else changed it: nothing is written),
 * and for anything the walk refuses. `dryRun`: the same checks, nothing
 * written (what a preview says would happen).
 */
export async function restoreFile(
  root: WorkspaceRoot,
  absolutePath: string,
  expected: Expected,
  target: Buffer | null,
  maxBytes: number,
  dryRun = false,
): Promise<'restored' | 'already'> {
  const names = namesInside(root, absolutePath);
  const shown = shownPath(root, names);
  // A dry run (a preview) makes no folder: a missing one is as good as a missing file.
  const dir =
    target === null || dryRun ? await openParentFolderOrNone(root, names) : await openOrMakeParent(root, names);
  if (!dir) {
    if (target === null && expected === null) return 'already';
    if (dryRun && target !== null && expected === null) return 'restored';
    throw changedSince(shown, 'is gone');
  }
  try {
    const name = names[names.length - 1];
    const found = await lookupName(dir, name, shown);
    if (!found) {
      if (target === null) {
        if (expected === null) return 'already';
        throw changedSince(shown, 'is gone');
      }
      if (expected !== null) throw changedSince(shown, 'is gone');
      if (!dryRun) await createWith(dir, name, target, shown);
      return 'restored';
    }
    let handle: FileHandle;
    try {
      requireRegularFile(found.stat, shown);
      requireSingleLink(found.stat, shown);
      handle = await reopen(found.handle, constants.O_RDWR | constants.O_NONBLOCK, shown);
    } finally {
      await found.handle.close();
    }
    try {
      const now = await readAtMost(handle, shown, maxBytes);
      if (target !== null && now.equals(target)) return 'already';
      if (expected === null || !keyMatches(now, expected)) {
        throw changedSince(shown, expected === null ? 'was created by someone else' : 'was changed');
      }
      if (dryRun) return 'restored';
      if (target === null) await unlinkIn(dir, name, found.stat, shown);
      else await replaceWhole(dir, name, target, found.stat, shown);
      return 'restored';
    } catch (e) {
      throw fromSystemError(e, shown);
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}

function changedSince(shown: string, what: string): WorkspaceFsError {
  return new WorkspaceFsError('changed', `${shown} ${what} since the agent's change; it was left as it is.`);
}

/** The folder holding the target, or undefined when a folder on the way does not exist. */
async function openParentFolderOrNone(root: WorkspaceRoot, names: readonly string[]): Promise<FileHandle | undefined> {
  try {
    return await openParentFolder(root, names);
  } catch (e) {
    if (e instanceof WorkspaceFsError && e.code === 'not-found' && /does not exist\.$/.test(e.message)) {
      return undefined;
    }
    throw e;
  }
}

/** The folder holding the target, making the folders that are missing on the way (a file comes back with its folder). */
async function openOrMakeParent(root: WorkspaceRoot, names: readonly string[]): Promise<FileHandle> {
  let dir = await openRootFolder(root);
  for (let index = 0; index < names.length - 1; index++) {
    const current = dir;
    const shown = shownPath(root, names, index + 1);
    try {
      let found = await lookupName(current, names[index], shown);
      if (!found) {
        try {
          await fs.mkdir(viaDescriptor(current, names[index]), 0o777);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw fromSystemError(e, shown);
        }
        found = await lookupName(current, names[index], shown);
        if (!found) throw notFound(shown);
      }
      try {
        requireFolder(found.stat, shown);
      } catch (e) {
        await found.handle.close();
        throw e;
      }
      dir = found.handle;
    } finally {
      await current.close();
    }
  }
  return dir;
}

/** A new file with `bytes`; O_EXCL | O_NOFOLLOW: nothing that appeared meanwhile is written through. */
async function createWith(dir: FileHandle, name: string, bytes: Buffer, shown: string, mode?: number): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await fs.open(
      viaDescriptor(dir, name),
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o666,
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw changedSince(shown, 'was created by someone else');
    throw fromSystemError(e, shown);
  }
  try {
    await handle.write(bytes, 0, bytes.length, 0);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces the file with `bytes` whole: a new file beside it, renamed over it
 * (both names inside the same folder descriptor), so that a window closed or a
 * disk filled half way leaves either the old bytes or the new, never half of
 * each. It keeps the file's mode; its inode changes (editors reload it).
 */
async function replaceWhole(
  dir: FileHandle,
  name: string,
  bytes: Buffer,
  checked: BigIntStats,
  shown: string,
): Promise<void> {
  const temporary = `${RESTORE_PREFIX}${randomBytes(6).toString('hex')}`;
  await createWith(dir, temporary, bytes, shown, Number(checked.mode & 0o7777n));
  try {
    const again = await lookupName(dir, name, shown);
    if (again) await again.handle.close();
    if (!again || again.stat.ino !== checked.ino || again.stat.dev !== checked.dev) {
      throw changedSince(shown, 'was replaced');
    }
    await fs.rename(viaDescriptor(dir, temporary), viaDescriptor(dir, name));
  } catch (e) {
    await fs.unlink(viaDescriptor(dir, temporary)).catch(() => undefined);
    throw e;
  }
}

/** Removes the name, only while it still names the file that was checked (same inode). */
async function unlinkIn(dir: FileHandle, name: string, checked: BigIntStats, shown: string): Promise<void> {
  const again = await lookupName(dir, name, shown);
  if (!again) return;
  await again.handle.close();
  if (again.stat.ino !== checked.ino || again.stat.dev !== checked.dev) throw changedSince(shown, 'was replaced');
  await fs.unlink(viaDescriptor(dir, name));
}
