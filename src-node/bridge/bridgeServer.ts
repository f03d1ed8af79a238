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
import { bridgedAgent, type BridgeLog } from './bridgedAgent';

import { closeReason, closeSocket, cutUtf8 } from './closeReason';
import { MAX_MESSAGE_BYTES, type BridgeAgent, type BridgeOptions } from './options';

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

/** A request's head (its line and headers) may hold this much: Node's default, kept whatever NODE_OPTIONS says. */
const MAX_HEADER_BYTES = 16 * 1024;
/** A request's value quoted in a close reason or the log is cut to this many bytes. */
const MAX_QUOTED_BYTES = 64;

/** Starts the bridge for `options`; `log` gets a line for each connection accepted or refused, and each error. */
export async function startBridge(options: BridgeOptions, log: BridgeLog): Promise<RunningBridge> {
  const token = randomBytes(32).toString('base64url');
  const sockets = new Set<WebSocket>();
  const idleTimeoutMs = options.idleTimeoutSeconds * 1000;
  const acp = acpServer(idleTimeoutMs);
  // No compression (ws's default for a server, said here on purpose): on a loopback connection it
  // would only cost CPU on both ends for every message.
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const server = http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (_req, res) => {
    res
      .writeHead(426, { 'content-type': 'text/plain' })
      .end('This is an ACP bridge for VS Code: connect with a WebSocket.\n');
  });
  const admit = admission({ options, tokenDigest: digest(token), sockets, log }, (agent, ws, socket) =>
    acp
      .prepareWebSocketUpgrade({ agent: bridgedAgent(agent, { cwd: options.cwd, idleTimeoutMs }, ws, socket, log) })
      .accept(ws),
  );
  server.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
    try {
      upgrade(req, socket, options.extraOrigins, log, (url, origin) =>
        wss.handleUpgrade(req, socket, head, (ws) => admit(ws, socket, url, origin)),
      );
    } catch (error) {
      // Whatever a request holds costs at most its own connection, never the bridge and the others.
      log(`failed on a request: ${quoted(error instanceof Error ? error.message : String(error))}`);
      socket.destroy();
    }
  });

  const port = await listening(server, options.host, options.port);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `ws://${host}:${port}${BRIDGE_PATH}?${BRIDGE_TOKEN_PARAM}=${token}`,
    token,
    close: async () => {
      for (const ws of sockets) closeSocket(ws, 1001, 'bridge shutting down');
      await acp.close();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The SDK's server; each connection's agent is given with its upgrade (bridgedAgent). What it holds for one client,
 * either way, is bounded by maxBufferedBytes (above the largest frame, as the SDK asks); a client that reads nothing
 * for as long as the idle timeout is closed.
 */
function acpServer(idleTimeoutMs: number): AcpServer {
  return new AcpServer({
    createAgent: () => {
      throw new Error('every connection names its agent');
    },
    maxBufferedBytes: MAX_MESSAGE_BYTES + 1024 * 1024,
    maxOutputStallMs: idleTimeoutMs,
  });
}

/** Resolves with the port `server` listens on, once it does; rejects if it cannot (a port taken). */
async function listening(server: http.Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/**
 * The checks of an upgrade request before it becomes a WebSocket: its target must parse as a URL (`//[`, or a port
 * over 65535, do not), name the bridge's path, and come from an allowed origin; `accept` is called with the URL
 * and origin of a request that passes, the others are refused with an HTTP status.
 */
function upgrade(
  req: http.IncomingMessage,
  socket: Socket,
  extraOrigins: readonly string[],
  log: BridgeLog,
  accept: (url: URL, origin: string) => void,
): void {
  // Node takes its own error listener off the socket it hands to 'upgrade': without one, a client that resets the
  // connection while it is refused (a write fails) would end the bridge. Its close is all that matters.
  socket.on('error', () => undefined);
  const origin = req.headers.origin ?? '';
  const url = requestUrl(req.url);
  if (!url) return refuseHttp(socket, 400);
  // The standard transport's endpoint; "/" is where bridges before it listened (a URL saved then still works).
  if (url.pathname !== BRIDGE_PATH && url.pathname !== '/') return refuseHttp(socket, 404);
  if (!origin || !originAllowed(origin, extraOrigins)) {
    log(`refused ${req.socket.remoteAddress} origin=${origin ? quoted(origin) : '(none)'}: origin not allowed`);
    return refuseHttp(socket, 403);
  }
  accept(url, origin);
}

interface Admission {
  readonly options: BridgeOptions;
  readonly tokenDigest: Buffer;
  readonly sockets: Set<WebSocket>;
  readonly log: BridgeLog;
}

/**
 * The checks of a WebSocket from an allowed origin (the client reads their close codes): the token, an agent this
 * bridge offers, a free slot. A socket that passes is given its agent by `serve`.
 */
function admission(
  { options, tokenDigest, sockets, log }: Admission,
  serve: (agent: BridgeAgent, ws: WebSocket, socket: Socket) => void,
): (ws: WebSocket, socket: Socket, url: URL, origin: string) => void {
  return (ws, socket, url, origin) => {
    // Protocol errors (an oversized frame, bad framing) close the socket; log them.
    ws.on('error', (error) => log(`connection error origin=${origin}: ${error.message}`));
    const refuse = (code: number, why: string) => {
      log(`refused origin=${origin}: ${closeReason(why)}`);
      closeSocket(ws, code, why);
    };
    const given = url.searchParams.get(BRIDGE_TOKEN_PARAM) ?? '';
    if (!timingSafeEqual(digest(given), tokenDigest)) return refuse(BridgeClose.badToken, 'invalid token');
    const agentId = url.searchParams.get(BRIDGE_AGENT_PARAM);
    const agent = agentId ? options.agents.find((a) => a.id === agentId) : options.agents[0];
    if (!agent) return refuse(BridgeClose.unknownAgent, `no agent ${quoted(agentId ?? '')} here`);
    if (sockets.size >= options.maxConnections) return refuse(BridgeClose.tooManyConnections, 'too many connections');
    sockets.add(ws);
    ws.once('close', () => sockets.delete(ws));
    log(`accepted origin=${origin} agent=${agent.id}`);
    serve(agent, ws, socket);
  };
}

/** The request's target as a URL, or undefined where it is none (`new URL` throws). */
function requestUrl(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://bridge');
  } catch {
    return undefined;
  }
}

function refuseHttp(socket: Socket, status: 400 | 403 | 404): void {
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
}

/** A value from a request, for a close reason or the log: quoted as JSON (control characters escaped), cut short. */
function quoted(value: string): string {
  return JSON.stringify(cutUtf8(value, MAX_QUOTED_BYTES));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function originAllowed(origin: string, extra: readonly string[]): boolean {
  return extra.includes(origin) || ALLOWED_ORIGINS.some((re) => re.test(origin));
}
