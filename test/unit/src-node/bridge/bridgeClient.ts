/**
 * What the bridge's unit tests share: the options of a bridge on loopback,
 * the bridge as its own process, an allowed origin, the test agent and its
 * first ACP requests, and how a socket closed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import type WebSocket from 'ws';
import type { BridgeAgent, BridgeOptions } from '../../../../src-node/bridge/options';

export const ORIGIN = 'http://localhost:3000';
/** The scripted test agent (its bundle beside this one) and its scenario files. */
export const agentJs = path.resolve(__dirname, 'agent.js');
export const scenarios = path.resolve(__dirname, '../../test/agent/scenarios');
/** The bridge program's bundle (dist/bridge/bridge.js). */
const bridgeJs = path.resolve(__dirname, '../bridge/bridge.js');

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

/** The bridge as its own process, on a free loopback port. */
export interface BridgeProcess {
  readonly child: ChildProcess;
  /** The URL it printed, with its token. */
  readonly url: string;
  /** What it has written to stderr so far (its log; how it ended if it crashed), its last 64 KiB. */
  stderr(): string;
}

/** Starts the bridge program for the agent command line `agent`, with `options` before it; resolves with its URL. */
export function startBridgeProcess(agent: string[], options: string[] = []): Promise<BridgeProcess> {
  const child = spawn(process.execPath, [bridgeJs, '--port', '0', '--cwd', os.tmpdir(), ...options, '--', ...agent], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (err = (err + text).slice(-65_536)));
  const stderr = () => err;
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text;
      const url = /ws:\/\/\S+/.exec(out)?.[0];
      if (url) resolve({ child, url, stderr });
    });
    child.once('exit', (code) =>
      reject(new Error(`the bridge exited (${code}) before printing its URL: ${out}${err}`)),
    );
  });
}
