/**
 * An agent served elsewhere, reached over ACP's standard remote transport
 * (WebSocket: JSON-RPC messages as text frames) with the SDK's client, from
 * either host (Node: the `ws` package's WebSocket; the web worker: the
 * browser's). The agent runs where it is served: it gets no file access or
 * terminals here (AgentTransport.remote), and its end is the connection's.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { createWebSocketStream, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../agents/agents';
import type { AgentExit, AgentTransport } from '../platform';
import type { AgentChoice } from '../shared/protocol';

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
 * Connects to an agent served at a URL, working in its configured `cwd` there, else `fallbackCwd` (the Node host:
 * the workspace folder's path); throws, with a message for the user, when there is neither.
 */
export function openServedAgent(
  agent: AgentDefinition & { url: string },
  fallbackCwd: string | undefined,
  webSocket: WebSocketConstructor,
  log: vscode.LogOutputChannel,
): Promise<AgentTransport> {
  const cwd = agent.cwd ?? fallbackCwd;
  if (!cwd) {
    throw new Error(`Set "cwd" for ${agent.name} in vscode-acp.agents: the folder it works in where it is served.`);
  }
  log.info(`Connecting to ${agent.name} at ${shownUrl(agent.url)} (cwd ${cwd})`);
  return openStandardTransport(agent.url, cwd, webSocket);
}

/**
 * Connects to the agent at `url` with `webSocket` (the host's constructor); throws, with a message for the user,
 * when nothing accepts the connection.
 */
export async function openStandardTransport(
  url: string,
  cwd: string,
  webSocket: WebSocketConstructor,
): Promise<AgentTransport> {
  const shown = shownUrl(url);
  // The SDK's client opens the socket itself; the first write waits for it. Opening one here first tells an
  // unreachable server apart (and says so) before the client speaks.
  await reachable(url, shown, webSocket);
  const stream = createWebSocketStream<AnyMessage>(url, { WebSocket: webSocket, cookies: 'omit' });
  let resolveExit!: (exit: AgentExit) => void;
  const exited = new Promise<AgentExit>((resolve) => (resolveExit = resolve));
  const reader = stream.readable.getReader();
  const readable = new ReadableStream<AnyMessage>({
    async pull(controller) {
      try {
        const { value, done } = await reader.read();
        if (done) {
          controller.close();
          resolveExit({ message: `The agent at ${shown} closed the connection.`, lost: true });
        } else controller.enqueue(value);
      } catch (error) {
        controller.close();
        resolveExit({
          message: `The connection to the agent at ${shown} was lost (${error instanceof Error ? error.message : String(error)}).`,
          lost: true,
        });
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return {
    stream: { readable, writable: stream.writable },
    cwd,
    remote: true,
    exited,
    dispose: () => {
      void reader.cancel().catch(() => undefined);
      void stream.writable.abort().catch(() => undefined);
      resolveExit({ message: `Disconnected from the agent at ${shown}.` });
    },
  };
}

function reachable(url: string, shown: string, webSocket: WebSocketConstructor): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new webSocket(url);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`No ACP agent accepted a connection at ${shown}: ${why}`));
    };
    // (A browser's socket says nothing of why it failed: an error event only.)
    const timer = setTimeout(() => {
      socket.close();
      fail(`no answer in ${OPEN_TIMEOUT_MS / 1000} s`);
    }, OPEN_TIMEOUT_MS);
    socket.addEventListener?.('open', () => {
      clearTimeout(timer);
      socket.close(1000);
      resolve();
    });
    socket.addEventListener?.('error', (event: unknown) => {
      const message = (event as { message?: unknown }).message;
      fail(typeof message === 'string' && message ? message : 'the connection failed');
    });
  });
}
