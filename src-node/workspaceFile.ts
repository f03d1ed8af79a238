/**
 * Resolves an agent-given path to a file inside a trusted local workspace
 * folder: both sides canonical (symlinks resolved), so a link that points out
 * of the folder does not count as inside.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { isInside } from './pathInside';

export async function workspaceFile(agentPath: string): Promise<vscode.Uri | undefined> {
  if (!vscode.workspace.isTrusted || agentPath.includes('\0') || !path.isAbsolute(agentPath)) return undefined;
  let real: string;
  try {
    real = await fs.realpath(agentPath);
    if (!(await fs.stat(real)).isFile()) return undefined;
  } catch {
    return undefined;
  }
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    try {
      const root = await fs.realpath(folder.uri.fsPath);
      if (isInside(root, real)) return vscode.Uri.file(real);
    } catch {
      // A folder that no longer exists.
    }
  }
  return undefined;
}
