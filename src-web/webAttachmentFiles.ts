/**
 * Files the user attaches on the web host: the files of this vscode.dev
 * workspace, read through VS Code's file system. The agent runs next to the
 * bridge, elsewhere, and cannot open them: they are never sent as links.
 */
import * as vscode from 'vscode';
import { AttachmentTooLargeError, type AttachmentFiles } from '../src/platform';
import { sizeText } from '../src/shared/attachments';

export class WebAttachmentFiles implements AttachmentFiles {
  linkable(): boolean {
    return false;
  }

  async read(uri: vscode.Uri, maxBytes: number): Promise<Uint8Array> {
    if (!vscode.workspace.isTrusted) throw new Error('Files can be attached only in a trusted workspace.');
    if (!vscode.workspace.getWorkspaceFolder(uri)) throw new Error('Only files of this workspace can be attached.');
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.SymbolicLink) !== 0) {
      throw new Error('Symbolic links are not followed: attach the file itself.');
    }
    if ((stat.type & vscode.FileType.File) === 0) throw new Error('Only files can be attached.');
    if (stat.size > maxBytes) {
      throw new AttachmentTooLargeError(
        `It is ${sizeText(stat.size)}; files over ${sizeText(maxBytes)} are not read.`,
        stat.size,
      );
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    // It can have grown since the stat.
    if (bytes.length > maxBytes) {
      throw new AttachmentTooLargeError(
        `It is ${sizeText(bytes.length)}; files over ${sizeText(maxBytes)} are not read.`,
        bytes.length,
      );
    }
    return bytes;
  }
}
