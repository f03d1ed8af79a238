/**
 * The paperclip (and ACP: Attach Files to Prompt): a quick pick over the
 * workspace's files, the open editors first, searched as VS Code's Go to File
 * is (fuzzy, on the name and the folder); Browse… opens the file dialog.
 */
import * as vscode from 'vscode';
import { addFiles, trustedOrSay } from './attach';
import type { DraftAttachments } from './draftAttachments';
import { baseName, findWorkspaceFiles, openWorkspaceFiles, relativePath } from './workspaceUris';

type Item = vscode.QuickPickItem & { uri?: vscode.Uri };

/** Resolves when the pick is closed, with the chosen files attached. */
export async function pickAttachments(draft: DraftAttachments): Promise<void> {
  if (!trustedOrSay()) return;
  const browse: Item = { label: '$(folder-opened) Browse…', description: 'Choose files in a dialog', alwaysShow: true };
  const open = openWorkspaceFiles();
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = 'Attach to the prompt';
  pick.placeholder = 'Search the files of this workspace';
  pick.matchOnDescription = true;
  pick.items = items(browse, open, []);
  pick.busy = true;
  let closed = false;
  void findWorkspaceFiles().then(
    (files) => {
      if (closed) return;
      // What was typed meanwhile stays: only the list grows.
      pick.items = items(browse, open, files);
      pick.busy = false;
    },
    () => {
      if (!closed) pick.busy = false;
    },
  );
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => resolve(pick.selectedItems[0]));
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  closed = true;
  pick.dispose();
  if (!chosen) return;
  if (chosen.uri) return addFiles(draft, [chosen.uri]);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    canSelectFiles: true,
    canSelectFolders: false,
    openLabel: 'Attach',
    ...(folder ? { defaultUri: folder } : {}),
  });
  addFiles(draft, uris ?? []);
}

/**
 * The open editors, then the other files of the workspace, each group under its heading, then Browse (last: typing
 * makes the first match the active item, and Browse, always shown, must not be it).
 */
function items(browse: Item, open: readonly vscode.Uri[], files: readonly vscode.Uri[]): Item[] {
  const item = (uri: vscode.Uri): Item => ({ label: baseName(uri), description: relativePath(uri), uri });
  const openKeys = new Set(open.map((u) => u.toString()));
  const rest = files.filter((u) => !openKeys.has(u.toString()));
  const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
  return [
    ...(open.length > 0 ? [separator('open editors'), ...open.map(item)] : []),
    ...(rest.length > 0 ? [separator('files'), ...rest.map(item)] : []),
    separator(''),
    browse,
  ];
}
