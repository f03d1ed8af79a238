/**
 * Both hosts: ACP: Export Chat as Markdown... writes the shown chat's
 * transcript to the file picked in the save dialog.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { acpApi } from './chatWaits';
import { newChatWithTestAgent } from './host';

suite('Export Chat as Markdown', function () {
  this.timeout(60_000);

  test("writes the chat's prompts and answers to the file picked", async () => {
    const { api, chat } = await newChatWithTestAgent();
    api.chats.show(chat.id);
    await chat.send('burst export please');
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const target = vscode.Uri.joinPath(folder, 'exported-chat.md');
    type Save = (options: vscode.SaveDialogOptions) => Thenable<vscode.Uri | undefined>;
    const window = vscode.window as unknown as { showSaveDialog: Save };
    const real = window.showSaveDialog;
    let offered: vscode.Uri | undefined;
    window.showSaveDialog = async (options) => ((offered = options.defaultUri), target);
    try {
      await vscode.commands.executeCommand('vscode-acp.exportChat');
    } finally {
      window.showSaveDialog = real;
    }
    assert.equal(offered?.path.endsWith('/burst export please.md'), true, String(offered));
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(text, /## User\n\nburst export please\n\n## Assistant\n\none two three four five/);
    await vscode.workspace.fs.delete(target);
    await (await acpApi()).chats.close(chat.id);
  });
});
