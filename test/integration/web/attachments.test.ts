/**
 * Web host: the agent runs next to the bridge and cannot open this
 * workspace's files, so a file goes embedded or not at all. To an agent that
 * takes no embedded context (the harness's second bridge) it is refused,
 * with the reason on its chip, and nothing the user typed is lost.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, waitFor } from '../shared/chatWaits';
import { BRIDGE_URL_FILE, harnessFile, PLAIN_BRIDGE_URL_FILE } from './harnessFiles';
import { chatStatus } from '../../../src/views/chatStatus';

describe('attachments on the web host', function () {
  this.timeout(60_000);

  it('a file to an agent that takes no embedded context is refused, never sent as a link it cannot open', async () => {
    const api = await acpApi();
    assert.ok(
      await vscode.commands.executeCommand<boolean>(
        'vscode-acp.setBridgeToken',
        await harnessFile(PLAIN_BRIDGE_URL_FILE),
      ),
    );
    const chat = api.chats.newChat();
    try {
      chat.selectAgent('bridge');
      const notes = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'web-notes.md');
      await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode('notes\n'));
      await vscode.commands.executeCommand('vscode-acp.attachFiles', [notes]);
      await waitFor(chat, 'read', () => chatStatus(chat).attachments[0]?.state === 'ready');
      await chat.composer.send('read my notes');
      assert.equal(chat.connection, 'connected');
      assert.equal(chat.thread.entries.filter((e) => e.kind === 'user').length, 0, 'nothing was sent');
      assert.deepEqual(
        chatStatus(chat).attachments.map((a) => [a.label, a.state, a.message]),
        [['web-notes.md', 'error', 'The agent does not accept embedded files, and it cannot open this one itself.']],
      );
      assert.equal(chatStatus(chat).returnedDraft?.text, 'read my notes');
      // Without the attachment, the prompt goes.
      chat.composer.attachments.remove(chatStatus(chat).attachments[0].id);
      await chat.composer.send('read my notes');
      const last = chat.thread.entries.at(-1);
      assert.equal(last?.kind === 'assistant' ? last.text : '', '[prompt: [{"type":"text","text":"read my notes"}]]');
    } finally {
      await api.chats.close(chat.id);
      assert.ok(
        await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', await harnessFile(BRIDGE_URL_FILE)),
      );
    }
  });
});
