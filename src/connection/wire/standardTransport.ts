/**
 * An agent served elsewhere, reached over ACP's standard remote transport
 * (WebSocket: JSON-RPC messages as text frames) with the SDK's client, from
 * either host (Node: the `ws` package's WebSocket; the web worker: the
 * browser's): any standard server, or our bridge, whose extensions it reads
 * (src/shared/bridgeProtocol.ts: the folder it runs the agent in, the agent's
 * exit, its refusals). The agent runs where it is served: it gets no file
 * access or terminals here (AgentTransport.remote), and its end is the
 * connection's.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import {
  createWebSocketStream,
  type WebSocketConstructor,
  type WebSocketLike,
} from '@agentclientprotocol/sdk/experimental/ws-client';
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../../agents/agents';
import { AgentUnreachableError, type AgentExit, type AgentTransport, type ConnectContext } from '../../platform';
import {
  AGENT_EXITED_METHOD,
  BridgeClose,
  exitText,
  parseBridgeExit,
  readBridgeAnnouncement,
  STRAY_LINE_METHOD,
  strayLineText,
  type BridgeAnnouncement,
  type BridgeExit,
} from '../../shared/bridgeProtocol';
import type { AgentChoice } from '../../shared/page/protocol';

/** How long the server has to accept the connection. */
const OPEN_TIMEOUT_MS = 15_000;

/** `url` as the chat may show it: scheme, host, port and path, never a query (it may hold a token). */
export function shownUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** How the picker offers an agent served at a URL (vscode-acp.agents): always there to try, named by its address. */
export function servedChoice(agent: AgentDefinition & { url: string }): AgentChoice {
  return { id: agent.id, name: agent.name, available: true, detail: `Served at ${shownUrl(agent.url)}` };
}

/**
 * Connects to an agent served at a URL (vscode-acp.agents). Its sessions work in its configured `cwd`, else in the
 * folder a bridge says it runs the agent in, else in `fallbackCwd` (the Node host: the workspace folder's path).
 */
export function openServedAgent(
  agent: AgentDefinition & { url: string },
  webSocket: WebSocketConstructor,
  context: ConnectContext,
  where: { fallbackCwd?: string; folder?: vscode.Uri },
): Promise<AgentTransport> {
  context.log.info(`Connecting to ${agent.name} at ${shownUrl(agent.url)}`);
  return openStandardTransport(agent.url, webSocket, context, {
    ...where,
    ...(agent.cwd ? { cwd: agent.cwd } : {}),
    missingCwd: `Set "cwd" for ${agent.name} in vscode-acp.agents: the folder it works in where it is served.`,
  });
}

export interface StandardTransportOptions {
  /** The folder the agent's sessions work in, where it is served; else the one a bridge announces, else `fallbackCwd`. */
  readonly cwd?: string;
  readonly fallbackCwd?: string;
  /** What the user is told when there is no folder at all. */
  readonly missingCwd: string;
  /** The workspace folder the session belongs to (its settings and `.vscode/mcp.json`). */
  readonly folder?: vscode.Uri;
  /** Added to "No ACP agent accepted a connection at …" (how to start one). */
  readonly unreachableHint?: string;
  /** What the chat calls the server ("the bridge"); by default "the agent at <url>". */
  readonly serverName?: string;
}

/** Stray output lines a bridge reports that are shown in the chat; the rest only go to the log. */
const MAX_STRAY_WARNINGS = 3;

/**
 * Connects to the agent at `url`: over WebSocket (`ws:`, `wss:`) with `webSocket` (the host's constructor), or over
 * Streamable HTTP (`http:`, `https:`) with the host's `fetch`. Throws AgentUnreachableError, with a message for the
 * user, when a WebSocket is not accepted (over HTTP, the first request says so: the agent's end then).
 */
export async function openStandardTransport(
  url: string,
  webSocket: WebSocketConstructor,
  context: ConnectContext,
  options: StandardTransportOptions,
): Promise<AgentTransport> {
  const shown = shownUrl(url);
  const server = options.serverName ?? `the agent at ${shown}`;
  if (/^https?:$/.test(new URL(url).protocol)) {
    // Nothing is sent before initialize: a server that is not there is known when the first request fails.
    const stream = createHttpStream(url, { cookies: 'omit' });
    return servedTransport(stream, context, options, server, (received, error) =>
      received
        ? { message: `The connection to ${server} was lost${error ? ` (${error})` : ''}.`, lost: true }
        : {
            message: notAccepted(shown, error, options.unreachableHint),
            lost: true,
          },
    );
  }
  // The SDK's client opens the socket; this constructor keeps it, to see its open and its close code and reason,
  // which the client does not tell.
  let socket: WebSocketLike | undefined;
  const keeping = function (this: unknown, ...args: ConstructorParameters<WebSocketConstructor>) {
    socket = new webSocket(...args);
    return socket;
  } as unknown as WebSocketConstructor;
  const stream = createWebSocketStream<AnyMessage>(url, { WebSocket: keeping, cookies: 'omit' });
  const opened = socket as unknown as WebSocketLike;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    opened.addEventListener?.('close', (event: unknown) => {
      const { code, reason } = event as { code?: unknown; reason?: unknown };
      resolve({ code: typeof code === 'number' ? code : 1006, reason: typeof reason === 'string' ? reason : '' });
    }),
  );
  await whenOpen(opened, closed, shown, options.unreachableHint);
  return servedTransport(stream, context, options, server, () =>
    closed.then(({ code, reason }) => describeClose(code, reason, server)),
  );
}

/**
 * The transport over `stream`, reading what a bridge adds (its announcement, the agent's exit, stray lines) out of
 * it. `lostWhy` words an end that was neither the agent's exit nor a disconnect: whether any message had come, and
 * the stream's error.
 */
function servedTransport(
  stream: { readable: ReadableStream<AnyMessage>; writable: WritableStream<AnyMessage> },
  context: ConnectContext,
  options: StandardTransportOptions,
  server: string,
  lostWhy: (received: boolean, error: string | undefined) => AgentExit | Promise<AgentExit>,
): AgentTransport {
  let strays = 0;
  let announcement: BridgeAnnouncement | undefined;
  let ended: BridgeExit | undefined;
  let disposed = false;
  let received = false;
  let resolveEnd!: (error: string | undefined) => void;
  const streamEnded = new Promise<string | undefined>((resolve) => (resolveEnd = resolve));
  const reader = stream.readable.getReader();
  const readable = new ReadableStream<AnyMessage>({
    async pull(controller) {
      for (;;) {
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          resolveEnd(error instanceof Error ? error.message : String(error));
          next = { done: true, value: undefined };
        }
        if (next.done) {
          resolveEnd(undefined);
          return controller.close();
        }
        const message = next.value as AnyMessage & { method?: unknown; params?: unknown; result?: unknown };
        // The first message is the initialize response (the server's rule); a bridge announces itself there.
        if (!received) {
          received = true;
          announcement = readBridgeAnnouncement(message.result);
          if (announcement) context.log.info(`The bridge runs ${announcement.agent.name} in ${announcement.cwd}`);
        }
        if (message.method === AGENT_EXITED_METHOD) {
          ended = parseBridgeExit(message.params);
          continue;
        }
        if (message.method === STRAY_LINE_METHOD) {
          const line = strayLineText(message.params);
          context.log.warn(`The agent wrote a line that is not JSON-RPC; the bridge dropped it: ${line}`);
          if (++strays <= MAX_STRAY_WARNINGS) {
            context.onProtocolWarning(`The agent wrote a line that is not ACP to its output, ignored: ${line}`);
          }
          continue;
        }
        return controller.enqueue(message);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  const exited = streamEnded.then(async (error): Promise<AgentExit> => {
    if (ended) {
      const name = context.agentName ?? announcement?.agent.name ?? 'The agent';
      return {
        message: exitText(name, ended.code, ended.signal),
        ...(ended.stderrTail ? { stderrTail: ended.stderrTail } : {}),
      };
    }
    if (disposed) return { message: `Disconnected from ${server}.` };
    return lostWhy(received, error);
  });
  const cwdOf = (): string => {
    const cwd = options.cwd ?? announcement?.cwd ?? options.fallbackCwd;
    if (cwd === undefined) throw new Error(options.missingCwd);
    return cwd;
  };
  return {
    stream: { readable, writable: stream.writable },
    // Read once the agent has answered initialize, which is where a bridge says it.
    get cwd() {
      return cwdOf();
    },
    get agentOs() {
      return announcement?.os;
    },
    get editorRelay() {
      return announcement?.editorRelay === 1;
    },
    remote: true,
    ...(options.folder ? { folder: options.folder } : {}),
    exited,
    dispose: () => {
      disposed = true;
      resolveEnd(undefined);
      void reader.cancel().catch(() => undefined);
      void stream.writable.abort().catch(() => undefined);
    },
  };
}

/** Resolves when `socket` opens; throws AgentUnreachableError when it closes or fails first, or takes too long. */
function whenOpen(
  socket: WebSocketLike,
  closed: Promise<{ code: number; reason: string }>,
  shown: string,
  hint: string | undefined,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new AgentUnreachableError(notAccepted(shown, why, hint)));
    };
    // (A browser's socket says nothing of why it failed: an error event and a 1006 close only.)
    const timer = setTimeout(() => {
      socket.close();
      fail(`no answer in ${OPEN_TIMEOUT_MS / 1000} s`);
    }, OPEN_TIMEOUT_MS);
    socket.addEventListener?.('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.addEventListener?.('error', (event: unknown) => {
      const message = (event as { message?: unknown }).message;
      if (typeof message === 'string' && message) fail(message);
    });
    void closed.then(({ code, reason }) => fail(reason ? `${reason} (code ${code})` : 'the connection failed'));
  });
}

/** "No ACP agent accepted a connection at <url>: <why>. <hint>" */
function notAccepted(shown: string, why: string | undefined, hint: string | undefined): string {
  return `No ACP agent accepted a connection at ${shown}${why ? `: ${why}` : ''}.${hint ? ` ${hint}` : ''}`;
}

/** Why the server closed the connection, in words: the bridge's own codes, else as lost (worth reconnecting). */
function describeClose(code: number, reason: string, server: string): AgentExit {
  switch (code) {
    case BridgeClose.agentExited:
      return { message: reason || 'The agent exited.' };
    case BridgeClose.badToken:
      return {
        message: 'The bridge refused the token. Run "ACP: Set Bridge Token" and paste the URL the bridge printed.',
      };
    case BridgeClose.unknownAgent:
      return { message: `The bridge does not offer this agent: ${reason}` };
    case BridgeClose.idle:
      return { message: 'The bridge closed the idle connection.' };
    case BridgeClose.tooManyConnections:
      // A slot frees when another window disconnects: worth another try.
      return { message: 'The bridge has too many connections open.', lost: true };
    default:
      // 1000 and 1005 (closed on purpose, without an exit report), 1001 (shutting down), 1006 (dropped), 1008 (a
      // limit), 1011 (an error): the agent may be there again on the next try.
      return {
        message: `The connection to ${server} was lost (code ${code}${reason ? `: ${reason}` : ''}).`,
        lost: true,
      };
  }
}
