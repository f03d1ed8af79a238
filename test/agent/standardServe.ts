// The scripted agent served over ACP's standard remote transport by the SDK's own server (WebSocket and Streamable
// HTTP at /acp, on loopback): an agent "served elsewhere", for the unit tests in-process and for both hosts as a
// process (standardServer.ts).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeHttpHandler, createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';
import { createAgent } from './agent';
import type { Scenario } from './scenario';

export interface ServedScenario {
  /** `ws://127.0.0.1:PORT/acp` */
  readonly url: string;
  /** `http://127.0.0.1:PORT/acp`: the same agent over Streamable HTTP. */
  readonly httpUrl: string;
  /** Ends every connection and stops listening. */
  close(): Promise<void>;
}

/** Serves `scenario` (a scripted agent of its own for each connection) on a free loopback port. */
export async function serveScenario(scenario: Scenario): Promise<ServedScenario> {
  const acp = new AcpServer({ createAgent: () => createAgent(scenario) });
  const wss = new WebSocketServer({ noServer: true });
  const handle = createNodeHttpHandler(acp);
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/acp') return void res.writeHead(404).end();
    // A browser's worker (VS Code for the Web) is another origin: what a server for browsers answers it.
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
    res.setHeader('Access-Control-Expose-Headers', 'Acp-Connection-Id, Acp-Session-Id');
    if (req.method !== 'OPTIONS') return handle(req, res);
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Acp-Connection-Id, Acp-Session-Id');
    res.writeHead(204).end();
  });
  const upgrade = createNodeWebSocketUpgradeHandler(acp, wss);
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/acp') return void socket.destroy();
    upgrade(req, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/acp`,
    httpUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/acp`,
    close: async () => {
      await acp.close();
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
