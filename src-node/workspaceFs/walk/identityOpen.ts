/**
 * The portable fallback, for reads only, where the descriptor walk is not
 * available: check every component by lstat (refusing links), open the file
 * by path with O_NOFOLLOW, then prove the descriptor is the file that was
 * checked (same device and inode) and that no folder on the way changed.
 *
 * Residual risk, and why writes never take this path: a folder swapped for
 * a link and back again between the checks is not seen (a swap that stays
 * is). That is a real race, not a theory: a process renaming a folder back
 * and forth as fast as it can won it 3 times in about 3,000 reads on Linux.
 * Only macOS closes it, with O_NOFOLLOW_ANY (below). Where neither that nor
 * the descriptor walk is available, reads are best effort against an
 * attacker who can rename folders inside the root while they happen.
 */
import type { BigIntStats } from 'node:fs';
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { pathBelow, shownPath } from '../agentPath';
import { WorkspaceFsError, fromSystemError, noFile } from '../errors';
import { requireFolder, requireRegularFile } from './fileKind';
import type { StepHook } from './walkStep';
import { rootChanged, sameFile, type WorkspaceRoot } from '../workspaceRoot';

/**
 * macOS 11+ O_NOFOLLOW_ANY (0x20000000, not in fs.constants): the kernel
 * refuses a symlink in any component of the path during the open itself.
 * Untested here (the tests run on Linux, where the walk is used instead).
 */
const O_NOFOLLOW_ANY = process.platform === 'darwin' ? 0x20000000 : 0;

/** O_NONBLOCK: a FIFO slipped in after the check must not hang the open. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | O_NOFOLLOW_ANY;

/** The file at `names` opened read-only; the caller closes it. */
export async function openForReadByIdentity(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep?: StepHook,
): Promise<FileHandle> {
  const checked = await checkComponents(root, names, onStep);
  const last = names.length - 1;
  const shown = shownPath(root, names);
  await onStep?.({ phase: 'open', index: last, name: names[last] });
  let handle: FileHandle;
  try {
    handle = await fs.open(pathBelow(root, names), READ_FLAGS);
  } catch (e) {
    throw fromSystemError(e, shown);
  }
  try {
    const stat = await handle.stat({ bigint: true });
    if (!sameFile(stat, checked[last])) throw changed(shown);
    requireRegularFile(stat, shown);
    await confirmFoldersUnchanged(root, names, checked);
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

/** lstat of each component, refusing links and wrong kinds, before anything is opened. */
async function checkComponents(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep?: StepHook,
): Promise<BigIntStats[]> {
  await confirmRoot(root);
  const seen: BigIntStats[] = [];
  for (let index = 0; index < names.length; index++) {
    await onStep?.({ phase: 'lookup', index, name: names[index] });
    const shown = shownPath(root, names, index + 1);
    let stat: BigIntStats;
    try {
      stat = await fs.lstat(pathBelow(root, names, index + 1), { bigint: true });
    } catch (e) {
      // Every folder before it was checked: a missing last name is a new file.
      if (index === names.length - 1 && (e as NodeJS.ErrnoException).code === 'ENOENT') throw noFile(shown);
      throw fromSystemError(e, shown);
    }
    if (index < names.length - 1) requireFolder(stat, shown);
    else requireRegularFile(stat, shown);
    seen.push(stat);
  }
  return seen;
}

/** After the open: the root and every folder are still the ones checked, and still not links. */
async function confirmFoldersUnchanged(
  root: WorkspaceRoot,
  names: readonly string[],
  seen: readonly BigIntStats[],
): Promise<void> {
  await confirmRoot(root);
  for (let index = 0; index < names.length - 1; index++) {
    const stat = await fs.lstat(pathBelow(root, names, index + 1), { bigint: true }).catch(() => undefined);
    if (!stat || stat.isSymbolicLink() || !sameFile(stat, seen[index])) {
      throw changed(shownPath(root, names, index + 1));
    }
  }
}

async function confirmRoot(root: WorkspaceRoot): Promise<void> {
  const stat = await fs.lstat(root.path, { bigint: true }).catch(() => undefined);
  if (!stat || !stat.isDirectory() || !sameFile(stat, root)) throw rootChanged(root);
}

function changed(shown: string): WorkspaceFsError {
  return new WorkspaceFsError('changed', `${shown} changed while it was being opened; nothing was read.`);
}
