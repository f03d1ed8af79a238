/**
 * Node host: the agent reads and writes workspace files through the
 * extension, inside the workspace only, and never over unsaved edits.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { lastReply, type Chat } from '../shared/chatWaits';
import { chatWithTestAgent } from '../shared/host';

describe('agent file requests (Node host)', function () {
  this.timeout(30_000);
  let chat: Chat;
  let root: string;
  let outside: string;

  before(async () => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    outside = fs.mkdtempSync(path.join(path.dirname(root), 'outside-'));
    fs.writeFileSync(path.join(root, 'notes.txt'), 'one\ntwo\nthree\n');
    fs.writeFileSync(path.join(path.dirname(root), 'outside-canary.txt'), 'SECRET outside the workspace');
    fs.symlinkSync(outside, path.join(root, 'link-out'));
    chat = await chatWithTestAgent();
    await vscode.commands.executeCommand('vscode-acp.newChat');
  });

  it('reads a file inside the workspace, honouring line and limit', async () => {
    await chat.composer.send('read notes');
    assert.equal(lastReply(chat), '[read: two\n]');
  });

  it('reads a file that does not exist yet, in a folder that does, as empty (as Zed does: Gemini CLI creates files so); a missing folder is an error', async () => {
    await chat.composer.send('read a new file');
    assert.equal(lastReply(chat), '[read: ]');
    assert.ok(!fs.existsSync(path.join(root, 'not-yet.txt')), 'reading creates nothing');
    await chat.composer.send('read in a missing folder');
    assert.match(lastReply(chat), /^\[error: .*does not exist/);
  });

  it('creates a file inside the workspace', async () => {
    await chat.composer.send('write new file');
    assert.equal(lastReply(chat), '[write ok]');
    assert.equal(fs.readFileSync(path.join(root, 'created.txt'), 'utf8'), 'from the agent\n');
  });

  it('refuses paths outside the workspace, through .. or a symlink, and leaks nothing', async () => {
    for (const prompt of ['read traversal', 'read passwd', 'write through link']) {
      await chat.composer.send(prompt);
      const reply = lastReply(chat);
      assert.match(reply, /^\[error: /, `${prompt}: ${reply}`);
      assert.ok(!reply.includes('SECRET') && !reply.includes('root:'), `${prompt} leaked: ${reply}`);
    }
    assert.ok(!fs.existsSync(path.join(outside, 'escape.txt')), 'nothing written outside');
  });

  it('a file with unsaved changes: reads get the editor text, writes are refused', async () => {
    const file = path.join(root, 'dirty.txt');
    fs.writeFileSync(file, 'on disk\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved '));
    assert.ok(doc.isDirty);
    await chat.composer.send('write dirty');
    assert.match(lastReply(chat), /unsaved changes/);
    assert.equal(fs.readFileSync(file, 'utf8'), 'on disk\n', 'the disk file is untouched');
    await chat.composer.send('read dirty');
    assert.equal(lastReply(chat), '[read: unsaved on disk\n]');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('a file outside the workspace with unsaved changes in an editor: the agent gets neither its text nor the fact', async () => {
    const doc = await vscode.workspace.openTextDocument('/etc/passwd');
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'UNSAVED-OUTSIDE '));
    assert.ok(doc.isDirty);
    try {
      await chat.composer.send('read passwd');
      const reply = lastReply(chat);
      assert.match(reply, /^\[error: .*not inside a workspace folder/, reply);
      assert.ok(!reply.includes('UNSAVED-OUTSIDE') && !reply.includes('root:'), `leaked: ${reply}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  });

  it('a write shows in an open editor', async () => {
    const file = path.join(root, 'open.txt');
    fs.writeFileSync(file, 'old text');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await chat.composer.send('write open');
    assert.equal(lastReply(chat), '[write ok]');
    for (let i = 0; i < 50 && doc.getText() !== 'new text from the agent'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(doc.getText(), 'new text from the agent');
  });
});
