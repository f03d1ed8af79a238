/**
 * The ACP bridge: serves an agent of this machine over ACP's standard remote
 * transport (WebSocket at /acp) with the SDK's server, one agent process per
 * connection, to whoever passes its checks: an allowed origin, the token it
 * printed, an agent it was started with, a free connection slot.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { WebSocketServer, type WebSocket } from 'ws';
import { BRIDGE_AGENT_PARAM, BRIDGE_PATH, BRIDGE_TOKEN_PARAM, BridgeClose } from '../../src/shared/bridgeProtocol';
import { bridgedAgent } from './bridgedAgent';
import { MAX_MESSAGE_BYTES, type BridgeOptions } from './options';

const ALLOWED_ORIGINS = [
  /^https:\/\/(insiders\.)?vscode\.dev$/,
  /^https:\/\/github\.dev$/,
  /^https:\/\/[a-z0-9-]+\.vscode-cdn\.net$/,
  /^http:\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/,
];

export interface RunningBridge {
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

export type BridgeLog = (line: string) => void;

export async function startBridge(options: BridgeOptions, log: BridgeLog): Promise<RunningBridge> {
  const token = randomBytes(32).toString('base64url');
  const tokenDigest = digest(token);
  const sockets = new Set<WebSocket>();
  const idleTimeoutMs = options.idleTimeoutSeconds * 1000;
  // Each connection's agent is given with its upgrade (bridgedAgent). What the server holds for one client, either
  // way, is bounded by maxBufferedBytes (above the largest frame, as the SDK asks); a client that reads nothing for
  // as long as the idle timeout is closed.
  const acp = new AcpServer({
    createAgent: () => {
      throw new Error('every connection names its agent');
    },
    maxBufferedBytes: MAX_MESSAGE_BYTES + 1024 * 1024,
    maxOutputStallMs: idleTimeoutMs,
  });
  // No compression (ws's default for a server, said here on purpose): on a loopback connection it
  // would only cost CPU on both ends for every message.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const server = http.createServer((_req, res) => {
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end('This is an ACP bridge for VS Code: connect with a WebSocket.\n');
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    const origin = req.headers.origin ?? '';
    const url = new URL(req.url ?? '/', 'http://bridge');
    // The standard transport's endpoint; "/" is where bridges before it listened (a URL saved then still works).
    if (url.pathname !== BRIDGE_PATH && url.pathname !== '/') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const agentId = url.searchParams.get(BRIDGE_AGENT_PARAM);
    const refuse = (why: string) => {
      log(`refused ${req.socket.remoteAddress} origin=${origin || '(none)'}: ${why}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
    };
    if (!origin || !originAllowed(origin, options.extraOrigins)) return refuse('origin not allowed');
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Protocol errors (an oversized frame, bad framing) close the socket; log them.
      ws.on('error', (error) => log(`connection error origin=${origin}: ${error.message}`));
      const given = url.searchParams.get(BRIDGE_TOKEN_PARAM) ?? '';
      const agent = agentId ? options.agents.find((a) => a.id === agentId) : options.agents[0];
      const closeWith = (code: number, reason: string) => {
        log(`refused origin=${origin}: ${reason}`);
        ws.close(code, reason);
      };
      if (!timingSafeEqual(digest(given), tokenDigest)) return closeWith(BridgeClose.badToken, 'invalid token');
      if (!agent) return closeWith(BridgeClose.unknownAgent, `no agent "${agentId}" here`);
      if (sockets.size >= options.maxConnections) {
        return closeWith(BridgeClose.tooManyConnections, 'too many connections');
      }
      sockets.add(ws);
      ws.once('close', () => sockets.delete(ws));
      log(`accepted origin=${origin} agent=${agent.id}`);
      acp
        .prepareWebSocketUpgrade({ agent: bridgedAgent(agent, { cwd: options.cwd, idleTimeoutMs }, ws, socket, log) })
        .accept(ws);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `ws://${host}:${port}${BRIDGE_PATH}?${BRIDGE_TOKEN_PARAM}=${token}`,
    token,
    close: async () => {
      for (const ws of sockets) ws.close(1001, 'bridge shutting down');
      await acp.close();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function originAllowed(origin: string, extra: readonly string[]): boolean {
  return extra.includes(origin) || ALLOWED_ORIGINS.some((re) => re.test(origin));
}
