/**
 * The bridge's command line. The agents it may run are fixed here, at start:
 * a client picks among them by id and can never send a command line.
 */
import { BUILT_IN_AGENTS } from '../../src/agents/agents';

/** Largest frame accepted from a client, and the largest line relayed from an agent. */
export { MAX_MESSAGE_BYTES } from '../agentOutput/messageLimit';

export interface BridgeAgent {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

export interface BridgeOptions {
  readonly host: string;
  readonly port: number;
  readonly agents: readonly BridgeAgent[];
  readonly cwd: string;
  readonly allowRemote: boolean;
  readonly extraOrigins: readonly string[];
  readonly maxConnections: number;
  /** A connection with no message either way for this long is closed. */
  readonly idleTimeoutSeconds: number;
}

export const USAGE = `Usage: vscode-acp-bridge [options] (--agent <id> ... | -- <command> [args...])

Runs an ACP agent for VS Code for the Web, one process per connection.

  --agent <id>          a built-in agent: ${BUILT_IN_AGENTS.map((a) => a.id).join(', ')} (repeatable)
  -- <command> [args]   any ACP agent command (started without a shell)
  --port <n>            port to listen on (default 7878; 0 picks a free one)
  --host <address>      address to listen on (default 127.0.0.1)
  --allow-remote        needed to listen on a non-loopback address (not recommended)
  --cwd <dir>           folder the agent works in (default: the current folder)
  --allow-origin <o>    also accept WebSocket connections from this origin (repeatable)
  --max-connections <n> at most this many agents at once (default 4)
  --idle-timeout <s>    close a connection silent for this many seconds (default 1800)
`;

export class UsageError extends Error {}

export function parseBridgeArgs(argv: readonly string[], cwd: string): BridgeOptions {
  const agents: BridgeAgent[] = [];
  const extraOrigins: string[] = [];
  let host = '127.0.0.1';
  let port = 7878;
  let allowRemote = false;
  let dir = cwd;
  let maxConnections = 4;
  let idleTimeoutSeconds = 1800;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--': {
        const [command, ...args] = argv.slice(i + 1);
        if (!command) throw new UsageError('-- must be followed by the agent command');
        agents.push({ id: 'custom', name: command.split(/[\\/]/).pop() ?? command, command, args });
        i = argv.length;
        break;
      }
      case '--agent': {
        const id = value();
        const known = BUILT_IN_AGENTS.find((a) => a.id === id);
        if (!known) throw new UsageError(`unknown agent "${id}"`);
        agents.push({ id: known.id, name: known.name, command: known.command, args: known.args });
        break;
      }
      case '--port':
        port = intArg(arg, value(), 0, 65535);
        break;
      // An IPv6 address may be given as in a URL ([::1]); listen() takes it bare.
      case '--host':
        host = value().replace(/^\[(.*)\]$/, '$1');
        break;
      case '--allow-remote':
        allowRemote = true;
        break;
      case '--cwd':
        dir = value();
        break;
      case '--allow-origin':
        extraOrigins.push(value());
        break;
      case '--max-connections':
        maxConnections = intArg(arg, value(), 1, 64);
        break;
      case '--idle-timeout':
        idleTimeoutSeconds = intArg(arg, value(), 1, 7 * 24 * 3600);
        break;
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown option ${arg}`);
    }
  }
  if (agents.length === 0) throw new UsageError('name an agent with --agent <id> or -- <command>');
  if (!isLoopback(host) && !allowRemote) {
    throw new UsageError(`refusing to listen on ${host}: only loopback is allowed without --allow-remote`);
  }
  return { host, port, agents, cwd: dir, allowRemote, extraOrigins, maxConnections, idleTimeoutSeconds };
}

function intArg(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}`);
  }
  return n;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
