/**
 * Node host: an agent served elsewhere over ACP's standard remote transport,
 * configured by its URL in vscode-acp.agents. Served here by the SDK's own
 * server (WebSocket on loopback) in front of the scripted agent: the picker
 * offers it as served at its URL (never the query), a chat with it has a
 * whole turn, and it is offered no file access or terminals.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as vscode from 'vscode';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';
import { createAgent } from '../../agent/agent';
import { loadScenario } from '../../agent/scenario';
import * as assert from '../shared/assert';
import { acpApi, lastReply, transcript } from '../shared/chatWaits';

suite('an agent served over the standard remote transport (Node host)', function () {
  this.timeout(30_000);
  let server: http.Server;
  let acp: AcpServer;
  let url: string;

  suiteSetup(async () => {
    const scenario = {
      turns: [
        { match: 'which capabilities', steps: [{ reportCapabilities: true }] },
        { match: '', steps: [{ text: 'Served from elsewhere.' }] },
      ],
    };
    acp = new AcpServer({ createAgent: () => createAgent(loadScenario(JSON.stringify(scenario))) });
    const wss = new WebSocketServer({ noServer: true });
    server = http.createServer((_req, res) => res.writeHead(404).end());
    server.on('upgrade', createNodeWebSocketUpgradeHandler(acp, wss));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/acp?token=not-shown`;
    await vscode.workspace
      .getConfiguration('vscode-acp')
      .update('agents', { remote: { name: 'Remote Agent', url } }, vscode.ConfigurationTarget.Global);
    await (await acpApi()).chat.refreshAgents();
  });

  suiteTeardown(async () => {
    await acp.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  test('offered as served at its URL; a whole turn; no files or terminals offered to it', async () => {
    const api = await acpApi();
    const agent = api.chat.status.agents.find((a) => a.id === 'remote');
    assert.ok(agent?.available, JSON.stringify(api.chat.status.agents));
    assert.match(agent!.detail ?? '', /^Served at ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const chat = api.chats.newChat();
    chat.selectAgent('remote');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      await chat.send('Say hello');
      assert.equal(lastReply(chat), 'Served from elsewhere.');
      await chat.send('which capabilities');
      assert.match(lastReply(chat), /"fs":\{"readTextFile":false,"writeTextFile":false\},"terminal":false/);
      assert.equal(chat.session?.cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'by default the folder here');
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
