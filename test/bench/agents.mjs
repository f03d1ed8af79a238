/**
 * Connect time per real agent: from starting its process to its session
 * being ready (the `session/new` answer), as the extension connects (the
 * same launch, environment and `initialize` capabilities), each agent
 * against its fake model from test/real-agents/ with a throwaway HOME. Also
 * split: process start to the `initialize` answer. `runs` connects per
 * agent, each a new process in a new workspace; the median is reported. No
 * goal: a figure to watch (the agents' own start-up dominates it).
 *
 * `benchAgents({ runs, log })` returns `{ <id>: { connectMs, initializeMs, perRun } }`.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { REAL_AGENTS } from '../real-agents/agents.mjs';
import { median } from './report.mjs';

const CONNECT_TIMEOUT_MS = 120_000;

/** One connect: spawn, initialize, session/new; then the process group is ended. */
async function connectOnce(spec) {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-agent-ws-')));
  const { fake, home, agent } = await spec.start({ workspace, log: () => undefined });
  let child;
  try {
    const started = performance.now();
    child = spawn(agent.command, agent.args, { cwd: workspace, env: { ...process.env, ...agent.env }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    const connection = acp.client({ name: 'vscode-acp-bench' })
      .onNotification('session/update', () => undefined)
      .onRequest('session/request_permission', () => ({ outcome: { outcome: 'cancelled' } }))
      .connect(acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
    const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`no session within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS).unref());
    const capabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
    await Promise.race([connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities }), timeout]);
    const initializeMs = performance.now() - started;
    await Promise.race([connection.agent.request('session/new', { cwd: workspace, mcpServers: [] }), timeout]);
    return { initializeMs, connectMs: performance.now() - started };
  } finally {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    await fake.close();
    for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x) => Math.round(x);

export async function benchAgents({ runs = 3, log = () => undefined } = {}) {
  const out = {};
  for (const [id, spec] of Object.entries(REAL_AGENTS)) {
    await spec.install();
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await connectOnce(spec));
    out[id] = {
      name: spec.name,
      connectMs: round(median(results.map((r) => r.connectMs))),
      initializeMs: round(median(results.map((r) => r.initializeMs))),
      perRun: results.map((r) => round(r.connectMs)),
    };
    log(`agents: ${id} connect ${out[id].perRun.join(', ')} ms`);
  }
  return out;
}

export function printAgents(figures, log = console.log) {
  log('\nReal agents, process start to session ready (session/new answered), each against its fake model; medians:');
  for (const f of Object.values(figures)) log(`  ${f.name.padEnd(12)} connect ${String(f.connectMs).padStart(5)} ms (initialize answered at ${f.initializeMs} ms); per run ${f.perRun.join(', ')} ms`);
}
