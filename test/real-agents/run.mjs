/**
 * Real agents through the extension, in code-server's Node extension host: Claude Code's ACP agent
 * against the local fake Anthropic endpoint, asking permission for its tools.
 *
 *   node test/real-agents/run.mjs [--bundle FILE] [--keep]
 *
 * --bundle: the in-host test bundle (CommonJS, exports run()), built from
 *   test/integration/real/index.ts; default dist/real/test/index.js (webpack `tests-real-agents`).
 *   By hand: node_modules/.bin/esbuild test/integration/real/index.ts --bundle --platform=node \
 *     --format=cjs --external:vscode --external:mocha --outfile=/tmp/acp-real/index.js
 * --keep (or HARNESS_KEEP=1): keep the workspace and the agent's HOME.
 *
 * Steps: install the pinned agent (idempotent), start the fake endpoint, make a workspace and a
 * throwaway HOME, run the tests (the agent setting is made inside the host from ACP_REAL_AGENT),
 * then end any agent process of this run still alive, stop the endpoint, remove the temp dirs.
 * Exit code: the harness's (0 pass, 1 fail, 124 timeout, 2 harness error).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../harness/paths.mjs';
import { CLAUDE_AGENT_ENTRY, CLAUDE_AGENT_NODE, CLAUDE_AGENT_VERSION, claudeAgentEnv, installClaudeAgent, makeAgentHome } from './claudeAgent.mjs';
import { startFakeAnthropic } from './fakeAnthropic.mjs';
import { scenario, scriptRules } from './script.mjs';

export const DEFAULT_BUNDLE = path.join(REPO_ROOT, 'dist/real/test/index.js');
/** Marks the agent processes of one run, so that the runner can find leftovers by pid. */
const RUN_MARK = 'VSCODE_ACP_REAL_AGENT_RUN';

function log(line) {
  process.stderr.write(`[real-agents] ${line}\n`);
}

/**
 * @param {{ bundle?: string, keep?: boolean, timeoutMs?: number, verbose?: boolean }} [options]
 * @returns {Promise<number>} exit code
 */
export async function runRealAgentTests({ bundle = DEFAULT_BUNDLE, keep = !!process.env.HARNESS_KEEP, timeoutMs = 300_000, verbose = !!process.env.HARNESS_VERBOSE } = {}) {
  const started = Date.now();
  bundle = path.resolve(bundle);
  if (!fs.existsSync(bundle)) {
    log(`no test bundle at ${bundle} (npm run build, or pass --bundle)`);
    return 2;
  }
  await installClaudeAgent();
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-real-ws-')));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# real-agent test workspace\n');
  const home = await makeAgentHome();
  const runId = randomUUID();
  const fakeLines = [];
  const fake = await startFakeAnthropic({
    rules: scriptRules(workspace),
    log: (line) => {
      fakeLines.push(line);
      if (verbose) process.stderr.write(`[fake-anthropic] ${line}\n`);
    },
  });
  try {
    const config = {
      agentId: 'claude-real',
      agent: {
        name: 'Claude Code (fake model)',
        command: CLAUDE_AGENT_NODE,
        args: [CLAUDE_AGENT_ENTRY],
        env: { ...claudeAgentEnv({ home, baseUrl: fake.url }), [RUN_MARK]: runId },
      },
      agentVersion: CLAUDE_AGENT_VERSION,
      fakeUrl: fake.url,
      scenario: scenario(workspace),
    };
    log(`workspace ${workspace}, agent HOME ${home}, fake model ${fake.url}`);
    const { runNodeHostTests } = await import('../harness/code-server.mjs');
    const code = await runNodeHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: bundle,
      folder: workspace,
      env: { ACP_REAL_AGENT: JSON.stringify(config) },
      timeoutMs,
    });
    const messages = fake.messageLog();
    log(`the fake model answered ${messages.length} requests: ${messages.map((m) => m.answered).join(', ')}`);
    const unknown = fakeLines.filter((l) => l.startsWith('unknown request'));
    if (unknown.length) log(`requests the fake endpoint did not know:\n  ${unknown.join('\n  ')}`);
    if (code !== 0 && !verbose) log(`fake endpoint log:\n  ${fakeLines.join('\n  ')}`);
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}`);
    return code;
  } finally {
    await endLeftoverAgents(runId);
    await fake.close();
    if (keep) log(`kept ${workspace} and ${home}`);
    else for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Pids of live processes whose environment carries this run's mark (the agents and their children). */
function markedPids(runId) {
  const needle = `${RUN_MARK}=${runId}`;
  const pids = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(needle)) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** The extension ends its agents itself; this only catches what a crashed or timed-out run left. */
async function endLeftoverAgents(runId) {
  if (process.platform !== 'linux') return;
  let pids = markedPids(runId);
  if (!pids.length) return;
  log(`ending ${pids.length} agent process(es) left by the run: ${pids.join(' ')}`);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
  }
  for (let i = 0; i < 30 && (pids = markedPids(runId)).length; i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--bundle');
  const bundle = at >= 0 ? args[at + 1] : undefined;
  if (at >= 0 && !bundle) {
    process.stderr.write('--bundle needs a file\n');
    process.exit(2);
  }
  const code = await runRealAgentTests({ bundle, keep: args.includes('--keep') || undefined });
  process.exit(code);
}
