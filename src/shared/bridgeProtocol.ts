/**
 * What the ACP bridge (src-node/bridge) adds to ACP's standard remote
 * transport, which it serves with the SDK's server: the URL's token and agent
 * parameters, the folder and OS it runs the agent in (in the initialize
 * response's `_meta`), notifications of the agent's end (its exit status and
 * last stderr lines) and of output lines it dropped, and the close codes of its
 * refusals. Each is an
 * extension the protocol allows: any other client, or a server that is not the
 * bridge, works without them.
 */

/** The key of the bridge's `_meta` entry on the initialize response. */
export const BRIDGE_META_KEY = 'vscodeAcpBridge';

/** Where the bridge runs its agent. */
export interface BridgeAnnouncement {
  /** The folder the agent runs in: the `cwd` for its sessions. */
  readonly cwd: string;
  /** The bridge machine's kind of OS (MCP server commands are checked for it). */
  readonly os?: 'posix' | 'windows';
  readonly agent: { readonly id: string; readonly name: string };
  /** The bridge serves a relayed editor server next to the agent (EDITOR_RELAY_META): 1, its version. */
  readonly editorRelay?: 1;
}

/** The bridge's announcement in an initialize response (`result._meta`), or undefined. */
export function readBridgeAnnouncement(result: unknown): BridgeAnnouncement | undefined {
  const value = (result as { _meta?: Record<string, unknown> } | null)?._meta?.[BRIDGE_META_KEY] as
    Partial<BridgeAnnouncement> | undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.cwd !== 'string' ||
    value.cwd === '' ||
    typeof value.agent?.id !== 'string' ||
    typeof value.agent.name !== 'string'
  ) {
    return undefined;
  }
  const os = value.os === 'posix' || value.os === 'windows' ? { os: value.os } : {};
  const relay = value.editorRelay === 1 ? { editorRelay: 1 as const } : {};
  return { cwd: value.cwd, agent: { id: value.agent.id, name: value.agent.name }, ...os, ...relay };
}

/** The notification the bridge sends last when its agent has ended (an ACP extension method: it starts with `_`). */
export const AGENT_EXITED_METHOD = '_vscodeAcpBridge/agentExited';

export interface BridgeExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The agent's last stderr lines. */
  readonly stderrTail?: string;
}

/** The params of an agent-exited notification, checked and bounded, or undefined. */
export function parseBridgeExit(params: unknown): BridgeExit | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const exit = params as Record<string, unknown>;
  const code = Number.isInteger(exit.code) ? (exit.code as number) : null;
  const signal = typeof exit.signal === 'string' ? exit.signal.slice(0, 32) : null;
  const stderrTail =
    typeof exit.stderrTail === 'string' && exit.stderrTail !== ''
      ? exit.stderrTail.slice(-MAX_STDERR_TAIL_CHARS)
      : undefined;
  return { code, signal, ...(stderrTail ? { stderrTail } : {}) };
}

/**
 * A notification for each of the first few lines of the agent's output that are not JSON-RPC (a log line printed to
 * stdout, say), which the bridge drops: the client may say so.
 */
export const STRAY_LINE_METHOD = '_vscodeAcpBridge/strayLine';
/** How much of a stray line is told. */
export const MAX_STRAY_LINE_CHARS = 200;

/** The text of a stray-line notification, bounded; '' when there is none. */
export function strayLineText(params: unknown): string {
  const text = (params as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text.slice(0, MAX_STRAY_LINE_CHARS) : '';
}

/** How much of the end of an agent's stderr an exit report carries, in lines and characters (the Node host keeps as much). */
export const MAX_STDERR_TAIL_LINES = 12;
export const MAX_STDERR_TAIL_CHARS = 2_000;

/** How an agent's end is said: "<name> exited with code 3." or "<name> was ended by SIGTERM." */
export function exitText(name: string, code: number | null, signal: string | null): string {
  return signal ? `${name} was ended by ${signal}.` : `${name} exited with code ${code}.`;
}

/** Close codes the bridge uses (4000-4999 are free for applications). */
export const BridgeClose = {
  /** The agent could not be started, or ended before it answered `initialize` (the reason says why). */
  agentExited: 4000,
  badToken: 4001,
  unknownAgent: 4004,
  idle: 4008,
  tooManyConnections: 4029,
} as const;

/** The bridge's endpoint (the standard transport's) and the query parameters of its URL. */
export const BRIDGE_PATH = '/acp';
export const BRIDGE_TOKEN_PARAM = 'token';
export const BRIDGE_AGENT_PARAM = 'agent';

/**
 * The editor server for an agent served to VS Code for the Web (src-node/bridge/editorRelay.ts): the browser declares
 * it among a session's `mcpServers` as `{type: 'acp', name, serverId, _meta: {[EDITOR_RELAY_META]: {groups, version}}}`;
 * the bridge serves it to the agent on 127.0.0.1 as the Node host does, and asks the browser each call
 * (EDITOR_CALL_METHOD, a request to the client: `{serverId, tool, arguments}`, answered `{text, isError?}`).
 */
export const EDITOR_RELAY_META = 'vscodeAcpBridge/editorRelay';
export const EDITOR_CALL_METHOD = '_vscodeAcpBridge/editorCall';
