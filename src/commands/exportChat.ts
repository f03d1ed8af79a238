/**
 * ACP: Export Chat as Markdown... (in the palette and the chat view's menu): the shown chat's transcript (as the
 * chat keeps it: secrets redacted; entries a long chat moved out of memory are named by its notice, not repeated) to
 * a Markdown file the user picks, then said where, with Open.
 */
import * as vscode from 'vscode';
import type { Chat } from '../chat/chat';
import { threadToMarkdown } from '../shared/threadMarkdown';
import { emptySessionControls } from '../shared/sessionControls';

/** A file name from the chat's title: letters, digits and a few marks, at most 60 characters. */
export function exportFileName(title: string | undefined): string {
  const base = (title ?? '')
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .trim()
    .replace(/\s+/g, ' ')
    .slice(0, 60)
    .trim();
  return `${base || 'chat'}.md`;
}

export async function exportChat(chat: Chat): Promise<void> {
  if (chat.thread.entries.length === 0) {
    void vscode.window.showInformationMessage('This chat has nothing to export yet.');
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = exportFileName(chat.title);
  const target = await vscode.window.showSaveDialog({
    title: 'Export Chat as Markdown',
    saveLabel: 'Export',
    filters: { Markdown: ['md'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  if (!target) return;
  // The controls (modes, models) belong to the live session, not to what was said.
  const text = threadToMarkdown({ ...chat.thread, controls: emptySessionControls });
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `The chat was not exported: ${error instanceof Error ? error.message : String(error)}`,
    );
    return;
  }
  // Said where it went, with the file one click away (not opened unasked: the user may be exporting to keep it).
  void vscode.window
    .showInformationMessage(`Exported the chat to ${vscode.workspace.asRelativePath(target)}.`, 'Open')
    .then((picked) => (picked === 'Open' ? vscode.window.showTextDocument(target) : undefined));
}
