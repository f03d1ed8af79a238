/** Whether one canonical path is a folder or below it: the one check behind "inside the workspace" for links and executables. */
import * as path from 'node:path';

/** True when `child` is `root` itself or below it (both canonical). */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel));
}
