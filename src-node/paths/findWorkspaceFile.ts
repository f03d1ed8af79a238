/**
 * The file an agent's path names inside a workspace folder (a link in the chat, Follow the Agent), found with no
 * vscode so that it is tested in plain Node. The path is judged as text first (agentPathText.ts): nothing of a
 * refused one reaches the disk. Then both sides are made canonical (symlinks resolved), so that a link that points
 * out of the folder does not count as inside.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { agentPathInside, isBelow, pathShapeProblem, type PathFlavour } from './agentPathText';

/** The disk calls finding a file makes: node:fs's, or a test's spy. */
export interface FileLookup {
  realpath(path: string): Promise<string>;
  stat(path: string): Promise<{ isFile(): boolean }>;
}

/** The canonical path of the file `agentPath` names below one of `folders`, or undefined. */
export async function findWorkspaceFile(
  agentPath: unknown,
  folders: readonly string[],
  flavour: PathFlavour = path,
  io: FileLookup = fs,
): Promise<string | undefined> {
  // Nothing of a path refused by its shape reaches the disk, not even the folders' lookups below.
  if (pathShapeProblem(flavour, agentPath) !== undefined) return undefined;
  // A path may name a folder by its canonical spelling too (on macOS /var is /private/var).
  const roots = await canonical(folders, io);
  const checked = agentPathInside(flavour, agentPath, [...folders, ...roots]);
  if (!checked.ok) return undefined;
  try {
    const real = await io.realpath(checked.path);
    if (!(await io.stat(real)).isFile()) return undefined;
    return roots.some((root) => isBelow(flavour, root, real)) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The folders' canonical paths; a folder that no longer exists has none. */
async function canonical(folders: readonly string[], io: FileLookup): Promise<string[]> {
  const real = await Promise.all(folders.map((folder) => io.realpath(folder).catch(() => undefined)));
  return real.filter((r): r is string => r !== undefined);
}
