/**
 * An untrusted folder (Restricted Mode) whose own settings and
 * `.vscode/mcp.json` name agents, agent paths, a default agent and MCP
 * servers, each different from the user's: only the user's count; a local
 * agent starts in the folder only when the user says so, and then only the
 * user's MCP servers are sent, the chat saying the folder's `.vscode/mcp.json`
 * was not used.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, waitFor } from '../shared/chatWaits';
import { answeringWarning } from '../shared/dialogs';
import { processes } from '../node/processes';
import { mcpNames, notices, useTestAgent } from './mcpChat';
import { chatStatus } from '../../../src/views/chatStatus';

/** The test agent's processes: its script's path (this checkout's) is on their command line. */
const TEST_AGENT = ((globalThis as { acpTestAgent?: { args: string[] } }).acpTestAgent?.args[0] ?? '').replace(
  /[.*+?^${}()|[\]\\]/g,
  '\\$&',
);
const connectOnce = (buttons: string[]) => buttons.find((b) => b === 'Connect Once Anyway');

describe('Restricted Mode', function () {
  this.timeout(60_000);

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the folder is not trusted');
    assert.ok(TEST_AGENT !== '', "the test agent's script is known");
    await useTestAgent();
  });

  it('the chat says what Restricted Mode turns off, until the folder is trusted', async () => {
    const api = await acpApi();
    assert.match(
      api.chat.status.restricted ?? '',
      /^Restricted Mode: agents' file access, terminals and attachments are off\.$/,
    );
  });

  it("New Chat in a Worktree makes none, and says why (Git would read the folder's configuration)", async () => {
    const api = await acpApi();
    const before = api.chats.all.length;
    const warned = await answeringWarning(
      () => undefined,
      () => vscode.commands.executeCommand('vscode-acp.newChatInWorktree'),
    );
    assert.match(warned.message, /^Worktrees are made only in a trusted workspace: this folder is in Restricted Mode/);
    assert.equal(api.chats.all.length, before, 'no chat was opened');
  });

  // (VS Code hides a restricted setting's workspace value in Restricted Mode; the extension must not undo that.)
  it("the folder's own agents, agent paths and default agent are not used", async () => {
    const api = await acpApi();
    await api.chat.refreshAgents();
    const agents = api.chat.status.agents;
    assert.ok(!agents.some((a) => a.id === 'folder-agent'), "the folder's agent is not offered");
    assert.equal(agents.find((a) => a.id === 'test')?.available, true, "the user's test agent, at the user's path");
    const chat = api.chats.newChat();
    assert.ok(chat.agentId !== 'folder-agent', "the folder's default agent is not selected");
    await api.chats.close(chat.id);
  });

  it('a local agent starts in the folder only when the user says so: Cancel and Trust Folder start nothing', async () => {
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('test');
    const asked = await answeringWarning(
      () => undefined,
      () => chat.connect(),
    );
    assert.match(
      asked.message,
      /^Test Agent would start in acp-restricted-\w+, which is in Restricted Mode, and may run the folder's own configuration \(its hooks, MCP servers and settings\)\.$/,
    );
    assert.deepEqual(asked.buttons, ['Trust Folder', 'Connect Once Anyway']);
    assert.ok(chatStatus(chat).connection !== 'connected', 'not connected');
    assert.equal(processes(TEST_AGENT), '', 'cancelled: no agent process');
    // Trust Folder opens VS Code's own Workspace Trust editor, and starts nothing until the folder is trusted.
    await answeringWarning(
      (buttons) => buttons.find((b) => b === 'Trust Folder'),
      () => chat.connect(),
    );
    const trustEditor = () => vscode.window.tabGroups.activeTabGroup.activeTab?.label === 'Workspace Trust';
    for (let i = 0; i < 50 && !trustEditor(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Workspace Trust');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    assert.equal(processes(TEST_AGENT), '', 'Trust Folder: no agent process');
    assert.equal(vscode.workspace.isTrusted, false);
    // Connect Once Anyway: this start only.
    await answeringWarning(connectOnce, () => chat.connect());
    await waitFor(chat, 'connected', () => chatStatus(chat).connection === 'connected');
    assert.ok(processes(TEST_AGENT) !== '', 'started once the user said so');
    await api.chats.close(chat.id);
  });

  it("only the user's MCP servers are sent; .vscode/mcp.json is said to be unused", async () => {
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('test');
    let names: string[] = [];
    await answeringWarning(connectOnce, async () => {
      names = await mcpNames(chat);
    });
    assert.deepEqual(names, ['user-srv']);
    const text = notices(chat);
    assert.match(text, /\[MCP_RESTRICTED\] \.vscode\/mcp\.json is not used in Restricted Mode/);
    assert.ok(!text.includes('ws-srv') && !text.includes('project-srv'), 'their names are not repeated');
    await api.chats.close(chat.id);
  });
});
