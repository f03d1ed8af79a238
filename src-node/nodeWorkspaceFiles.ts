/**
 * The Node host's disk access for agents: each request goes to the trusted
 * local workspace folder that contains the path, through the workspaceFs
 * descriptor walk (no traversal or symlink escapes).
 */
import * as vscode from 'vscode';
import { hostCapabilities } from '../src/capabilities';
import {
  AttachmentTooLargeError,
  type AttachmentFiles,
  type HostCapabilities,
  type WorkspaceFileAccess,
} from '../src/platform';
import {
  descriptorWalkSupported,
  isWorkspaceFsError,
  openWorkspaceRoot,
  readFileBytes,
  readTextFile,
  WorkspaceFsError,
  writeTextFile,
  type WorkspaceRoot,
} from './workspaceFs';

/** Local folders of a trusted workspace: the only places agents may touch. */
export function localFolders(): readonly vscode.WorkspaceFolder[] {
  if (!vscode.workspace.isTrusted) return [];
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** This Node host's facts for the capability table (src/capabilities.ts). */
export function nodeCapabilities(): HostCapabilities {
  return hostCapabilities({
    kind: 'node',
    remoteName: vscode.env.remoteName,
    trusted: vscode.workspace.isTrusted,
    localFolder: localFolders().length > 0,
    descriptorWalk: descriptorWalkSupported(),
    terminalsReady: true,
  });
}

export class NodeWorkspaceFiles implements WorkspaceFileAccess {
  async read(path: string, range: { line?: number | null; limit?: number | null }): Promise<string | undefined> {
    const root = await rootFor(path);
    try {
      return await readTextFile(root, path, range);
    } catch (e) {
      if (isWorkspaceFsError(e, 'no-file')) return undefined;
      throw e;
    }
  }

  async write(path: string, content: string): Promise<void> {
    if (!descriptorWalkSupported()) throw new Error('Writing files is not supported on this system.');
    await writeTextFile(await rootFor(path), path, content);
  }
}

/** Files the user attaches: the same folders and the same walk as the agent's reads. */
export class NodeAttachmentFiles implements AttachmentFiles {
  linkable(uri: vscode.Uri): boolean {
    return uri.scheme === 'file' && localFolders().some((f) => vscode.workspace.getWorkspaceFolder(uri) === f);
  }

  async read(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
    if (uri.scheme !== 'file') throw new Error('Only files on this machine can be attached here.');
    try {
      return await readFileBytes(await rootFor(uri.fsPath), uri.fsPath, maxBytes);
    } catch (e) {
      if (isWorkspaceFsError(e, 'too-large')) throw new AttachmentTooLargeError(e.message);
      throw e;
    }
  }
}

/** The canonical root of the workspace folder the path is in (checked again by the walk). */
async function rootFor(path: string): Promise<WorkspaceRoot> {
  const folders = localFolders();
  if (folders.length === 0) {
    throw new Error('Files are offered to agents only in a trusted workspace with a local folder.');
  }
  let lastError: unknown;
  for (const folder of folders) {
    try {
      const root = await openWorkspaceRoot(folder.uri.fsPath);
      if (
        root.prefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))
      ) {
        return root;
      }
    } catch (error) {
      lastError = error;
    }
  }
  if (lastError instanceof WorkspaceFsError) throw lastError;
  throw new Error(`${path.length > 160 ? `${path.slice(0, 160)}…` : path} is not inside a workspace folder.`);
}
