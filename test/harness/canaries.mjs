/**
 * Secret canaries: which files under some folders hold any of some values
 * (as written, or as they look inside a JSON string). Binary files too
 * (VS Code keeps workspace and global state in SQLite). Files over 64 MiB
 * are counted, not read: the tests' own fixtures (a sparse 2 GiB file).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function filesHolding(dirs, values) {
  const needles = values.flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]).map((v) => Buffer.from(v));
  const found = [];
  let files = 0;
  const skipped = [];
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
      else if (entry.isFile()) {
        if (fs.statSync(full).size > 64 * 1024 * 1024) {
          skipped.push(full);
          continue;
        }
        files++;
        const bytes = fs.readFileSync(full);
        if (needles.some((n) => bytes.includes(n))) found.push(full);
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return { found, files, skipped };
}
