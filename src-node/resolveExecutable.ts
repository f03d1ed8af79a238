/**
 * Resolves an agent command to an absolute executable without a shell: a bare
 * name is looked up in the absolute entries of PATH only.
 */
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';

export async function resolveExecutable(command: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  if (command.includes('\0')) return undefined;
  if (path.isAbsolute(command)) return executableFile(command);
  // "./x" or "bin/x" would depend on the current directory: refused.
  if (command.includes('/') || command.includes('\\')) return undefined;
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue; // relative PATH entries are skipped
    for (const ext of extensions) {
      const found = await executableFile(path.join(dir, command + ext));
      if (found) return found;
    }
  }
  return undefined;
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
