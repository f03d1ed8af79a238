/**
 * Node host only: an agent that never answers `initialize` must not leave the
 * chat stuck: Disconnect (the header's Cancel) ends it, process included.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { activeChat } from '../shared/chatWaits';
import { processesGone } from './processes';

describe('an agent that hangs', function () {
  this.timeout(30_000);

  it('connecting can be cancelled, and the agent process is ended', async () => {
    const root = path.resolve(__dirname, '../../..');
    const scenario = JSON.stringify({ onInitialize: [{ hang: true }] });
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        hang: {
          name: 'Hanging Agent',
          command: process.execPath,
          args: [path.join(root, 'dist/test/agent.js'), scenario],
        },
      },
      vscode.ConfigurationTarget.Global,
    );
    const chat = await activeChat();
    await chat.refreshAgents();
    chat.selectAgent('hang');
    const connected = vscode.commands.executeCommand<boolean>('vscode-acp.connect');
    for (let i = 0; i < 50 && chat.status.connection !== 'connecting'; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(chat.status.connection, 'connecting');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(chat.status.connection, 'connecting', 'still waiting for initialize');
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    assert.equal(await connected, false);
    assert.equal(chat.status.connection, 'disconnected');
    // The spawned agent is gone: no process runs this scenario any more.
    assert.equal(await processesGone('onInitialize', 5_000), '', 'the hanging agent process was ended');
  });
});
