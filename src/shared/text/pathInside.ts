/**
 * Whether a path or uri is a folder or inside it, by its text: for paths and uris this extension made or checked
 * already (a workspace folder, a root the agent was given, a uri VS Code wrote). Canonical paths on disk are the Node
 * host's own check (src-node/paths/pathInside.ts).
 */

/** Whether `path` (absolute, as this machine writes paths, or a uri) is `root` or inside it. */
export function pathInside(path: string, root: string): boolean {
  if (path === root) return true;
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
  return path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}
