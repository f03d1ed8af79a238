/**
 * An untrusted folder (Restricted Mode) whose own settings and
 * `.vscode/mcp.json` name MCP servers: only the user's are sent, and the
 * chat says the folder's `.vscode/mcp.json` was not used.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi } from '../shared/chatWaits';
import { mcpNames, notices, useTestAgent } from './mcpChat';

suite('MCP servers in Restricted Mode', function () {
  this.timeout(60_000);

  suiteSetup(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder is not trusted');
    await useTestAgent();
  });

  test('the chat says what Restricted Mode turns off, until the folder is trusted', async () => {
    const api = await acpApi();
    assert.match(
      api.chat.status.restricted ?? '',
      /^Restricted Mode: agents' file access, terminals and attachments are off\.$/,
    );
  });

  // (VS Code hides a restricted setting's workspace value in Restricted Mode, so only the file can be named.)
  test("only the user's servers are sent; .vscode/mcp.json is said to be unused", async () => {
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('test');
    assert.deepEqual(await mcpNames(chat), ['user-srv']);
    const text = notices(chat);
    assert.match(text, /\[MCP_RESTRICTED\] \.vscode\/mcp\.json is not used in Restricted Mode/);
    assert.ok(!text.includes('ws-srv') && !text.includes('project-srv'), 'their names are not repeated');
    await api.chats.close(chat.id);
  });
});
