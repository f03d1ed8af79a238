/**
 * The check right before a prepared launch starts. The user approved a
 * text (describeLaunch) some time ago, and the agent may have changed files
 * since: the executable is resolved again and must be the same file,
 * unchanged; the working folder must be the same folder, still at its
 * canonical path. Anything different is refused rather than run.
 */
import { promises as fs } from 'node:fs';
import { TerminalError } from '../errors';
import { identityOf, sameFile, sameFolder, type PathIdentity } from './launchPaths';
import type { PreparedLaunch } from './prepareLaunch';
import { resolveProgram } from './resolveProgram';
import { quotedShort } from './shownText';

/** The folder to start in, held open where possible, and its release. */
export interface PinnedCwd {
  /** The path to give spawn(). */
  readonly path: string;
  close(): Promise<void>;
}

export async function recheckLaunch(launch: PreparedLaunch): Promise<PinnedCwd> {
  const changed = (what: string) =>
    new TerminalError('changed', `${what} changed after the command was shown for approval; it was not run.`);
  const program = await resolveProgram(launch.command, launch.env, launch.platform).catch(() => undefined);
  if (program?.executable !== launch.executable || !sameFile(program.identity, launch.identities.executable)) {
    throw changed(`The executable ${quotedShort(launch.executable)}`);
  }
  // The folder must still really be at its canonical path: that path is
  // inside the workspace as text, so no symlink can take it out of it.
  const pinned = await pinFolder(launch.cwd, launch.platform);
  if (!pinned || !sameFolder(pinned.identity, launch.identities.cwd) || pinned.realPath !== launch.cwd) {
    await pinned?.close();
    throw changed(`The folder ${quotedShort(launch.cwd)}`);
  }
  return { path: pinned.spawnPath, close: () => pinned.close() };
}

export interface Pinned {
  readonly identity: PathIdentity;
  /** Where the checked folder really is now. */
  readonly realPath: string;
  readonly spawnPath: string;
  close(): Promise<void>;
}

/**
 * On Linux, opens the folder and starts the child in `/proc/self/fd/N`: the
 * very folder just checked, so a swap between this check and the start
 * cannot redirect it (the descriptor is inherited until exec, and the
 * child's chdir happens before exec). Elsewhere (or without /proc) the
 * checked path is used, leaving that short window open. `platform` is the
 * launch's (process.platform but in tests of other platforms' rules).
 */
export async function pinFolder(folder: string, platform: NodeJS.Platform): Promise<Pinned | undefined> {
  if (platform !== 'linux') return byPath(folder);
  const handle = await fs.open(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY).catch(() => undefined);
  if (handle === undefined) return undefined;
  const close = () => handle.close();
  try {
    const realPath = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (realPath === undefined) {
      await close();
      return byPath(folder);
    }
    const s = await handle.stat({ bigint: true });
    const identity = { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, mode: s.mode };
    return { identity, realPath, spawnPath: `/proc/self/fd/${handle.fd}`, close };
  } catch {
    await close();
    return undefined;
  }
}

async function byPath(folder: string): Promise<Pinned | undefined> {
  const realPath = await fs.realpath(folder).catch(() => undefined);
  const identity = realPath === undefined ? undefined : await identityOf(realPath).catch(() => undefined);
  if (realPath === undefined || identity === undefined) return undefined;
  return { identity, realPath, spawnPath: realPath, close: async () => undefined };
}
