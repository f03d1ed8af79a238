/**
 * A session's editor server (src/editorServer/): started where the host serves it (a trusted local folder, an agent
 * it starts) for an agent that takes MCP-over-ACP or MCP over HTTP, with the tool groups the user leaves on; declared among the
 * session's MCP servers under a name none of the user's has, its token kept out of every log; closed with the session.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { EditorPort } from '../editorServer/editorPort';
import {
  EDITOR_TOOLS,
  runTool,
  serverName,
  type EditorTool,
  type ToolAnswer,
  type ToolGroup,
} from '../editorServer/editorTools';
import type { McpRequestHandler, McpServerRegistration } from '@agentclientprotocol/sdk/unstable';
import type { RelayedEditor } from '../connection/clientRequests';
import { EDITOR_RELAY_META } from '../shared/bridgeProtocol';
import type { EditorCall } from '../shared/editorCalls';
import { Emitter, type Event } from '../shared/events';
import type { EditorServe, HostCapabilities, Platform } from '../platform';
import { redactor } from '../secrets/redactor';

/** What the editor server answers from, given to every session. */
export interface EditorServerDeps {
  readonly editor: EditorPort;
  /** The extension's version, as the server names itself. */
  readonly version: string;
  /** The tool groups the user leaves on (`vscode-acp.editorServer.*`), read as each session starts. */
  groups(): ReadonlySet<ToolGroup>;
  /** The agents the chat has told it gives no editor server (they take no MCP over HTTP): told once a window. */
  readonly toldNoHttp: Set<string>;
  /** Told of every call, by its structure only (the ACP Diagnostics channel): never its arguments' or answer's text. */
  onCall?(call: EditorCallRecord): void;
}

export interface EditorCallRecord {
  readonly editorTool: string;
  readonly argumentNames: readonly string[];
  readonly ms: number;
  readonly answerChars: number;
  readonly refused: boolean;
}

export interface SessionEditor {
  /** Its entry in the session's `mcpServers`: over ACP (`mcp/message`), or loopback HTTP with its token. */
  readonly server: acp.McpServer;
  /** Each call the agent made, as the chat lists it under the answer. */
  readonly onDidCall: Event<EditorCall>;
  dispose(): void;
}

/** Serves an MCP server to the agent over the session's ACP connection (AgentClient.serveMcp). */
export type ServeOverAcp = (name: string, handler: McpRequestHandler) => McpServerRegistration | undefined;

/**
 * The editor server for a session in `roots`: started, or why the agent gets none when it is the agent's doing (a
 * sentence for the chat, the first time in a window), or nothing (the host does not serve it, every group is off).
 * Over ACP where the agent takes MCP-over-ACP (`mcpCapabilities.acp`), else over loopback HTTP.
 */
export async function startSessionEditor(
  platform: Platform,
  offered: HostCapabilities,
  deps: EditorServerDeps | undefined,
  agentMcp: acp.McpCapabilities | null | undefined,
  roots: readonly string[],
  taken: readonly acp.McpServer[],
  agentId: string,
  link: { readonly serveMcp: ServeOverAcp; readonly relayed: Map<string, RelayedEditor> },
): Promise<SessionEditor | { notice: string } | undefined> {
  if (!deps) return undefined;
  const groups = deps.groups();
  const offer = editorOffer(platform, offered, groups, agentMcp);
  if (offer === 'no-transport' && !deps.toldNoHttp.has(agentId)) {
    deps.toldNoHttp.add(agentId);
    return {
      notice:
        'This agent takes no MCP server over HTTP or over ACP, so it cannot ask VS Code about problems, symbols or changes (the editor server).',
    };
  }
  if ((offer !== 'acp' && offer !== 'http' && offer !== 'relay') || !platform.editorScope) return undefined;
  const scope = platform.editorScope(roots);
  const calls = new Emitter<EditorCall>();
  const serve = {
    answer: async (tool: EditorTool, args: Record<string, unknown>) => {
      const start = performance.now();
      const answer = await runTool(tool, args, { editor: deps.editor, scope });
      calls.fire(shownCall(tool.name, answer));
      deps.onCall?.({
        editorTool: tool.name,
        argumentNames: Object.keys(args).slice(0, 10),
        ms: Math.round((performance.now() - start) * 10) / 10,
        answerChars: answer.text.length,
        refused: answer.isError === true,
      });
      return answer;
    },
    groups,
    version: deps.version,
  };
  const name = serverName(new Set(taken.map((s) => s.name)));
  if (offer === 'relay') return relayedEditor(name, serve, link.relayed, calls);
  const served = offer === 'acp' ? platform.editorAcp?.(serve) : undefined;
  const registration = served && link.serveMcp(name, served.handler);
  if (served && registration) {
    return {
      // The acp type is unstable: the stable McpServer type does not name it yet.
      server: registration.declaration as unknown as acp.McpServer,
      onDidCall: calls.event,
      dispose: () => {
        calls.dispose();
        void registration.dispose().then(() => served.close());
      },
    };
  }
  if (!platform.editorEndpoint) return undefined;
  const endpoint = await platform.editorEndpoint(serve);
  redactor.add(endpoint.headers.map((h) => h.value));
  return {
    server: { type: 'http', name, url: endpoint.url, headers: endpoint.headers.map((h) => ({ ...h })) },
    onDidCall: calls.event,
    dispose: () => {
      calls.dispose();
      endpoint.dispose();
    },
  };
}

/**
 * The editor server a bridge serves next to its agent (VS Code for the Web): declared with the relay's mark, each call
 * the bridge asks answered here, its tool of a group left on and its arguments checked as the library would.
 */
function relayedEditor(
  name: string,
  serve: EditorServe,
  relayed: Map<string, RelayedEditor>,
  calls: Emitter<EditorCall>,
): SessionEditor {
  const serverId = `editor-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  relayed.set(serverId, async (toolName, args) => {
    const tool = EDITOR_TOOLS.find((t) => t.name === toolName && serve.groups.has(t.group));
    if (!tool) return { text: `No tool ${JSON.stringify(toolName.slice(0, 80))} is on.`, isError: true };
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) return { text: `The arguments of ${tool.name} are not as it takes them.`, isError: true };
    return serve.answer(tool, parsed.data as Record<string, unknown>);
  });
  const mark = { [EDITOR_RELAY_META]: { groups: [...serve.groups], version: serve.version } };
  return {
    // The acp type is unstable (the stable McpServer type does not name it); the bridge puts an HTTP server in its place.
    server: { type: 'acp', name, serverId, _meta: mark } as unknown as acp.McpServer,
    onDidCall: calls.event,
    dispose: () => {
      relayed.delete(serverId);
      calls.dispose();
    },
  };
}

/**
 * A call as the chat lists it: what the tool says it was about, and its place: a path (a file: uri's), or the uri
 * itself where the workspace is not on disk.
 */
function shownCall(tool: string, answer: ToolAnswer): EditorCall {
  const look = answer.look;
  if (answer.isError || !look) return { tool, about: `${tool.replace('_', ' ')}: not answered`, refused: true };
  const path = look.uri?.startsWith('file:') ? filePath(look.uri) : undefined;
  const uri = !path && look.uri && look.uri.length <= 4_096 ? look.uri : undefined;
  return {
    tool,
    about: look.about.slice(0, 400),
    ...(path ? { path } : uri ? { uri } : {}),
    ...((path || uri) && look.line ? { line: look.line } : {}),
  };
}

function filePath(uri: string): string | undefined {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return undefined;
  }
}

/**
 * The editor server as ACP: Show MCP Servers tells it: whether the next session gets it and why not, and its tools on
 * and off. `agentMcp` 'unknown': no agent connected yet.
 */
export function editorServerReport(
  platform: Platform,
  offered: HostCapabilities,
  agentMcp: acp.McpCapabilities | null | undefined | 'unknown',
  groups: ReadonlySet<ToolGroup>,
): string[] {
  const offer = editorOffer(platform, offered, groups, agentMcp);
  const why = {
    acp: agentMcp === 'unknown' ? 'offered' : 'offered: the next session gets it over ACP (mcp/message)',
    http:
      agentMcp === 'unknown'
        ? 'offered to an agent that takes MCP servers over ACP or HTTP'
        : 'offered: the next session gets it on 127.0.0.1',
    relay: 'offered: the bridge serves it next to the agent, and asks VS Code each call',
    host: 'not here',
    capability: platform.editorEndpoint
      ? 'not offered: it needs a trusted workspace with a local folder, and an agent VS Code starts'
      : 'not offered: it needs a trusted workspace, and a bridge that serves it next to the agent',
    off: 'off (every vscode-acp.editorServer.* setting is off)',
    'no-transport': 'not offered: this agent takes no MCP server over HTTP or over ACP',
  }[offer];
  const tools = (on: boolean) => EDITOR_TOOLS.filter((t) => groups.has(t.group) === on).map((t) => t.name);
  const off = tools(false);
  return [
    `The editor server (vscode-editor, the extension's own): ${why}.`,
    `  Tools: ${tools(true).join(', ') || 'none'}${off.length ? ` (off: ${off.join(', ')})` : ''}`,
  ];
}

/**
 * Whether a session gets the editor server and how, or what stands in the way: the host serves none, the capability
 * table offers none (Restricted Mode, no local folder, a served agent), every group is off, the agent takes neither
 * MCP-over-ACP nor HTTP. `agentMcp` 'unknown': no agent connected yet (what it takes is not held against it).
 */
function editorOffer(
  platform: Platform,
  offered: HostCapabilities,
  groups: ReadonlySet<ToolGroup>,
  agentMcp: acp.McpCapabilities | null | undefined | 'unknown',
): 'acp' | 'http' | 'relay' | 'host' | 'capability' | 'off' | 'no-transport' {
  if (!platform.editorScope) return 'host';
  if (!offered.editorServer) return 'capability';
  if (groups.size === 0) return 'off';
  // Without a loopback of its own (the web), the host is offered it only through a bridge that relays it.
  const http = platform.editorEndpoint ? 'http' : 'relay';
  if (agentMcp === 'unknown') return http;
  // `acp` is unstable: the stable McpCapabilities type does not name it yet.
  if ((agentMcp as { acp?: unknown } | null | undefined)?.acp === true && platform.editorAcp) return 'acp';
  return agentMcp?.http ? http : 'no-transport';
}
