/**
 * The Linux descriptor walk: a path is followed one name at a time from a
 * descriptor of the workspace root, each name opened through
 * `/proc/self/fd/<dir>/<name>`.
 *
 * Why that is safe, per component:
 * - `/proc/self/fd/<dir>` is a "magic link": the kernel jumps straight to the
 *   folder the descriptor holds; it does not look its old path up again. So
 *   renaming that folder, or putting a symlink where it used to be, no longer
 *   matters once it is open (the time-of-check/time-of-use gap is closed).
 * - `<name>` is one plain name (no '/', never '.' or '..': agentPath.ts), so
 *   the lookup cannot leave that folder except through a symlink, and
 * - it is opened with O_PATH | O_NOFOLLOW: a symlink in its place is opened
 *   as the link itself (never followed) and refused after fstat; O_PATH also
 *   means nothing is really opened yet: no FIFO wait, no device open, and no
 *   read permission needed to pass through a folder.
 * - the kind (folder / regular file / link) is checked with fstat on that
 *   descriptor, so what is checked is exactly what will be used.
 * Every descriptor is closed on every path, success or refusal.
 */
import { closeSync, constants, fstatSync, openSync, promises as fs, statSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { fromSystemError, notFound } from '../errors';
import { requireFolder } from './fileKind';
import { shownPath } from '../agentPath';
import type { StepHook } from './walkStep';
import { rootChanged, sameFile, type WorkspaceRoot } from '../workspaceRoot';

/** Linux O_PATH (missing from fs.constants): a descriptor that names a file without opening it. */
const O_PATH = 0o10000000;
/** How every name is looked up. */
const LOOKUP = O_PATH | constants.O_NOFOLLOW;

let supported: boolean | undefined;

/**
 * True when this host can do the descriptor walk (Linux, /proc mounted, and
 * O_PATH | O_NOFOLLOW behaving as described above). Checked once, cached.
 */
export function descriptorWalkSupported(): boolean {
  supported ??= probeDescriptorWalk();
  return supported;
}

/**
 * Probes on /proc itself so nothing has to be written anywhere: walks from
 * "/" to /proc by descriptor, checks that /proc/self is seen as a link (not
 * followed) and that a looked-up file can be reopened through its descriptor.
 * Uncached (descriptorWalkSupported caches it); exported for its test.
 */
export function probeDescriptorWalk(): boolean {
  if (process.platform !== 'linux') return false;
  const fds: number[] = [];
  const open = (p: string, flags: number) => {
    const fd = openSync(p, flags);
    fds.push(fd);
    return fd;
  };
  try {
    const rootFd = open('/', LOOKUP | constants.O_DIRECTORY);
    const procFd = open(`/proc/self/fd/${rootFd}/proc`, LOOKUP | constants.O_DIRECTORY);
    const selfFd = open(`/proc/self/fd/${procFd}/self`, LOOKUP);
    const versionFd = open(`/proc/self/fd/${procFd}/version`, LOOKUP);
    const reopenedFd = open(`/proc/self/fd/${versionFd}`, constants.O_RDONLY);
    const same = (a: number, b: { dev: number; ino: number }) =>
      fstatSync(a).dev === b.dev && fstatSync(a).ino === b.ino;
    return (
      same(procFd, statSync('/proc')) &&
      fstatSync(selfFd).isSymbolicLink() &&
      fstatSync(versionFd).isFile() &&
      same(reopenedFd, fstatSync(versionFd))
    );
  } catch {
    return false;
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** `/proc/self/fd/<fd>` (the open file itself) or `/proc/self/fd/<fd>/<name>` (one name inside it). */
export function viaDescriptor(handle: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${handle.fd}` : `/proc/self/fd/${handle.fd}/${name}`;
}

/** A descriptor of the root, refused unless it is still the folder that was opened. */
export async function openRootFolder(root: WorkspaceRoot): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(root.path, LOOKUP | constants.O_DIRECTORY);
  } catch {
    throw rootChanged(root);
  }
  try {
    if (sameFile(await handle.stat({ bigint: true }), root)) return handle;
  } catch {
    // Treated like a replaced root below.
  }
  await handle.close();
  throw rootChanged(root);
}

/** One name inside `dir`, as an O_PATH descriptor and its fstat; undefined when there is no such name. */
export async function lookupName(
  dir: FileHandle,
  name: string,
  shown: string,
): Promise<{ handle: FileHandle; stat: BigIntStats } | undefined> {
  let handle: FileHandle;
  try {
    handle = await fs.open(viaDescriptor(dir, name), LOOKUP);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw fromSystemError(e, shown);
  }
  try {
    return { handle, stat: await handle.stat({ bigint: true }) };
  } catch (e) {
    await handle.close();
    throw fromSystemError(e, shown);
  }
}

/**
 * Walks from the root to the folder that holds the last name and returns
 * its descriptor (the caller closes it). Calls `onStep` before each lookup.
 */
export async function openParentFolder(
  root: WorkspaceRoot,
  names: readonly string[],
  onStep?: StepHook,
): Promise<FileHandle> {
  let dir = await openRootFolder(root);
  for (let index = 0; index < names.length - 1; index++) {
    const current = dir;
    try {
      await onStep?.({ phase: 'lookup', index, name: names[index] });
      dir = await openFolderIn(current, names[index], shownPath(root, names, index + 1));
    } finally {
      await current.close();
    }
  }
  return dir;
}

async function openFolderIn(dir: FileHandle, name: string, shown: string): Promise<FileHandle> {
  const found = await lookupName(dir, name, shown);
  if (!found) throw notFound(shown);
  try {
    requireFolder(found.stat, shown);
    return found.handle;
  } catch (e) {
    await found.handle.close();
    throw e;
  }
}
