/**
 * Both hosts: files attached to a prompt reach the agent (the host's test
 * agent, which accepts embedded context and images) as `resource` and
 * `image` blocks, in order after the text, with the editor's unsaved text;
 * the sent prompt shows them as chips, and the composer is empty again.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { acpApi, waitFor } from './chatWaits';
import { chatWithTestAgent, hostSetup } from './host';

/** A 1x1 PNG. */
export const PIXEL_PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

/** The blocks the test agent says it received (its `reportPrompt` step). */
export function reportedBlocks(reply: string): unknown[] {
  const json = /^\[prompt: (.*)\]$/s.exec(reply)?.[1];
  assert.ok(json, `a prompt report, not: ${reply.slice(0, 300)}`);
  return JSON.parse(json!) as unknown[];
}

suite('attachments', function () {
  this.timeout(60_000);

  test('a text file (its unsaved text) and an image go embedded, after the text; the prompt shows them as chips', async () => {
    await chatWithTestAgent();
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent(hostSetup.agentId);
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
    assert.deepEqual(chat.status.attachments.map((a) => `${a.label} ${a.icon}`), ['attach-notes.md file', 'attach-pixel.png image']);
    await waitFor(chat, 'both read', () => chat.status.attachments.every((a) => a.state === 'ready'));
    await chat.send('report prompt');
    const last = chat.thread.entries.at(-1);
    const reply = last?.kind === 'assistant' ? last.text : '';
    assert.deepEqual(reportedBlocks(reply), [
      { type: 'text', text: 'report prompt' },
      { type: 'resource', uri: notes.toString(), mimeType: 'text/plain', text: '# Notes\nunsaved\n' },
      { type: 'image', mimeType: 'image/png', bytes: PIXEL_PNG.length, uri: image.toString() },
    ]);
    const user = chat.thread.entries.find((e) => e.kind === 'user');
    assert.deepEqual(user?.kind === 'user' ? user.attachments : undefined, [{ label: 'attach-notes.md', icon: 'file' }, { label: 'attach-pixel.png', icon: 'image' }]);
    assert.deepEqual(chat.status.attachments, [], 'the composer has no attachments left');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await api.chats.close(chat.id);
  });
});
