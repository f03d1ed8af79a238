// The scripted agent served over ACP's standard remote transport, by the SDK's own server (WebSocket at /acp, on
// loopback): an agent "served elsewhere" for the tests of both hosts.
// Usage: node dist/test/standardServer.js <scenario.json | inline JSON>; prints "serving ws://127.0.0.1:PORT/acp".
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';
import { createAgent } from './agent';
import { loadScenario } from './scenario';

const source = process.argv[2];
if (!source) {
  process.stderr.write('usage: standardServer.js <scenario.json | inline JSON>\n');
  process.exit(2);
}
const scenario = loadScenario(source);
const acp = new AcpServer({ createAgent: () => createAgent(scenario) });
const wss = new WebSocketServer({ noServer: true });
const server = http.createServer((_req, res) => res.writeHead(404).end());
const upgrade = createNodeWebSocketUpgradeHandler(acp, wss);
server.on('upgrade', (req, socket, head) => {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/acp') return void socket.destroy();
  upgrade(req, socket, head);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`serving ws://127.0.0.1:${(server.address() as AddressInfo).port}/acp\n`);
});
process.on('SIGTERM', () => {
  void acp.close().finally(() => process.exit(0));
});
