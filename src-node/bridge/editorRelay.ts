/**
 * The editor server for an agent the bridge serves to VS Code for the Web (issue 48). A browser opens no port, so it
 * declares the server in a session's `mcpServers` with the relay's mark (shared/bridgeProtocol.ts EDITOR_RELAY_META);
 * the bridge, next to the agent, serves it as the Node host does (editorEndpoint.ts: the official library's handler on
 * 127.0.0.1, an unguessable path, a token in a header) and asks the browser each call over the ACP connection
 * (EDITOR_CALL_METHOD), where VS Code's editor answers. The agent gets an `http` server in place of the mark, or none
 * when it takes no MCP over HTTP. Each endpoint closes with the connection; a connection has at most MAX_RELAYED.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { EDITOR_CALL_METHOD, EDITOR_RELAY_META } from '../../src/shared/bridgeProtocol';
import { TOOL_GROUPS, type ToolAnswer, type ToolGroup } from '../../src/editorServer/editorTools';
import type { EditorEndpoint } from '../../src/platform';
import { startEditorEndpoint } from '../editorEndpoint';

/** Relayed servers one connection may have open (a session each, usually one or two). */
const MAX_RELAYED = 32;
/** How long the browser has to answer one call. */
const CALL_MS = 30_000;
/** The methods whose `mcpServers` may hold the mark. */
const SESSION_METHODS = new Set(['session/new', 'session/load', 'session/resume', 'session/fork']);

export class EditorRelay {
  private readonly endpoints: EditorEndpoint[] = [];
  private readonly waiting = new Map<string, (answer: ToolAnswer) => void>();
  private next = 0;
  /** Whether the agent takes MCP over HTTP (its initialize answer): until it has answered, no. */
  private http = false;
  private closed = false;

  /** `toClient` sends the bridge's own requests to the browser, in line with the agent's messages. */
  constructor(private readonly toClient: (message: AnyMessage) => Promise<void>) {}

  /** The agent's initialize answer: whether it takes MCP over HTTP. */
  agentAnswered(message: AnyMessage): void {
    const result = (message as { result?: { agentCapabilities?: { mcpCapabilities?: { http?: unknown } } } }).result;
    this.http = result?.agentCapabilities?.mcpCapabilities?.http === true;
  }

  /**
   * A message from the browser: the answer to a call (taken here: undefined), or what goes on to the agent (at once,
   * but for a session's request with a mark: its servers are started first).
   */
  fromClient(message: AnyMessage): AnyMessage | undefined | Promise<AnyMessage> {
    const m = message as { id?: unknown; method?: unknown; params?: { mcpServers?: unknown } };
    if (m.method === undefined && typeof m.id === 'string' && this.waiting.has(m.id)) {
      this.waiting.get(m.id)!(answerOf(message));
      this.waiting.delete(m.id);
      return undefined;
    }
    if (typeof m.method !== 'string' || !SESSION_METHODS.has(m.method) || !Array.isArray(m.params?.mcpServers)) {
      return message;
    }
    if (!m.params.mcpServers.some(markOf)) return message;
    return this.withServers(message, m.params as { mcpServers: unknown[] });
  }

  /** `message` with each marked server replaced by the relay's endpoint for it (or left out: see the class). */
  private async withServers(message: AnyMessage, params: { mcpServers: unknown[] }): Promise<AnyMessage> {
    const servers: unknown[] = [];
    for (const server of params.mcpServers) {
      const mark = markOf(server);
      if (!mark) servers.push(server);
      else if (this.http && !this.closed && this.endpoints.length < MAX_RELAYED) {
        servers.push(await this.serve(server as { name: string; serverId: string }, mark));
      }
    }
    return { ...message, params: { ...params, mcpServers: servers } } as AnyMessage;
  }

  /** The connection ended: every endpoint closes, every call waiting is answered. */
  dispose(): void {
    this.closed = true;
    for (const endpoint of this.endpoints.splice(0)) endpoint.dispose();
    for (const done of this.waiting.values()) done({ text: 'VS Code is gone.', isError: true });
    this.waiting.clear();
  }

  private async serve(server: { name: string; serverId: string }, mark: Mark): Promise<unknown> {
    const endpoint = await startEditorEndpoint({
      answer: (tool, args) => this.ask(server.serverId, tool.name, args),
      groups: mark.groups,
      version: mark.version,
    });
    if (this.closed) endpoint.dispose();
    else this.endpoints.push(endpoint);
    return { type: 'http', name: server.name, url: endpoint.url, headers: endpoint.headers.map((h) => ({ ...h })) };
  }

  private ask(serverId: string, tool: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    if (this.closed) return Promise.resolve({ text: 'VS Code is gone.', isError: true });
    const id = `editor-call-${++this.next}`;
    return new Promise<ToolAnswer>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ text: `VS Code did not answer within ${CALL_MS / 1000} s.`, isError: true });
      }, CALL_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      const params = { serverId, tool, arguments: args };
      void this.toClient({ jsonrpc: '2.0', id, method: EDITOR_CALL_METHOD, params } as AnyMessage).catch(() =>
        this.waiting.get(id)?.({ text: 'VS Code is gone.', isError: true }),
      );
    });
  }
}

interface Mark {
  readonly groups: ReadonlySet<ToolGroup>;
  readonly version: string;
}

/** The relay's mark on a declared server (an `acp` one with EDITOR_RELAY_META), its groups known ones only. */
function markOf(server: unknown): Mark | undefined {
  const s = server as { type?: unknown; name?: unknown; serverId?: unknown; _meta?: Record<string, unknown> } | null;
  if (s?.type !== 'acp' || typeof s.name !== 'string' || typeof s.serverId !== 'string') return undefined;
  const mark = s._meta?.[EDITOR_RELAY_META] as { groups?: unknown; version?: unknown } | undefined;
  if (typeof mark !== 'object' || mark === null || !Array.isArray(mark.groups)) return undefined;
  const groups = new Set(TOOL_GROUPS.filter((g) => (mark.groups as unknown[]).includes(g)));
  const version = typeof mark.version === 'string' ? mark.version.slice(0, 40) : '0';
  return { groups, version };
}

/** The browser's answer to a call: its text, or its error said as one. */
function answerOf(message: AnyMessage): ToolAnswer {
  const m = message as { result?: { text?: unknown; isError?: unknown }; error?: { message?: unknown } };
  if (typeof m.result?.text === 'string') {
    return { text: m.result.text.slice(0, 1_000_000), ...(m.result.isError === true ? { isError: true } : {}) };
  }
  const why = typeof m.error?.message === 'string' ? m.error.message.slice(0, 1_000) : 'no answer';
  return { text: `VS Code could not answer: ${why}`, isError: true };
}
