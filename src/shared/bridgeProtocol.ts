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
    if (
      value &&
      value.vscodeAcpBridge === 1 &&
      typeof value.cwd === 'string' &&
      typeof value.agent?.id === 'string' &&
      typeof value.agent.name === 'string'
    ) {
      const os = value.os === 'posix' || value.os === 'windows' ? { os: value.os } : {};
      return { vscodeAcpBridge: 1, cwd: value.cwd, agent: { id: value.agent.id, name: value.agent.name }, ...os };
    }
  } catch {
    // Not a hello.
  }
  return undefined;
}

/**
 * Sent by the bridge as the last frame when the agent has ended, just
 * before it closes the socket with `agentExited` (a close reason holds at
 * most 123 bytes: the last stderr line at best). The client words it with
 * the agent's own name.
 */
export interface BridgeExit {
  readonly vscodeAcpBridge: 1;
  readonly exit: {
    readonly code: number | null;
    readonly signal: string | null;
    /** The agent's last stderr lines. */
    readonly stderrTail?: string;
  };
}

/** A bridge exit frame (already parsed from JSON), or undefined. */
export function parseBridgeExit(value: unknown): BridgeExit | undefined {
  if (typeof value !== 'object' || value === null || (value as { vscodeAcpBridge?: unknown }).vscodeAcpBridge !== 1) {
    return undefined;
  }
  const exit = (value as { exit?: unknown }).exit as Record<string, unknown> | undefined;
  if (typeof exit !== 'object' || exit === null) return undefined;
  const code = Number.isInteger(exit.code) ? (exit.code as number) : null;
  const signal = typeof exit.signal === 'string' ? exit.signal.slice(0, 32) : null;
  const stderrTail =
    typeof exit.stderrTail === 'string' && exit.stderrTail !== ''
      ? exit.stderrTail.slice(-MAX_STDERR_TAIL_CHARS)
      : undefined;
  return { vscodeAcpBridge: 1, exit: { code, signal, ...(stderrTail ? { stderrTail } : {}) } };
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
  agentExited: 4000,
  badToken: 4001,
  unknownAgent: 4004,
  idle: 4008,
  tooManyConnections: 4029,
} as const;

/** Query parameters of the bridge URL. */
export const BRIDGE_TOKEN_PARAM = 'token';
export const BRIDGE_AGENT_PARAM = 'agent';
