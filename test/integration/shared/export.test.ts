/**
 * Both hosts: ACP: Export Chat as Markdown... writes the shown chat's
 * transcript to the file picked in the save dialog.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { acpApi } from './chatWaits';
import { newChatWithTestAgent } from './host';

describe('Export Chat as Markdown', function () {
  this.timeout(60_000);

  it("writes the chat's prompts and answers to the file picked", async () => {
    const { api, chat } = await newChatWithTestAgent();
    api.chats.show(chat.id);
    await chat.composer.send('burst export please');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const target = vscode.Uri.joinPath(folder, 'exported-chat.md');
    type Save = (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;
    type Info = (message: string, ...items: string[]) => Thenable<string | undefined>;
    const window = vscode.window as unknown as { showSaveDialog: Save; showInformationMessage: Info };
    const real = { save: window.showSaveDialog, info: window.showInformationMessage };
    let offered: vscode.Uri | undefined;
    const said: string[] = [];
    window.showSaveDialog = async (options) => ((offered = options.defaultUri), target);
    // Said where it went, and Open picked.
    window.showInformationMessage = async (message, ...items) => (said.push([message, ...items].join(' | ')), 'Open');
    try {
      await vscode.commands.executeCommand('vscode-acp.exportChat');
      for (let i = 0; i < 50 && vscode.window.activeTextEditor?.document.uri.path !== target.path; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      window.showSaveDialog = real.save;
      window.showInformationMessage = real.info;
    }
    assert.equal(offered?.path.endsWith('/burst export please.md'), true, String(offered));
    assert.deepEqual(said, ['Exported the chat to exported-chat.md. | Open']);
    assert.equal(vscode.window.activeTextEditor?.document.uri.path, target.path, 'the export opened');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(text, /## User\n\nburst export please\n\n## Assistant\n\none two three four five/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.workspace.fs.delete(target);
    await (await acpApi()).chats.close(chat.id);
  });
});
