/**
 * The editor server with a real agent on VS Code for the Web (test/real-agents/webHost.mjs): the agent runs next to
 * the real bridge, which serves the session's `vscode-editor` MCP server to it over HTTP and relays each call to the
 * browser, where this VS Code answers it. Nothing is configured but the bridge's address. The agent's fake model, asked
 * to check the types in typed.ts, calls `problems`, then `definition`, through the agent's own MCP client (VS Code's
 * TypeScript for the Web answering), then fixes the error with the agent's own edit tool, on the bridge's disk. The
 * reply must quote both answers and the chat must list both calls under the answer. The fix is checked on that disk by
 * the harness: test-web's workspace is a copy in the browser's memory, which a change on disk never reaches.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, transcript } from '../shared/chatWaits';
import { askAndCheckFix, diagnosticsOf } from '../shared/editorFix';
import { BRIDGE_URL_FILE, harnessFile } from './harnessFiles';

/** What the harness left for this test: the agent's name, the user's words, and the files (by name). */
interface RealEditorCase {
  readonly agent: string;
  readonly marker: string;
  readonly typed: string;
  readonly greeter: string;
}

describe('a real agent behind the bridge: the editor server of VS Code for the Web', function () {
  it("its model asks the browser's VS Code for problems and a definition, learns both and fixes the error", async () => {
    const c = JSON.parse(await harnessFile('real-editor.json')) as RealEditorCase;
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const typed = vscode.Uri.joinPath(folder, c.typed);
    const greeter = vscode.Uri.joinPath(folder, c.greeter);
    // As the user has it: the file open in an editor (TypeScript checks only those), its error reported.
    await vscode.window.showTextDocument(typed, { preview: false });
    await diagnosticsOf(typed, `TS2322 on ${c.typed}`, (codes) => codes.includes('2322'));
    const api = await acpApi();
    assert.ok(
      await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', await harnessFile(BRIDGE_URL_FILE)),
    );
    const chat = api.chats.newChat();
    chat.selectAgent('bridge');
    assert.equal(await chat.connect(), true, transcript(chat));
    try {
      const { definition } = await askAndCheckFix(chat, `${c.agent} (web)`, c.marker);
      // The definition opens greeter.ts, by VS Code's URI (this workspace is not on disk here).
      assert.equal(definition.uri, greeter.toString(), JSON.stringify(definition));
      assert.equal(definition.path, undefined);
    } finally {
      await api.chats.close(chat.id);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
