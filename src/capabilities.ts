/**
 * The one place where what the host can do becomes what the client offers:
 * the capabilities advertised in `initialize` and the handlers registered.
 *
 * | host                                   | fs read | fs write        | terminals | checkpoints (Changes bar) |
 * | -------------------------------------- | ------- | --------------- | --------- | ------------------------- |
 * | desktop Node, Linux                    | yes     | yes             | yes       | yes                       |
 * | desktop Node, macOS / Windows          | yes     | no (no fd walk) | yes       | no (no fd walk)           |
 * | remote Node (SSH, Codespaces, WSL, ..) | as the remote machine's OS (usually Linux)                 |
 * | web worker, agent behind the bridge    | no      | no              | no        | no (the agent's files are on the bridge's machine) |
 * | any host, untrusted workspace or no    | no      | no              | no        | no                        |
 * | local (`file:`) folder                 |         |                 |           |                           |
 *
 * "yes" always means: inside the trusted local workspace folders only.
 * Elicitation (the agent's questions: forms, and URLs opened through VS
 * Code's external opener) is offered on every host: the chat shows them.
 * Terminals are offered once their handlers exist (see `terminalsReady`).
 */
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { HostCapabilities } from './platform';

/** What a host knows about itself; each entry fills these in. */
export interface HostFacts {
  readonly kind: 'node' | 'web';
  /** `vscode.env.remoteName` (undefined on a desktop). */
  readonly remoteName: string | undefined;
  readonly trusted: boolean;
  /** At least one workspace folder is a `file:` folder on this machine. */
  readonly localFolder: boolean;
  /** The Linux descriptor walk works here (safe writes). */
  readonly descriptorWalk: boolean;
  /** The terminal handlers are available on this host. */
  readonly terminalsReady: boolean;
}

export function hostCapabilities(facts: HostFacts): HostCapabilities {
  const local = facts.kind === 'node' && facts.trusted && facts.localFolder;
  return {
    kind: facts.kind,
    fileRead: local,
    fileWrite: local && facts.descriptorWalk,
    terminals: local && facts.terminalsReady,
    // The agent's own program, which this host starts anyway: trust does not change it.
    signInTerminal: facts.kind === 'node',
    // Files are put back only through the descriptor walk, as agents' writes are.
    checkpoints: local && facts.descriptorWalk,
    elicitation: true,
    // A web worker has no environment: the bridge's agent reads its own where it runs.
    localEnv: facts.kind === 'node',
    // Served on this machine's loopback, with the tools' paths held to the trusted local folders; on the web, by the
    // bridge next to the agent, each call answered here about the trusted workspace (forRemoteAgent, agentConnection).
    editorServer: local || (facts.kind === 'web' && facts.trusted),
  };
}

/**
 * What Restricted Mode turns off in the chat on a `kind` host, as the chat
 * says it until the folder is trusted. On the web the agent works next to
 * the bridge with its own tools, so only attaching is off.
 */
export function restrictedModeText(kind: 'node' | 'web'): string {
  return kind === 'node'
    ? "Restricted Mode: agents' file access, terminals and attachments are off."
    : 'Restricted Mode: attachments are off.';
}

/**
 * What an agent served elsewhere is offered: its files are where it runs, not here (what needs them is off), and
 * no value of this machine's environment goes to it in MCP server settings. `relaysEditor`: its bridge serves the
 * editor server next to it and asks this host each call (its initialize answer says so).
 */
export function forRemoteAgent(host: HostCapabilities, relaysEditor = false): HostCapabilities {
  return {
    ...host,
    fileRead: false,
    fileWrite: false,
    terminals: false,
    checkpoints: false,
    signInTerminal: false,
    localEnv: false,
    // This machine's loopback is not the agent's: only a bridge that relays the calls serves it, on the web host.
    editorServer: relaysEditor && host.kind === 'web' && host.editorServer,
  };
}

const SESSION_CAPABILITIES = { notices: {}, compaction: {}, configOptions: { boolean: {} }, plan: {} };

export function clientCapabilities(host: HostCapabilities): ClientCapabilities {
  return {
    fs: { readTextFile: host.fileRead, writeTextFile: host.fileWrite },
    terminal: host.terminals,
    auth: { terminal: host.signInTerminal },
    ...(host.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    // Every host shows notices and compactions in the chat, boolean options as switches (threadReducer, the
    // controls) and the session's plans by id (plan operations: `plan`, in the unstable schema only).
    session: SESSION_CAPABILITIES,
    // Agents that run shell commands themselves (Claude Code, Codex) stream
    // their output in tool call `_meta` only when asked to; we show it. The
    // legacy form of terminal sign-in is offered only when asked for too.
    // Claude Code sends a subagent's text and thinking (not only its tool
    // calls) when asked: shown inside the call that started it (subagents.ts).
    _meta: {
      terminal_output: true,
      'subagent-transcript': true,
      ...(host.signInTerminal ? { 'terminal-auth': true } : {}),
    },
  };
}
