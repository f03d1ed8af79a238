/**
 * Resolves an agent command to an absolute executable without a shell: a bare
 * name is looked up in the absolute entries of PATH only.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../paths/pathInside';

export interface ResolveOptions {
  /**
   * Folders whose PATH entries are skipped: in an untrusted workspace, the
   * workspace's own folders (a `./node_modules/.bin` put on PATH must not
   * decide which program runs).
   */
  readonly skipInside?: readonly string[];
}

export async function resolveExecutable(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  options: ResolveOptions = {},
): Promise<string | undefined> {
  if (command.includes('\0')) return undefined;
  if (path.isAbsolute(command)) return executableFile(command);
  // "./x" or "bin/x" would depend on the current directory: refused.
  if (command.includes('/') || command.includes('\\')) return undefined;
  const extensions =
    process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  const skip = await Promise.all((options.skipInside ?? []).map(canonical));
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // relative PATH entries are skipped
    const real = await canonical(dir);
    if (skip.some((root) => isInside(root, real))) continue;
    for (const ext of extensions) {
      const found = await executableFile(path.join(real, command + ext));
      if (found) return found;
    }
  }
  return undefined;
}

async function canonical(dir: string): Promise<string> {
  try {
    return await fs.realpath(dir);
  } catch {
    return path.resolve(dir);
  }
}

async function executableFile(file: string): Promise<string | undefined> {
  try {
    const real = await fs.realpath(file);
    const stat = await fs.stat(real);
    if (!stat.isFile()) return undefined;
    await fs.access(real, constants.X_OK);
    return real;
  } catch {
    return undefined;
  }
}
