/**
 * The WebSocket ACP bridge's own wire format, shared by the bridge program
 * (src-node/bridge) and the web transport (src-web). After the hello frame,
 * every text frame is one ACP JSON-RPC message, relayed unchanged.
 */

/** Sent by the bridge as the first frame, once the agent has started. */
export interface BridgeHello {
  readonly vscodeAcpBridge: 1;
  /** The folder the agent runs in: the `cwd` for its sessions. */
  readonly cwd: string;
  readonly agent: { readonly id: string; readonly name: string };
  /** The bridge machine's kind of OS (MCP server commands are checked for it); absent from older bridges. */
  readonly os?: 'posix' | 'windows';
}

export function parseBridgeHello(text: string): BridgeHello | undefined {
  try {
    const value = JSON.parse(text) as Partial<BridgeHello> | null;
    if (value && value.vscodeAcpBridge === 1 && typeof value.cwd === 'string'
      && typeof value.agent?.id === 'string' && typeof value.agent.name === 'string') {
      const os = value.os === 'posix' || value.os === 'windows' ? { os: value.os } : {};
      return { vscodeAcpBridge: 1, cwd: value.cwd, agent: { id: value.agent.id, name: value.agent.name }, ...os };
    }
  } catch {
    // Not a hello.
  }
  return undefined;
}

/** Close codes the bridge uses (4000-4999 are free for applications). */
export const BridgeClose = {
  agentExited: 4000,
  badToken: 4001,
  unknownAgent: 4004,
  idle: 4008,
  tooManyConnections: 4029,
} as const;

/** Query parameters of the bridge URL. */
export const BRIDGE_TOKEN_PARAM = 'token';
export const BRIDGE_AGENT_PARAM = 'agent';
