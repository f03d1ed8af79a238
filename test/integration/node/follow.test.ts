/**
 * Node host: Follow the agent. Off by default; on, the current tool call's
 * location opens in a preview editor at its line; never a location outside
 * the workspace folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import type { Chat } from '../shared/chatWaits';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

const walker = scenarioAgent('Walker', {
  turns: [
    {
      match: 'walk',
      steps: [
        {
          toolCall: {
            toolCallId: 'r1',
            title: 'Read follow/a.ts',
            kind: 'read',
            status: 'in_progress',
            locations: [{ path: '${cwd}/follow/a.ts', line: 3 }],
          },
        },
        { toolCallUpdate: { toolCallId: 'r1', status: 'completed' }, delayMs: 400 },
        {
          toolCall: {
            toolCallId: 'r2',
            title: 'Read outside',
            kind: 'read',
            status: 'in_progress',
            locations: [{ path: '/etc/hostname', line: 1 }],
          },
          delayMs: 100,
        },
        { toolCallUpdate: { toolCallId: 'r2', status: 'completed' }, delayMs: 400 },
        { text: 'walked' },
      ],
    },
  ],
});

describe('Follow the agent (Node host)', function () {
  this.timeout(60_000);
  let chat: Chat;
  let root: string;

  before(async () => {
    root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    fs.mkdirSync(path.join(root, 'follow'), { recursive: true });
    fs.writeFileSync(path.join(root, 'follow', 'a.ts'), 'line 1\nline 2\nline 3\nline 4\n');
    chat = await chatWithAgents({ walker }, 'walker');
  });

  beforeEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('is off by default: a turn opens nothing', async () => {
    assert.equal((chat.status as { follow?: boolean }).follow, false);
    await chat.composer.send('walk');
    assert.equal(vscode.window.activeTextEditor, undefined);
  });

  it("on (its command), opens the tool call's file at its line in a preview editor, and nothing outside the workspace", async () => {
    await vscode.commands.executeCommand('vscode-acp.toggleFollow');
    assert.equal((chat.status as { follow?: boolean }).follow, true);
    await chat.composer.send('walk');
    await new Promise((resolve) => setTimeout(resolve, 600));
    const editor = vscode.window.activeTextEditor;
    assert.equal(
      editor?.document.uri.fsPath,
      path.join(root, 'follow', 'a.ts'),
      'the workspace file, not /etc/hostname',
    );
    assert.equal(editor?.selection.active.line, 2);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.equal(tab?.isPreview, true);
    await vscode.commands.executeCommand('vscode-acp.toggleFollow');
    assert.equal((chat.status as { follow?: boolean }).follow, false, 'and off again');
  });
});
