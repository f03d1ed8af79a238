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

  it("answers every other tool from VS Code's providers and editors, and refuses a line past the end", async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const file = vscode.Uri.joinPath(folder, 'editor-ask.txt');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('let total = 1;\ntotal\n'));
    const selector = { pattern: '**/editor-ask.txt' };
    const at = (line: number, from: number, to: number) =>
      new vscode.Location(file, new vscode.Range(line, from, line, to));
    const range = new vscode.Range(0, 4, 0, 9);
    const providers = [
      vscode.languages.registerDocumentSymbolProvider(selector, {
        provideDocumentSymbols: () => [
          new vscode.DocumentSymbol('total', 'a number', vscode.SymbolKind.Variable, range, range),
        ],
      }),
      vscode.languages.registerWorkspaceSymbolProvider({
        provideWorkspaceSymbols: (query) =>
          query === 'total' ? [new vscode.SymbolInformation('total', vscode.SymbolKind.Variable, '', at(0, 4, 9))] : [],
      }),
      vscode.languages.registerReferenceProvider(selector, { provideReferences: () => [at(0, 4, 9), at(1, 0, 5)] }),
      vscode.languages.registerImplementationProvider(selector, { provideImplementation: () => [at(0, 4, 9)] }),
      vscode.languages.registerHoverProvider(selector, {
        provideHover: () => new vscode.Hover(new vscode.MarkdownString('`total`: a number')),
      }),
    ];
    // The file open in an editor, `total` selected on its second line.
    const editor = await vscode.window.showTextDocument(file, { preview: false });
    editor.selection = new vscode.Selection(1, 0, 1, 5);
    const { api, chat } = await newChatWithTestAgent();
    try {
      await chat.composer.send('ask the editor everything');
      await waitFor(
        chat,
        'the answer',
        () => chat.thread.turn === 'idle' && transcript(chat).includes('asked everything'),
      );
      const text = transcript(chat);
      assert.match(text, /\[mcp selection: Selected at editor-ask\.txt:2:1-2:6:\ntotal\]/);
      assert.match(text, /\[mcp open_editors: editor-ask\.txt \(active\): lines 1-\d+ in view\]/);
      // The outline, then the workspace search.
      assert.match(text, /(\[mcp symbols: total \(variable\): editor-ask\.txt:1:5\]){2}\[mcp references/);
      assert.match(text, /\[mcp references: editor-ask\.txt:1:5\neditor-ask\.txt:2:1\]/);
      assert.match(text, /\[mcp implementations: editor-ask\.txt:1:5\]/);
      assert.match(text, /\[mcp hover: `total`: a number\]/);
      // No Git here (the web has no Git extension; the Node host's folder is no repository).
      assert.match(text, /\[mcp changes: (Git is not available here[^\]]*|No changes against HEAD\.)\]/);
      assert.match(text, /\[mcp definition refused: Line 99 is past the end of editor-ask\.txt \(3 lines\)\.\]/);
      const listed = chat.thread.entries.at(-1);
      assert.ok(listed?.kind === 'editorCalls', text.slice(-500));
      assert.deepEqual(
        listed.calls.map((c) => c.about),
        [
          'the selection in editor-ask.txt:2:1',
          'open editors: 1',
          'outline of editor-ask.txt: 1 symbol',
          'symbols matching "total": 1',
          'references at editor-ask.txt:1:5: 2',
          'implementations at editor-ask.txt:1:5: 1',
          'hover at editor-ask.txt:1:5',
          'changes: no Git',
          'definition: not answered',
        ],
      );
    } finally {
      for (const p of providers) p.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await api.chats.close(chat.id);
      await vscode.workspace.fs.delete(file);
    }
  });
});
