// The scripted agent served over ACP's standard remote transport by the SDK's own server (WebSocket at /acp, on
// loopback): an agent "served elsewhere", for the unit tests in-process and for both hosts as a process
// (standardServer.ts).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';
import { createAgent } from './agent';
import type { Scenario } from './scenario';

export interface ServedScenario {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** Ends every connection and stops listening. */
  close(): Promise<void>;
}

/** Serves `scenario` (a scripted agent of its own for each connection) on a free loopback port. */
export async function serveScenario(scenario: Scenario): Promise<ServedScenario> {
  const acp = new AcpServer({ createAgent: () => createAgent(scenario) });
  const wss = new WebSocketServer({ noServer: true });
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const upgrade = createNodeWebSocketUpgradeHandler(acp, wss);
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/acp') return void socket.destroy();
    upgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/acp`,
    close: async () => {
      await acp.close();
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
