/**
 * A multi-root workspace (folders `alpha` and `beta`, made by test/run.mjs):
 * the workspace file's settings, each folder's own settings and `alpha`'s
 * `.vscode/mcp.json`. A session takes the sources of its own folder only;
 * a folder removed from the workspace gives nothing.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi } from '../shared/chatWaits';
import { focusFolder, folder, mcpNames, notices, useTestAgent } from './mcpChat';

describe('MCP servers in a multi-root workspace', function () {
  this.timeout(60_000);

  before(async () => {
    assert.ok(vscode.workspace.workspaceFile, 'a workspace file is open');
    assert.equal(vscode.workspace.workspaceFolders?.length, 2);
    assert.ok(vscode.workspace.isTrusted);
    await useTestAgent();
  });

  it("each session gets the workspace's servers and its own folder's, the folder's replacing the workspace's by name", async () => {
    const api = await acpApi();
    await focusFolder(folder('alpha'));
    const a = api.chats.newChat();
    a.selectAgent('test');
    // Last, the extension's own editor server (a trusted local folder, an agent that takes HTTP servers).
    assert.deepEqual(await mcpNames(a), [
      'user-srv',
      'ws-srv',
      'alpha-settings',
      'shared',
      'alpha-project',
      'vscode-editor',
    ]);
    // (Other notices, such as the checkpoints' first look on a loaded machine, are not about MCP servers.)
    const mcpNotices = notices(a)
      .split('\n')
      .filter((line) => line.includes('[MCP_'));
    assert.deepEqual(mcpNotices, [], 'no MCP server left out');
    await api.chats.close(a.id);

    await focusFolder(folder('beta'));
    const b = api.chats.newChat();
    b.selectAgent('test');
    assert.deepEqual(await mcpNames(b), ['user-srv', 'ws-srv', 'shared', 'beta-settings', 'vscode-editor']);
    await api.chats.close(b.id);
  });

  it("a session on a process whose folder left the workspace gets only the user's and the workspace's servers", async () => {
    const api = await acpApi();
    await focusFolder(folder('beta'));
    const first = api.chats.newChat();
    first.selectAgent('test');
    assert.ok((await mcpNames(first)).includes('beta-settings'));
    const beta = folder('beta');
    const removed = new Promise<void>((resolve) => {
      const listener = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        listener.dispose();
        resolve();
      });
    });
    assert.ok(vscode.workspace.updateWorkspaceFolders(1, 1), 'beta removed');
    await removed;
    // A second chat shares the first one's agent process, started in beta: its folder URI is no workspace folder now.
    const second = api.chats.newChat();
    second.selectAgent('test');
    try {
      assert.deepEqual(await mcpNames(second), ['user-srv', 'ws-srv', 'shared', 'vscode-editor']);
    } finally {
      await api.chats.close(second.id);
      await api.chats.close(first.id);
      vscode.workspace.updateWorkspaceFolders(1, 0, { uri: beta, name: 'beta' });
    }
  });
});
