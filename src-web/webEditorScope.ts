/**
 * Where the editor server may look on VS Code for the Web: the workspace's folders. The agent runs next to the bridge
 * in the folder the user opened here (the bridge's `cwd`, its first root): its path inside a root, or relative, is
 * the same file below the first workspace folder; anything else is outside. Judged as text: no disk here to check.
 */
import * as vscode from 'vscode';
import { folderScope, type EditorScope } from '../src/editorServer/editorScope';
import { pathInside } from '../src/shared/text/pathInside';

export function webEditorScope(roots: readonly string[]): EditorScope {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri);
  return folderScope(
    folders.map((uri) => uri.toString()),
    async (text) => {
      const first = folders[0];
      if (!first) return { ok: false, why: 'no workspace folder is open' };
      if (text.includes('\0')) return { ok: false, why: 'it contains a NUL character' };
      const root = roots.find((r) => pathInside(text, r));
      const absolute = text.startsWith('/') || text.startsWith('\\') || /^[a-zA-Z]:/.test(text);
      if (!root && absolute) return { ok: false, why: 'it is outside the workspace folders' };
      const rest = root ? text.slice(root.length) : text;
      const parts = rest.split(/[\\/]/).filter((p) => p !== '' && p !== '.');
      if (parts.includes('..')) return { ok: false, why: 'it climbs out of the workspace folder' };
      return { ok: true, uri: vscode.Uri.joinPath(first, ...parts).toString() };
    },
  );
}
