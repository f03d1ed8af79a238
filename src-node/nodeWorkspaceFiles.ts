/**
 * The Node host's disk access for agents: each request goes to the trusted
 * local workspace folder that contains the path, through the workspaceFs
 * descriptor walk (no traversal or symlink escapes).
 */
import * as path from 'node:path';
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
import { pathInside } from '../src/shared/text/pathInside';
import { pathShapeProblem } from './paths/agentPathText';

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
  async read(
    path: string,
    range: { line?: number | null; limit?: number | null },
    roots: readonly string[],
  ): Promise<string | undefined> {
    const root = await rootFor(path, roots);
    try {
      return await readTextFile(root, path, range);
    } catch (e) {
      if (isWorkspaceFsError(e, 'no-file')) return undefined;
      throw e;
    }
  }

  async write(path: string, content: string, roots: readonly string[]): Promise<void> {
    if (!descriptorWalkSupported()) throw new Error('Writing files is not supported on this system.');
    await writeTextFile(await rootFor(path, roots), path, content);
  }
}

/** Files the user attaches: the same folders and the same walk as the agent's reads. */
export class NodeAttachmentFiles implements AttachmentFiles {
  linkable(uri: vscode.Uri, roots: readonly string[]): boolean {
    if (uri.scheme !== 'file') return false;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return !!folder && localFolders().includes(folder) && roots.includes(folder.uri.fsPath);
  }

  async read(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
    if (uri.scheme !== 'file') throw new Error('Only files on this machine can be attached here.');
    try {
      return await readFileBytes(await rootFor(uri.fsPath, allFolders()), uri.fsPath, maxBytes);
    } catch (e) {
      if (isWorkspaceFsError(e, 'too-large')) throw new AttachmentTooLargeError(e.message);
      throw e;
    }
  }
}

/** Every trusted local folder: the user attaches from any of them (the text goes with the prompt). */
function allFolders(): string[] {
  return localFolders().map((f) => f.uri.fsPath);
}

/**
 * The canonical root of the workspace folder the path is in (checked again by
 * the walk), of the folders in `roots` that are still trusted local folders.
 * The path is judged as text first (agentPathText.ts); only folders are
 * looked at here, and the walk takes the path by its names.
 */
async function rootFor(agentPath: string, roots: readonly string[]): Promise<WorkspaceRoot> {
  const problem = pathShapeProblem(path, agentPath);
  if (problem) throw new WorkspaceFsError('invalid-path', `${shortPath(agentPath)} is refused: ${problem}.`);
  if (localFolders().length === 0) {
    throw new Error('Files are offered to agents only in a trusted workspace with a local folder.');
  }
  const folders = localFolders().filter((f) => roots.includes(f.uri.fsPath));
  let lastError: unknown;
  for (const folder of folders) {
    try {
      const root = await openWorkspaceRoot(folder.uri.fsPath);
      if (root.prefixes.some((prefix) => pathInside(agentPath, prefix))) return root;
    } catch (error) {
      lastError = error;
    }
  }
  if (lastError instanceof WorkspaceFsError) throw lastError;
  const shown = shortPath(agentPath);
  const notGiven = localFolders().find((f) => !folders.includes(f) && pathInside(agentPath, f.uri.fsPath));
  if (notGiven) {
    throw new Error(`${shown} is in the workspace folder ${notGiven.name}, which this agent was not given.`);
  }
  throw new Error(`${shown} is not inside a workspace folder.`);
}

/** An agent's path cut for a message. */
function shortPath(agentPath: string): string {
  return agentPath.length > 160 ? `${agentPath.slice(0, 160)}…` : agentPath;
}
