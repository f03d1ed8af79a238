/**
 * Resolves an agent-given path to a file inside a trusted local workspace
 * folder (findWorkspaceFile.ts: checked as text before any disk access, then
 * both sides canonical, so a link that points out of the folder does not
 * count as inside).
 */
import * as vscode from 'vscode';
import { findWorkspaceFile } from './findWorkspaceFile';

export async function workspaceFile(agentPath: string): Promise<vscode.Uri | undefined> {
  if (!vscode.workspace.isTrusted) return undefined;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const real = await findWorkspaceFile(
    agentPath,
    folders.map((f) => f.uri.fsPath),
  );
  return real === undefined ? undefined : vscode.Uri.file(real);
}
