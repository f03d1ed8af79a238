/**
 * A real agent that takes more folders (`additionalDirectories`), in a window
 * of two folders (test/real-agents/run.mjs makes it): the session is given the
 * second folder too, and the agent reads a file there without asking, which
 * it would otherwise need the user's leave for (Claude Code asks before
 * reading outside its working folders).
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { lastReply, transcript } from '../shared/chatWaits';
import { fakeLog, realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

describe('a real agent given two folders', function () {
  const config = realAgentConfig();

  it('reads a file of the second folder, without a permission prompt', async () => {
    const read = config.scenario.readSecond;
    assert.ok(read, 'the scenario has a read in the second folder');
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 2, 'a window of two folders');
    // The session works in the first folder: its file is the active editor's.
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folders[0]!.uri, 'README.md'));
    const { api, chat } = await connectedRealChat(config);
    try {
      const asked: string[] = [];
      const watch = chat.onDidChange(() => {
        for (const p of chatStatus(chat).permissions) {
          if (asked.includes(p.requestId)) continue;
          asked.push(p.requestId);
          chat.permissions.answer(p.requestId, 'reject');
        }
      });
      await chat.composer.send(read!.marker);
      watch.dispose();
      assert.deepEqual(asked, [], 'no permission was asked');
      assert.equal(lastReply(chat), read!.doneText, transcript(chat));
      const results = (await fakeLog(config)).flatMap((r) => r.toolResults ?? []);
      assert.ok(
        results.some((r) => !r.isError && r.text.includes(read!.content.trim())),
        `the model got the file's text: ${JSON.stringify(results).slice(0, 500)}`,
      );
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
