/**
 * Secret canaries: which files under some folders hold any of some values
 * (as written, or as they look inside a JSON string). Binary files too
 * (VS Code keeps workspace and global state in SQLite). Files over 64 MiB
 * are counted, not read: the tests' own fixtures (a sparse 2 GiB file).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Every regular file under `dirs` (links not followed). */
export function filesUnder(dirs) {
  const files = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}

export function filesHolding(dirs, values) {
  const needles = values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]).map((v) => Buffer.from(v));
  const found = [];
  const skipped = [];
  let files = 0;
  for (const file of filesUnder(dirs)) {
    let bytes;
    try {
      if (fs.statSync(file).size > 64 * 1024 * 1024) {
        skipped.push(file);
        continue;
      }
      bytes = fs.readFileSync(file);
    } catch (error) {
      // A temporary file renamed away while the folder was read (a save of the extension's): what it held is in the file it became.
      if (error.code === 'ENOENT') continue;
      throw error;
    }
    files++;
    if (needles.some((n) => bytes.includes(n))) found.push(file);
  }
  return { found, files, skipped };
}
