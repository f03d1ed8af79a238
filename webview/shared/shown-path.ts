/**
 * Paths as the view shows them: a path inside a workspace folder relative to
 * it (as VS Code's own views and Zed's panel show them), any other in full.
 * The roots come with the host's status.
 */
let roots: readonly string[] = [];

export function setWorkspaceRoots(next: readonly string[] | undefined): void {
  roots = next ?? [];
}

/** `path` relative to the workspace folder it is in (the folder's name first when there are several), else as given. */
export function shownPath(path: string): string {
  for (const root of roots) {
    const base = withoutTrailingSeparators(root);
    if (path.length > base.length + 1 && path.startsWith(base) && '/\\'.includes(path[base.length]!)) {
      const rest = path.slice(base.length + 1);
      return roots.length > 1 ? `${base.split(/[\\/]/).pop()}/${rest}` : rest;
    }
  }
  return path;
}

/** `path` without the separators at its end. By index: `[\\/]+$` is tried from each one of a run to its end. */
function withoutTrailingSeparators(path: string): string {
  let end = path.length;
  while (end > 0 && (path[end - 1] === '/' || path[end - 1] === '\\')) end--;
  return path.slice(0, end);
}
