/**
 * Both hosts: the editor server answers the agent from this VS Code. On the Node host the extension serves it on
 * 127.0.0.1; on VS Code for the Web the bridge serves it next to the agent and asks the browser each call. The same
 * test agent calls `problems` and `definition` on a file of the workspace (VS Code's diagnostics and a definition
 * provider registered here), and a path outside the folders: the answers are VS Code's, the refusal is the agent's
 * to read, and the chat lists the calls under the answer.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { transcript, waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';

describe('the editor server, asked by the agent', function () {
  this.timeout(60_000);

  it('answers problems and definition from VS Code, refuses a path outside the folders, and lists the calls', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, 'editor-ask.txt');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('let total = ;\ntotal\n'));
    const problems = vscode.languages.createDiagnosticCollection('acp-editor-test');
    const problem = new vscode.Diagnostic(new vscode.Range(0, 12, 0, 13), 'Expression expected.');
    problem.code = 1109;
    problem.source = 'acp-test';
    problems.set(file, [problem]);
    // `total` on line 2 is defined on line 1.
    const definitions = vscode.languages.registerDefinitionProvider(
      { pattern: '**/editor-ask.txt' },
      {
        provideDefinition: (doc) => new vscode.Location(doc.uri, new vscode.Range(0, 4, 0, 9)),
      },
    );
    const { api, chat } = await newChatWithTestAgent();
    try {
      await chat.composer.send('ask the editor');
      await waitFor(chat, 'the answer', () => chat.thread.turn === 'idle' && transcript(chat).includes('asked'));
      const text = transcript(chat);
      assert.match(
        text,
        /\[mcp problems: 1 problem in editor-ask\.txt \(1 error\):\neditor-ask\.txt:1:13: error 1109: Expression expected\. \(acp-test\)\]/,
      );
      assert.match(text, /\[mcp definition: editor-ask\.txt:1:5\]/);
      assert.match(
        text,
        /\[mcp problems refused: "\/etc\/passwd" cannot be read: it is outside the workspace folders\.\]/,
      );
      const listed = chat.thread.entries.at(-1);
      assert.ok(listed?.kind === 'editorCalls', transcript(chat).slice(-500));
      assert.deepEqual(
        listed.calls.map((c) => c.about),
        [
          'problems in editor-ask.txt: 1 (1 error)',
          'definition at editor-ask.txt:2:1: editor-ask.txt:1:5',
          'problems: not answered',
        ],
      );
    } finally {
      definitions.dispose();
      problems.dispose();
      await api.chats.close(chat.id);
      await vscode.workspace.fs.delete(file);
    }
  });
});
