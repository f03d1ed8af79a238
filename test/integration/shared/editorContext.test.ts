/**
 * Both hosts: context from where the user works. The Quick Fix "Fix with the agent" on a problem puts the problem, its
 * place and its file into the shown chat's composer (not sent); `@problems` gives the workspace's problems and
 * `@changes` the working tree's diff (here without Git: it says so), each reaching the agent as text.
 */
import * as vscode from 'vscode';
import { Mentions } from '../../../src/attachments/mentions';
import { chatStatus } from '../../../src/views/chatStatus';
import * as assert from './assert';
import { reportedBlocks } from './attachmentFixtures';
import { lastReply, waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';

describe('context from the editor', function () {
  this.timeout(60_000);
  let problems: vscode.DiagnosticCollection;
  let file: vscode.Uri;

  beforeEach(async () => {
    file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'fix-me.txt');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('let total = ;\nok\n'));
    problems = vscode.languages.createDiagnosticCollection('acp-context-test');
    const problem = new vscode.Diagnostic(
      new vscode.Range(0, 12, 0, 13),
      'Expression\n   expected.',
      vscode.DiagnosticSeverity.Error,
    );
    problem.code = 1109;
    problem.source = 'acp-test';
    const hint = new vscode.Diagnostic(new vscode.Range(1, 0, 1, 2), 'Unused.', vscode.DiagnosticSeverity.Hint);
    problems.set(file, [problem, hint]);
    // Outside the workspace's folders: never named.
    problems.set(vscode.Uri.parse('file:///elsewhere/secret.ts'), [
      new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'outside', vscode.DiagnosticSeverity.Error),
    ]);
  });
  afterEach(async () => {
    problems.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(file);
  });

  it('Fix with the agent: a Quick Fix on the problem puts it, its place and its file into the composer, unsent', async () => {
    const { api, chat } = await newChatWithTestAgent();
    try {
      await vscode.window.showTextDocument(file);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        file,
        new vscode.Range(0, 12, 0, 12),
        vscode.CodeActionKind.QuickFix.value,
      );
      const fix = actions.find((a) => a.title === 'Fix with the agent');
      assert.ok(fix?.command, JSON.stringify(actions.map((a) => a.title)));
      assert.ok(fix.kind?.value === vscode.CodeActionKind.QuickFix.value);
      await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
      const status = chatStatus(chat);
      assert.equal(
        status.returnedDraft?.text,
        'Fix this problem in fix-me.txt, line 1, column 13: error 1109: Expression expected. (acp-test)',
      );
      assert.deepEqual(
        status.attachments.map((a) => `${a.label} ${a.icon}`),
        ['fix-me.txt file'],
      );
      assert.equal(chat.thread.entries.length, 0, 'nothing was sent');
    } finally {
      await api.chats.close(chat.id);
    }
  });

  it("@problems and @changes: the workspace's problems (errors first, none outside it) and the changes, as text", async () => {
    const { api, chat } = await newChatWithTestAgent();
    const mentions = new Mentions();
    try {
      const offered = await mentions.search('problems');
      const workspace = offered.find((m) => m.label === 'Problems in the workspace');
      assert.ok(workspace, JSON.stringify(offered));
      assert.match(workspace.detail ?? '', /^@problems: \d+ problems$/);
      assert.ok(mentions.attach(chat.composer.attachments, workspace.id));
      const changes = (await mentions.search('chang')).find((m) => m.label === 'Changes against HEAD');
      assert.ok(changes);
      assert.equal(changes.icon, 'changes');
      assert.ok(mentions.attach(chat.composer.attachments, changes.id));
      await waitFor(chat, 'both read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
      await chat.composer.send('report prompt');
      const [, sentProblems, sentChanges] = reportedBlocks(lastReply(chat)) as { uri?: string; text?: string }[];
      const folder = vscode.workspace.workspaceFolders![0].uri.toString();
      assert.equal(sentProblems?.uri, `${folder}#problems`);
      assert.match(
        sentProblems?.text ?? '',
        /^\d+ problems in the workspace \(\d+ errors?\):\n(.*\n)*fix-me\.txt:1:13: error 1109: Expression expected\. \(acp-test\)/,
      );
      assert.match(sentProblems?.text ?? '', /fix-me\.txt:2:1: hint: Unused\./);
      assert.ok(!/secret|outside/.test(sentProblems?.text ?? ''), 'nothing outside the folders');
      assert.equal(sentChanges?.uri, `${folder}#changes`);
      assert.match(sentChanges?.text ?? '', /^(Git is not available here|No changes against HEAD|\w[\w ,]*: )/);
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
