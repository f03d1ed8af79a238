/**
 * The commands that give the shown chat context: attach files, add the editor's selection or the terminal's, and the
 * Quick Fix that asks the agent to fix a problem.
 */
import * as vscode from 'vscode';
import { addFiles, attachSelection, trustedOrSay } from '../attachments/attach';
import { attachTerminalSelection } from '../attachments/terminalSelection';
import { FIX_COMMAND, FixWithAgent, fixPrompt } from './fixWithAgent';
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
    vscode.commands.registerCommand('vscode-acp.addTerminalSelection', async () => {
      const chat = chats.shown;
      if (!trustedOrSay() || !(await attachTerminalSelection(chat.composer.attachments))) return;
      await view.reveal();
      chat.composer.focus();
    }),
    vscode.languages.registerCodeActionsProvider({ pattern: '**' }, new FixWithAgent(), {
      providedCodeActionKinds: FixWithAgent.kinds,
    }),
    vscode.commands.registerCommand(FIX_COMMAND, async (uri: unknown, problems: unknown) => {
      if (!(uri instanceof vscode.Uri) || !Array.isArray(problems) || !trustedOrSay()) return;
      const chat = chats.shown;
      chat.composer.handBack(
        fixPrompt(
          uri,
          problems.filter((p) => p instanceof vscode.Diagnostic),
        ),
      );
      addFiles(chat.composer.attachments, [uri]);
      await view.reveal();
      chat.composer.focus();
    }),
  ];
}
