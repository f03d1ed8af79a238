/**
 * The web worker's way to an agent: a WebSocket to our ACP bridge. The
 * bridge's hello frame says where the agent runs; its close code and reason
 * say why it ended. (The SDK's experimental ws-client hides both, hence this
 * small adapter.)
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { AgentUnreachableError, type AgentExit, type AgentTransport, type ConnectContext } from '../src/platform';
import {
  BridgeClose,
  exitText,
  parseBridgeExit,
  parseBridgeHello,
  type BridgeExit,
  type BridgeHello,
} from '../src/shared/bridgeProtocol';

const HELLO_TIMEOUT_MS = 15_000;

/** Stray non-JSON lines shown in the chat; the rest only go to the log. */
const MAX_STRAY_WARNINGS = 3;

export async function openBridgeTransport(
  url: string,
  displayUrl: string,
  context: ConnectContext,
): Promise<AgentTransport & { hello: BridgeHello }> {
  const { log } = context;
  let strays = 0;
  const socket = new WebSocket(url);
  let controller!: ReadableStreamDefaultController<AnyMessage>;
  const readable = new ReadableStream<AnyMessage>({
    start: (c) => {
      controller = c;
    },
  });
  let hello: BridgeHello | undefined;
  let ended: BridgeExit | undefined;
  let resolveHello!: (h: BridgeHello) => void;
  let rejectHello!: (e: Error) => void;
  const helloPromise = new Promise<BridgeHello>((resolve, reject) => {
    resolveHello = resolve;
    rejectHello = reject;
  });
  const timer = setTimeout(() => {
    rejectHello(new Error(`The bridge at ${displayUrl} did not start the agent in time.`));
    socket.close();
  }, HELLO_TIMEOUT_MS);

  socket.addEventListener('message', (event: MessageEvent) => {
    if (typeof event.data !== 'string') return log.warn('Bridge sent a binary frame; ignored.');
    if (!hello) {
      hello = parseBridgeHello(event.data);
      if (hello) resolveHello(hello);
      else rejectHello(new Error(`${displayUrl} is not an ACP bridge (unexpected first message).`));
      return;
    }
    try {
      const message = JSON.parse(event.data) as unknown;
      // The bridge's report of the agent's end, sent just before it closes (not ACP: kept for the close).
      const exit = parseBridgeExit(message);
      if (exit) ended = exit;
      else if (message && typeof message === 'object' && !Array.isArray(message)) {
        controller.enqueue(message as AnyMessage);
      } else log.warn(`Bridge relayed a non-object message; ignored: ${event.data.slice(0, 200)}`);
    } catch {
      const line = event.data.slice(0, 200);
      log.warn(`The agent wrote a line that is not JSON; ignored: ${line}`);
      if (++strays <= MAX_STRAY_WARNINGS) {
        context.onProtocolWarning(`The agent wrote a line that is not ACP to its output, ignored: ${line}`);
      }
    }
  });
  const exited = new Promise<AgentExit>((resolve) => {
    socket.addEventListener('close', (event: CloseEvent) => {
      clearTimeout(timer);
      const exit =
        event.code === BridgeClose.agentExited && ended
          ? {
              message: exitText(
                context.agentName ?? hello?.agent.name ?? 'The agent',
                ended.exit.code,
                ended.exit.signal,
              ),
              ...(ended.exit.stderrTail ? { stderrTail: ended.exit.stderrTail } : {}),
            }
          : describeClose(event.code, event.reason, displayUrl, hello !== undefined);
      // Before the hello, "nobody answered" may change on the next try; a refusal will not.
      rejectHello(
        exit.lost || event.code === BridgeClose.tooManyConnections
          ? new AgentUnreachableError(exit.message)
          : new Error(exit.message),
      );
      try {
        controller.close();
      } catch {
        /* already closed */
      }
      resolve(exit);
    });
  });
  const writable = new WritableStream<AnyMessage>({
    write: (message) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
      else throw new Error('The bridge connection is closed.');
    },
  });
  const confirmed = await helloPromise.finally(() => clearTimeout(timer));
  return {
    stream: { readable, writable },
    cwd: confirmed.cwd,
    ...(confirmed.os ? { agentOs: confirmed.os } : {}),
    hello: confirmed,
    exited,
    dispose: () => socket.close(1000, 'disconnect'),
  };
}

function describeClose(code: number, reason: string, url: string, started: boolean): AgentExit {
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
      return { message: 'The bridge has too many connections open.' };
    case 1000:
      return { message: reason || 'The bridge closed the connection.' };
    default:
      // 1001 (bridge shutting down), 1006 (dropped without a close frame), 1011-1014 and the like.
      return started
        ? { message: `The connection to the bridge was lost (code ${code}${reason ? `: ${reason}` : ''}).`, lost: true }
        : {
            message: `No ACP bridge accepted a connection at ${url}. Start one next to your agent with: node dist/bridge/bridge.js -- <agent command> (see the README; if one is running, its output says why it refused).`,
            lost: true,
          };
  }
}
