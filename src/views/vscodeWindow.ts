/** VS Code's window, as the chat core asks for it (see WindowPort). */
import * as vscode from 'vscode';
import type { WindowPort } from '../platform';

export const vscodeWindow: WindowPort = {
  showError: (text) => void vscode.window.showErrorMessage(text),
  trusted: () => vscode.workspace.isTrusted,
  showFile: async (file, line) => {
    const at = line ? new vscode.Position(line - 1, 0) : undefined;
    await vscode.window.showTextDocument(file, {
      preview: true,
      preserveFocus: true,
      ...(at ? { selection: new vscode.Range(at, at) } : {}),
    });
  },
  unsavedText: (path) => {
    let uri: vscode.Uri;
    try {
      uri = vscode.Uri.file(path);
    } catch {
      return undefined;
    }
    // Compared as file URIs (case as the OS reports it).
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
    return open?.isDirty ? open.getText() : undefined;
  },
  progress: (title, task) =>
    Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (_progress, token) => {
          const cancel = new AbortController();
          token.onCancellationRequested(() => cancel.abort(new Error('cancelled by the user')));
          return task(cancel.signal);
        },
      ),
    ),
  openExternal: (url) => Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true))),
  // Kept open when focus moves: a sign-in choice is read beside a browser or a terminal.
  pick: async (items, options) => vscode.window.showQuickPick([...items], { ...options, ignoreFocusOut: true }),
};
