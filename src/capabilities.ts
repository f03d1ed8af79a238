/**
 * The one place where what the host can do becomes what the client tells the
 * agent in `initialize`.
 */
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { HostCapabilities } from './platform';

export function clientCapabilities(host: HostCapabilities): ClientCapabilities {
  return {
    fs: { readTextFile: host.fileRead, writeTextFile: host.fileWrite },
    terminal: host.terminals,
    // Agents that run shell commands themselves (Claude Code, Codex) stream
    // their output in tool call `_meta` only when asked to; we show it.
    _meta: { terminal_output: true },
  };
}
