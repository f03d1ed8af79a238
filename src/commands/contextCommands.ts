/** The commands that give the shown chat context: attach files, add the editor's selection. */
import * as vscode from 'vscode';
import { addFiles, attachSelection } from '../attachments/attach';
import { pickAttachments } from '../attachments/attachPick';
import type { Chats } from '../chats/chats';
import type { ChatViewProvider } from '../views/chatViewProvider';

export function registerContextCommands({
  chats,
  view,
}: {
  readonly chats: Chats;
  readonly view: ChatViewProvider;
}): vscode.Disposable[] {
  return [
    // With URIs (another extension, a test): those files; without, the paperclip's pick.
    vscode.commands.registerCommand('vscode-acp.attachFiles', (uris?: unknown) =>
      Array.isArray(uris)
        ? addFiles(
            chats.shown.composer.attachments,
            uris.filter((u): u is vscode.Uri => u instanceof vscode.Uri),
          )
        : pickAttachments(chats.shown.composer.attachments).then(async () => {
            await view.reveal();
            chats.shown.composer.focus();
          }),
    ),
    vscode.commands.registerCommand('vscode-acp.addSelection', async () => {
      const chat = chats.shown;
      if (!attachSelection(chat.composer.attachments, vscode.window.activeTextEditor)) return;
      await view.reveal();
      chat.composer.focus();
    }),
  ];
}
