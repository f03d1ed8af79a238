/** Naming and finding the workspace's files for attachments. */
import * as vscode from 'vscode';
import { imageTypeByName } from '../shared/attachments';
import type { AttachmentLook } from './draftAttachments';

/** How many workspace files are listed for a search (the `@` popup, the paperclip). */
const MAX_FILES = 20_000;

/** The workspace's files; the files.exclude and search.exclude settings apply (the `undefined` exclude). */
export async function findWorkspaceFiles(): Promise<vscode.Uri[]> {
  return vscode.workspace.findFiles('**/*', undefined, MAX_FILES);
}

/** The files of the workspace open in editor tabs (text editors, and custom editors such as the image preview). */
export function openWorkspaceFiles(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
    const input = tab.input;
    const uri = input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom ? input.uri : undefined;
    if (uri && vscode.workspace.getWorkspaceFolder(uri)) seen.set(uri.toString(), uri);
  }
  return [...seen.values()];
}

export function baseName(uri: vscode.Uri): string {
  return uri.path.split('/').filter(Boolean).pop() ?? uri.path;
}

export function relativePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** How a workspace file's chip looks: its name, its relative path, an image icon for an image. */
export function fileLook(uri: vscode.Uri): AttachmentLook {
  const label = baseName(uri);
  return { label, detail: relativePath(uri), icon: imageTypeByName(label) ? 'image' : 'file' };
}
