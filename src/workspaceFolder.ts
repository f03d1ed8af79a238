/**
 * Which workspace folder a new session runs in: the active editor's folder,
 * the only folder, or the user's choice.
 */
import * as vscode from 'vscode';

export async function pickSessionFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showErrorMessage('Open a folder to chat with an agent: the agent works in a workspace folder.');
    return undefined;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  const ofActive = active && vscode.workspace.getWorkspaceFolder(active);
  if (ofActive) return ofActive;
  if (folders.length === 1) return folders[0];
  return vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which folder should the agent work in?' });
}

/**
 * The folder whose settings a session takes, where the workspace has any:
 * `{}` when it has none, undefined when the user cancelled the pick.
 */
export async function sessionFolderIfAny(): Promise<{ folder?: vscode.WorkspaceFolder } | undefined> {
  if (!vscode.workspace.workspaceFolders?.length) return {};
  const folder = await pickSessionFolder();
  return folder ? { folder } : undefined;
}
