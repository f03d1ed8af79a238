/**
 * What the client serves the agent: every agent-to-client request and notification of one connection, each for a
 * session this connection opened and answered by that session's own handlers (the chat that opened it). A method
 * this host does not offer stays unregistered: the SDK answers "method not found".
 */
import * as acp from '@agentclientprotocol/sdk';
import type { McpMessageParams, McpOverAcpProvider } from '@agentclientprotocol/sdk/unstable';
import { PULL_METHOD, pullParams, type PullAnswer } from './steering';
import { EDITOR_CALL_METHOD } from '../shared/bridgeProtocol';

/** A bridge's call as the client takes it: a server id, a tool's name, its arguments (an object). */
function editorCallParams(params: unknown): { serverId: string; tool: string; arguments: Record<string, unknown> } {
  const p = (params ?? {}) as { serverId?: unknown; tool?: unknown; arguments?: unknown };
  const args = p.arguments;
  if (typeof p.serverId !== 'string' || typeof p.tool !== 'string' || typeof args !== 'object' || args === null) {
    throw acp.RequestError.invalidParams({}, 'An editor call names its server, its tool and its arguments.');
  }
  return { serverId: p.serverId, tool: p.tool, arguments: args as Record<string, unknown> };
}

/** `terminal/*`, served for one session. */
export interface TerminalHandlers {
  create(params: acp.CreateTerminalRequest, signal: AbortSignal): Promise<acp.CreateTerminalResponse>;
  output(params: acp.TerminalOutputRequest): Promise<acp.TerminalOutputResponse>;
  waitForExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse>;
  kill(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse>;
  release(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse>;
}

/** What the client answers for one session: the chat that opened it provides these. */
export interface SessionHandlers {
  requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** `elicitation/create` of this session (where the client offers elicitation). */
  elicit?(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse>;
  /** `elicitation/complete`: the agent says a URL elicitation is done (its id, whichever session it was). */
  elicitationDone?(elicitationId: string): void;
  /** Present where this host runs terminals (and then required of every session). */
  terminals?: TerminalHandlers;
  /** An agent that pulls steered messages asks for them (steering.ts): those waiting, taken. */
  pullSteered?(): PullAnswer;
}

/** What the client answers for any of its sessions; present only when the client advertises the capability. */
export interface ClientHandlers {
  readTextFile?(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile?(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse>;
  /** Whether `terminal/*` is served (each session's own TerminalHandlers answer). */
  terminals?: boolean;
  /** Whether `elicitation/create` is served (each session's own handlers answer). */
  elicitation?: boolean;
  /** The MCP servers served to the agent over the connection (MCP-over-ACP, unstable `mcp/message`): the editor server. */
  mcp?: McpOverAcpProvider;
}

/** A bridge's call to an editor server this connection's session declared (src-node/bridge/editorRelay.ts). */
export type RelayedEditor = (
  tool: string,
  args: Record<string, unknown>,
) => Promise<{ text: string; isError?: boolean }>;

/**
 * The SDK's client with every request of `handlers` registered; `route` takes each `session/update`; `relayed`, the
 * editor servers a bridge serves for this connection's sessions, by server id.
 */
export function clientRequests(
  name: string,
  handlers: ClientHandlers,
  openSessions: ReadonlyMap<string, SessionHandlers>,
  route: (sessionId: string, update: acp.SessionUpdate) => void,
  relayed: ReadonlyMap<string, RelayedEditor>,
): ReturnType<typeof acp.client> {
  // A request is served only for a session this connection opened, by that session's
  // handlers: an agent that names another session (or makes one up) is refused, its
  // permission request answered `cancelled`.
  const ours = <R>(params: { sessionId: string }, serve: (session: SessionHandlers) => Promise<R>): Promise<R> => {
    const session = openSessions.get(params.sessionId);
    if (session) return serve(session);
    return Promise.reject(
      acp.RequestError.invalidParams({ sessionId: params.sessionId }, 'No session with this id on this connection.'),
    );
  };
  const terminalsOf = (session: SessionHandlers): TerminalHandlers => {
    if (session.terminals) return session.terminals;
    throw acp.RequestError.invalidParams({}, 'This session has no terminals.');
  };
  const app = acp
    .client({ name })
    .onNotification('session/update', ({ params }) => route(params.sessionId, params.update))
    .onRequest('session/request_permission', ({ params, signal }) => {
      const session = openSessions.get(params.sessionId);
      return session
        ? session.requestPermission(params, signal)
        : Promise.resolve({ outcome: { outcome: 'cancelled' } });
    });
  app.onRequest(PULL_METHOD, pullParams, ({ params }) =>
    ours(params, async (session) => session.pullSteered?.() ?? { items: [], hasQueuedPrompt: false }),
  );
  if (handlers.elicitation) {
    app
      .onRequest('elicitation/create', ({ params, signal }) => {
        // Tied to a request, not a session (before any session): no chat to ask in.
        const sessionId = (params as { sessionId?: unknown }).sessionId;
        const session = typeof sessionId === 'string' ? openSessions.get(sessionId) : undefined;
        return session?.elicit ? session.elicit(params, signal) : Promise.resolve({ action: 'cancel' as const });
      })
      .onNotification('elicitation/complete', ({ params }) => {
        for (const session of openSessions.values()) session.elicitationDone?.(params.elicitationId);
      });
  }
  // Methods we do not offer stay unregistered: the SDK answers "method not found".
  const { readTextFile, writeTextFile, mcp } = handlers;
  app.onRequest(EDITOR_CALL_METHOD, editorCallParams, ({ params }) => {
    const answer = relayed.get(params.serverId);
    if (!answer) throw acp.RequestError.invalidParams({}, 'No editor server of this id on this connection.');
    return answer(params.tool, params.arguments);
  });
  // The provider checks the envelope and answers for servers registered on this connection only.
  if (mcp) {
    app.onRequest(
      'mcp/message',
      (params: unknown) => params as McpMessageParams,
      (c) => mcp.handleRequest(c),
    );
  }
  if (readTextFile) app.onRequest('fs/read_text_file', ({ params }) => ours(params, () => readTextFile(params)));
  if (writeTextFile) app.onRequest('fs/write_text_file', ({ params }) => ours(params, () => writeTextFile(params)));
  if (handlers.terminals) {
    app
      .onRequest('terminal/create', ({ params, signal }) =>
        ours(params, async (s) => terminalsOf(s).create(params, signal)),
      )
      .onRequest('terminal/output', ({ params }) => ours(params, async (s) => terminalsOf(s).output(params)))
      .onRequest('terminal/wait_for_exit', ({ params, signal }) =>
        ours(params, async (s) => terminalsOf(s).waitForExit(params, signal)),
      )
      .onRequest('terminal/kill', ({ params }) => ours(params, async (s) => terminalsOf(s).kill(params)))
      .onRequest('terminal/release', ({ params }) => ours(params, async (s) => terminalsOf(s).release(params)));
  }
  return app;
}
