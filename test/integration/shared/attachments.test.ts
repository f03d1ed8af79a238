/**
 * Both hosts: files attached to a prompt reach the agent (the host's test
 * agent, which accepts embedded context and images) as `resource` and
 * `image` blocks, in order after the text, with the editor's unsaved text;
 * the sent prompt shows them as chips, and the composer is empty again.
 */
import * as vscode from 'vscode';
import { Mentions } from '../../../src/attachments/mentions';
import * as assert from './assert';
import { lastReply, waitFor } from './chatWaits';
import { PIXEL_PNG, reportedBlocks } from './attachmentFixtures';
import { newChatWithTestAgent } from './host';
import { chatStatus } from '../../../src/views/chatStatus';

describe('attachments', function () {
  this.timeout(60_000);

  it('a text file (its unsaved text) and an image go embedded, after the text; the prompt shows them as chips', async () => {
    const { api, chat } = await newChatWithTestAgent();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const notes = vscode.Uri.joinPath(folder, 'attach-notes.md');
    const image = vscode.Uri.joinPath(folder, 'attach-pixel.png');
    await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode('# Notes\non disk\n'));
    await vscode.workspace.fs.writeFile(image, PIXEL_PNG);
    // Unsaved changes in an editor are what is sent.
    const doc = await vscode.workspace.openTextDocument(notes);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.replace(new vscode.Range(1, 0, 1, 7), 'unsaved'));

    await vscode.commands.executeCommand('vscode-acp.attachFiles', [notes, image]);
    assert.deepEqual(
      chatStatus(chat).attachments.map((a) => `${a.label} ${a.icon}`),
      ['attach-notes.md file', 'attach-pixel.png image'],
    );
    await waitFor(chat, 'both read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
    await chat.composer.send('report prompt');
    const reply = lastReply(chat);
    assert.deepEqual(reportedBlocks(reply), [
      { type: 'text', text: 'report prompt' },
      { type: 'resource', uri: notes.toString(), mimeType: 'text/plain', text: '# Notes\nunsaved\n' },
      { type: 'image', mimeType: 'image/png', bytes: PIXEL_PNG.length, uri: image.toString() },
    ]);
    const user = chat.thread.entries.find((e) => e.kind === 'user');
    assert.deepEqual(user?.kind === 'user' ? user.attachments : undefined, [
      { label: 'attach-notes.md', icon: 'file' },
      { label: 'attach-pixel.png', icon: 'image' },
    ]);
    assert.deepEqual(chatStatus(chat).attachments, [], 'the composer has no attachments left');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await api.chats.close(chat.id);
  });

  it("@ mentions: a workspace file by a fuzzy query, a folder as its listing, the current file's problems as text", async () => {
    const { api, chat } = await newChatWithTestAgent();
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(folder, 'mention-dir');
    const deep = vscode.Uri.joinPath(dir, 'deeply-nested-mention.txt');
    await vscode.workspace.fs.writeFile(deep, new TextEncoder().encode('found by a fuzzy query\n'));
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'other.txt'), new TextEncoder().encode('x'));
    const broken = vscode.Uri.joinPath(folder, 'broken.ts');
    await vscode.workspace.fs.writeFile(broken, new TextEncoder().encode('let x = ;\n'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(broken));
    const problems = vscode.languages.createDiagnosticCollection('acp-test');
    problems.set(broken, [
      new vscode.Diagnostic(new vscode.Range(0, 8, 0, 9), 'Expression expected.', vscode.DiagnosticSeverity.Error),
    ]);
    const mentions = new Mentions();
    try {
      const byFuzzy = await mentions.search('dpnstmen');
      assert.equal(byFuzzy[0]?.label, 'deeply-nested-mention.txt', JSON.stringify(byFuzzy));
      assert.ok(mentions.attach(chat.composer.attachments, byFuzzy[0].id));
      const folders = (await mentions.search('mention-dir')).filter((m) => m.icon === 'folder');
      assert.deepEqual(
        folders.map((m) => m.label),
        ['mention-dir/'],
      );
      mentions.attach(chat.composer.attachments, folders[0].id);
      const problem = (await mentions.search('probl')).find((m) => m.icon === 'problems');
      assert.equal(problem?.label, 'Problems in broken.ts');
      assert.equal(problem?.detail, '1 problem');
      mentions.attach(chat.composer.attachments, problem!.id);
      assert.equal(
        mentions.attach(chat.composer.attachments, byFuzzy[0].id),
        false,
        'an item of an earlier answer is no longer offered',
      );
      await waitFor(
        chat,
        'read',
        () =>
          chatStatus(chat).attachments.length === 3 && chatStatus(chat).attachments.every((a) => a.state === 'ready'),
      );
      await chat.composer.send('report prompt');
      assert.deepEqual(reportedBlocks(lastReply(chat)), [
        { type: 'text', text: 'report prompt' },
        { type: 'resource', uri: deep.toString(), mimeType: 'text/plain', text: 'found by a fuzzy query\n' },
        {
          type: 'resource',
          uri: dir.toString(),
          mimeType: 'text/plain',
          text: 'The files in mention-dir/:\nmention-dir/deeply-nested-mention.txt\nmention-dir/other.txt',
        },
        {
          type: 'resource',
          uri: `${broken.toString()}#problems`,
          mimeType: 'text/plain',
          text: 'broken.ts:1:9: error: Expression expected.',
        },
      ]);
    } finally {
      problems.dispose();
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await api.chats.close(chat.id);
    }
  });
});
