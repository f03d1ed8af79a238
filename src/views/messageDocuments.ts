/**
 * The whole text of a chat message, as a read-only document: for messages
 * longer than the chat view shows (entryPatches.ts, SHOWN_TEXT_LIMIT). Read
 * from the transcript when opened; nothing is written anywhere, and closing it
 * asks nothing.
 */
import * as vscode from 'vscode';
import { isTextEntry, type TextEntry, type Thread } from '../shared/thread/thread';

export const MESSAGE_SCHEME = 'vscode-acp-message';

const ROLE = { user: 'Your message', assistant: 'Agent message', thought: 'Agent thinking' } as const;

export class MessageDocuments implements vscode.TextDocumentContentProvider {
  /** `threads`: every open chat's (entry ids are unique across chats). */
  constructor(private readonly threads: () => readonly Thread[]) {}

  /** Opens the message `entryId` in an editor; false when the transcript no longer has it. */
  async open(entryId: string): Promise<boolean> {
    const entry = this.textEntry(entryId);
    if (!entry) return false;
    // The id only: the path is ours to name, never text from the agent.
    const uri = vscode.Uri.from({
      scheme: MESSAGE_SCHEME,
      path: `/${ROLE[entry.kind]} ${entry.id}${entry.kind === 'user' ? '.txt' : '.md'}`,
      query: entry.id,
    });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: true });
    return true;
  }

  /** The whole text of message `entryId` (the view may have only its start), to the clipboard. */
  async copy(entryId: string): Promise<void> {
    const entry = this.textEntry(entryId);
    if (entry) await vscode.env.clipboard.writeText(entry.text);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.textEntry(uri.query)?.text ?? '(This message is no longer in the chat.)';
  }

  private textEntry(id: string): TextEntry | undefined {
    for (const thread of this.threads()) {
      const entry = thread.entries.find((e) => e.id === id);
      if (entry) return isTextEntry(entry) ? entry : undefined;
    }
    return undefined;
  }
}
