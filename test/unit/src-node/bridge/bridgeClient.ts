/**
 * What the bridge's unit tests share: the options of a bridge on loopback,
 * an allowed origin, the test agent and its first ACP requests, and how a
 * socket closed.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type WebSocket from 'ws';
import type { BridgeAgent, BridgeOptions } from '../../../../src-node/bridge/options';

export const ORIGIN = 'http://localhost:3000';
/** The scripted test agent (its bundle beside this one) and its scenario files. */
export const agentJs = path.resolve(__dirname, 'agent.js');
export const scenarios = path.resolve(__dirname, '../../test/agent/scenarios');

export const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
});
export const newSession = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'session/new',
  params: { cwd: '/tmp', mcpServers: [] },
});

/** A bridge on 127.0.0.1, any free port, for `agents`; `more` overrides the rest. */
export function loopbackBridge(agents: BridgeAgent[], more: Partial<BridgeOptions> = {}): BridgeOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    cwd: os.tmpdir(),
    allowRemote: false,
    extraOrigins: [],
    maxConnections: 2,
    idleTimeoutSeconds: 60,
    agents,
    ...more,
  };
}

/** How `ws` closes: its code and reason. */
export function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
