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
import { performance } from 'node:perf_hooks';
import { REAL_AGENTS } from '../real-agents/agents.mjs';
import { CLIENT_CAPABILITIES, connectAgent } from '../real-agents/sdkConnection.mjs';
import { median } from './report.mjs';

const CONNECT_TIMEOUT_MS = 120_000;

/** One connect: spawn, initialize, session/new; then the process group is ended. */
async function connectOnce(spec) {
  const { connection, workspace, spawnedAt: started, close } = await connectAgent(spec, { name: 'vscode-acp-bench' });
  let timer;
  try {
    const timeout = new Promise(
      (_, reject) =>
        (timer = setTimeout(
          () => reject(new Error(`no session within ${CONNECT_TIMEOUT_MS / 1000} s`)),
          CONNECT_TIMEOUT_MS,
        )),
    );
    await Promise.race([
      connection.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: CLIENT_CAPABILITIES,
      }),
      timeout,
    ]);
    const initializeMs = performance.now() - started;
    await Promise.race([connection.agent.request('session/new', { cwd: workspace, mcpServers: [] }), timeout]);
    return { initializeMs, connectMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
    await close();
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
  for (const f of Object.values(figures)) {
    log(
      `  ${f.name.padEnd(12)} connect ${String(f.connectMs).padStart(5)} ms (initialize answered at ${f.initializeMs} ms); per run ${f.perRun.join(', ')} ms`,
    );
  }
}
