/**
 * The editor as context the user gives a prompt: `@problems` (the workspace's problems) and `@changes` (the working
 * tree against HEAD, with each file's diff), in the words and bounds of the editor server's answers, about the
 * workspace's folders only.
 */
import type { EditorPort } from './editorPort';
import { folderScope, MAX_ANSWER_CHARS, type EditorScope } from './editorScope';
import { changedFiles, EDITOR_TOOLS, runTool, type ToolContext } from './editorTools';

/** At most this many files' diffs go with `@changes` (the list names every changed file, up to its bound). */
const MAX_DIFFS = 50;

/** The scope of the workspace's folders (uris), for questions that name no path. */
function workspaceScope(folders: readonly string[]): EditorScope {
  return folderScope(folders, () => Promise.resolve({ ok: false, why: 'no path is taken here' }));
}

async function answer(name: string, context: ToolContext, args: Record<string, unknown> = {}): Promise<string> {
  const tool = EDITOR_TOOLS.find((t) => t.name === name)!;
  return (await runTool(tool, args, context)).text;
}

/** The problems VS Code reports in the workspace's folders, errors first, bounded. */
export function workspaceProblems(editor: EditorPort, folders: readonly string[]): Promise<string> {
  return answer('problems', { editor, scope: workspaceScope(folders) });
}

/** The working tree's changes against HEAD: the changed files, then their diffs while they fit in MAX_ANSWER_CHARS. */
export async function workingTreeChanges(editor: EditorPort, folders: readonly string[]): Promise<string> {
  const scope = workspaceScope(folders);
  // One reading of Git's state: the list and the diffs are of the same files.
  let found: Awaited<ReturnType<EditorPort['changes']>>;
  try {
    found = await editor.changes();
  } catch (error) {
    return `VS Code could not list the changes: ${String(error).split('\n')[0]}`;
  }
  const changed = (found ?? []).filter((c) => scope.contains(c.uri));
  let text = changedFiles(found, scope).text;
  let left = changed.length;
  for (const change of changed.slice(0, MAX_DIFFS)) {
    const diff = await editor.diff(change.uri).catch(() => undefined);
    if (diff && text.length + diff.length + 2 > MAX_ANSWER_CHARS) break;
    left--;
    if (diff) text += `\n\n${diff.trimEnd()}`;
  }
  return left > 0 ? `${text}\n\n(the diffs of ${left.toLocaleString('en-US')} more files are not included)` : text;
}
