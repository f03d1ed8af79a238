/**
 * The last step of the descriptor walk: the file itself. It is looked up
 * like every folder before it (O_PATH | O_NOFOLLOW, kind checked by fstat)
 * and only then reopened for reading or writing through its own descriptor
 * (`/proc/self/fd/<fd>`), which reaches that very inode: a file swapped for a
 * link after the check cannot be what gets opened, and a FIFO or device is
 * never opened at all.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { shownPath } from '../agentPath';
import { lookupName, openParentFolder, viaDescriptor } from './descriptorWalk';
import { WorkspaceFsError, fromSystemError, isWorkspaceFsError, noFile } from '../errors';
import { requireRegularFile, requireSingleLink } from './fileKind';
import type { StepHook } from './walkStep';
import type { WorkspaceRoot } from '../workspaceRoot';

/** The file at `names` opened read-only; the caller closes it. */
export async function openForReadByWalk(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep?: StepHook,
): Promise<FileHandle> {
  return withTarget(root, names, onStep, async (dir, name, shown) => {
    const found = await lookupName(dir, name, shown);
    if (!found) throw noFile(shown);
    try {
      requireRegularFile(found.stat, shown);
      await onStep?.({ phase: 'open', index: names.length - 1, name });
      return await reopen(found.handle, constants.O_RDONLY, shown);
    } finally {
      await found.handle.close();
    }
  });
}

/**
 * The file at `names` opened write-only, created (empty) when missing; its
 * folder must exist. Not truncated: the caller does that once it holds it.
 */
export async function openForWriteByWalk(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep?: StepHook,
): Promise<FileHandle> {
  const opened = withTarget(root, names, onStep, async (dir, name, shown) => {
    const found = await lookupName(dir, name, shown);
    if (!found) {
      await onStep?.({ phase: 'open', index: names.length - 1, name });
      return createIn(dir, name, shown);
    }
    try {
      requireRegularFile(found.stat, shown);
      requireSingleLink(found.stat, shown);
      await onStep?.({ phase: 'open', index: names.length - 1, name });
      return await reopen(found.handle, constants.O_WRONLY, shown);
    } finally {
      await found.handle.close();
    }
  });
  return opened.catch((e: unknown) => {
    // A missing target is created, so this is a missing folder: say plainly
    // that folders are never made.
    if (isWorkspaceFsError(e, 'not-found')) {
      throw new WorkspaceFsError('not-found', `${e.message} Folders are not created.`);
    }
    throw e;
  });
}

type TargetStep = (dir: FileHandle, name: string, shown: string) => Promise<FileHandle>;

/** Walks to the target's folder, runs `step` on the last name, closes the folder. */
async function withTarget(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep: StepHook | undefined,
  step: TargetStep,
): Promise<FileHandle> {
  const last = names.length - 1;
  const dir = await openParentFolder(root, names, onStep);
  try {
    await onStep?.({ phase: 'lookup', index: last, name: names[last] });
    return await step(dir, names[last], shownPath(root, names));
  } finally {
    await dir.close();
  }
}

/** Opens the inode an O_PATH descriptor names (the kernel does not look the name up again). */
export async function reopen(pathOnly: FileHandle, flags: number, shown: string): Promise<FileHandle> {
  try {
    return await fs.open(viaDescriptor(pathOnly), flags);
  } catch (e) {
    throw fromSystemError(e, shown);
  }
}

/**
 * Creates a new file: O_EXCL | O_NOFOLLOW make the kernel refuse anything
 * already there, a dangling symlink included, so a name that appeared since
 * the lookup is reported, not written through.
 */
async function createIn(dir: FileHandle, name: string, shown: string): Promise<FileHandle> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  try {
    return await fs.open(viaDescriptor(dir, name), flags, 0o666);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new WorkspaceFsError(
        'changed',
        `${shown} was created by something else while it was being written; nothing was written.`,
      );
    }
    throw fromSystemError(e, shown);
  }
}
