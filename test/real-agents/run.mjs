/**
 * Real agents through the extension, in code-server's Node extension host: each agent of
 * agents.mjs against its own local fake model, one code-server run per agent, the same suite
 * (test/integration/real/agent.test.ts) for each.
 *
 *   node test/real-agents/run.mjs [--bundle FILE] [--keep] [--agents claude,opencode]
 *
 * --bundle: the in-host test bundle (CommonJS, exports run()), built from
 *   test/integration/real/index.ts; default dist/real/test/index.js (webpack `tests-real-agents`).
 * --agents (or ACP_REAL_AGENTS): which agents, by id (default: all of agents.mjs), and `claude+codex` for the two
 *   side by side (run by default).
 * --keep (or HARNESS_KEEP=1): keep each workspace and agent HOME.
 *
 * Per agent: install it (idempotent), start its fake model, make a workspace and a throwaway HOME,
 * run the suite (the agent setting is made inside the host from ACP_REAL_AGENT), then end any
 * process of that agent still alive (a failure: the extension ends its agents itself), stop the
 * endpoint, remove the temp dirs. The fake model must only have been asked what it knows. Then,
 * outside VS Code, the agent must hold two sessions on one process apart (twoSessions.mjs).
 * Claude Code and Codex run once more side by side, each in a worktree (worktreePair.mjs).
 * OpenCode runs once more on VS Code for the Web, behind the real bridge (webHost.mjs).
 * Prints each agent's connect time (`CONNECT <id> <ms>` from the suite) and a summary.
 * Exit code: 0 when every agent passed, else the first failing agent's (1 fail, 124 timeout, 2 harness error).
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../harness/paths.mjs';
import { REAL_AGENTS } from './agents.mjs';
import { secondFolder } from './script.mjs';
import { filesUnder } from '../harness/canaries.mjs';
import { checkTwoSessions } from './twoSessions.mjs';
import { runWebEditorTest } from './webHost.mjs';
import { PAIR_ID, runWorktreePair } from './worktreePair.mjs';

/** The agents also run on VS Code for the Web, behind the bridge: one is enough to show the relay with a real agent. */
const WEB_AGENTS = ['opencode'];

export const DEFAULT_BUNDLE = path.join(REPO_ROOT, 'dist/real/test/index.js');
/** Marks the agent processes of one run, so that leftovers can be found by pid. */
const RUN_MARK = 'VSCODE_ACP_REAL_AGENT_RUN';

function log(line) {
  process.stderr.write(`[real-agents] ${line}\n`);
}

/**
 * @param {{ bundle?: string, keep?: boolean, agents?: string[], timeoutMs?: number, verbose?: boolean }} [options]
 * @returns {Promise<number>} exit code
 */
export async function runRealAgentTests({
  bundle = DEFAULT_BUNDLE,
  keep = !!process.env.HARNESS_KEEP,
  agents,
  timeoutMs = 300_000,
  verbose = !!process.env.HARNESS_VERBOSE,
} = {}) {
  bundle = path.resolve(bundle);
  if (!fs.existsSync(bundle)) {
    log(`no test bundle at ${bundle} (npm run build, or pass --bundle)`);
    return 2;
  }
  const asked = agents ?? process.env.ACP_REAL_AGENTS?.split(',').filter(Boolean);
  const ids = (asked ?? Object.keys(REAL_AGENTS)).filter((id) => id !== PAIR_ID);
  const unknown = ids.filter((id) => !Object.hasOwn(REAL_AGENTS, id));
  if (unknown.length) {
    log(`unknown agent(s) ${unknown.join(', ')}: use ${Object.keys(REAL_AGENTS).join(', ')}`);
    return 2;
  }
  const results = [];
  for (const id of ids) results.push({ id, ...(await runOne(id, { bundle, keep, timeoutMs, verbose })) });
  // Two of them side by side, each in a worktree of its own (issue 49).
  if (asked ? asked.includes(PAIR_ID) : true) {
    results.push({ id: PAIR_ID, code: await runWorktreePair({ bundle, timeoutMs, keep, log, endLeftovers }) });
  }
  // VS Code for the Web: the agent behind the real bridge, its editor server relayed to the browser (webHost.mjs).
  for (const id of ids.filter((i) => WEB_AGENTS.includes(i))) {
    results.push({ id: `${id} (web)`, code: await runWebEditorTest(id, { keep, timeoutMs, log }) });
  }
  log(
    `summary: ${results.map((r) => `${r.id} ${r.code === 0 ? 'passed' : `FAILED (exit ${r.code})`}${r.connectMs ? `, connect ${r.connectMs} ms` : ''}`).join('; ')}`,
  );
  return results.find((r) => r.code !== 0)?.code ?? 0;
}

/**
 * A second window, of two folders (the workspace and one beside it, with the file the scenario reads there), for
 * an agent that takes more than one (`additionalDirectories`): test/integration/real/folders.test.ts.
 */
async function runTwoFolders(workspace, config, bundle, timeoutMs) {
  const second = secondFolder(workspace);
  const read = config.scenario.readSecond;
  fs.mkdirSync(second, { recursive: true });
  fs.writeFileSync(read.file, read.content);
  const workspaceFile = path.join(path.dirname(workspace), `${path.basename(workspace)}.code-workspace`);
  fs.writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: workspace }, { path: second }] }));
  const { runNodeHostTests } = await import('../harness/code-server.mjs');
  try {
    return await runNodeHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: bundle,
      folder: workspaceFile,
      env: { ACP_REAL_AGENT: JSON.stringify(config), ACP_REAL_MODE: 'folders' },
      timeoutMs,
    });
  } finally {
    fs.rmSync(second, { recursive: true, force: true });
    fs.rmSync(workspaceFile, { force: true });
  }
}

/**
 * The methods an agent sent and the update kinds it reported, as the diagnostics channel recorded them, and the
 * protocol version of each `initialize` answer (what the agent spoke).
 */
function protocolUsed(dir) {
  const records = filesUnder([dir])
    .filter((f) => path.basename(f) === 'ACP Diagnostics.log')
    .flatMap((f) => fs.readFileSync(f, 'utf8').split('\n'))
    .map((l) => /^\S+ \S+ \[info\] (\{.*\})$/.exec(l)?.[1])
    .filter(Boolean)
    .map((j) => JSON.parse(j));
  const fromAgent = records.filter((r) => r.dir === 'in' && r.kind !== 'response');
  const methods = [...new Set(fromAgent.map((r) => r.method))].sort();
  const kinds = [...new Set(fromAgent.flatMap((r) => (r.meta?.update ? [r.meta.update] : [])))].sort();
  const versions = records
    .filter((r) => r.dir === 'in' && r.kind === 'response' && r.method === 'initialize')
    .map((r) => r.meta?.protocolVersion);
  // The editor server is declared over HTTP (an http server among the session's): how many sessions had one, and
  // which of its tools the agent called (the channel records each call's tool, never its text).
  const opened = records.filter(
    (r) =>
      r.dir === 'out' && r.kind === 'request' && ['session/new', 'session/load', 'session/resume'].includes(r.method),
  );
  const remote = opened.filter((r) => r.meta?.mcpRemote > 0).length;
  const called = [...new Set(records.flatMap((r) => (typeof r.editorTool === 'string' ? [r.editorTool] : [])))];
  return {
    text: `protocol ${[...new Set(versions)].join(', ') || '?'}; sent ${methods.join(', ') || 'nothing'}; updates ${kinds.join(', ') || 'none'}; sessions with an HTTP MCP server ${remote} of ${opened.length}; editor tools called ${called.join(', ') || 'none'}`,
    versions,
  };
}

async function runOne(agentId, { bundle, keep, timeoutMs, verbose }) {
  const spec = REAL_AGENTS[agentId];
  const started = Date.now();
  await spec.install();
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `acp-real-${agentId}-ws-`)));
  fs.writeFileSync(path.join(workspace, 'README.md'), '# real-agent test workspace\n');
  const runMark = `${RUN_MARK}=${randomUUID()}`;
  const fakeLines = [];
  const fakeLog = (line) => {
    fakeLines.push(line);
    if (verbose) process.stderr.write(`[fake ${agentId}] ${line}\n`);
  };
  const { fake, home, agent } = await spec.start({ workspace, log: fakeLog });
  let connectMs;
  try {
    const [markName, markValue] = runMark.split('=');
    const config = {
      agentId: `${agentId}-real`,
      agent: {
        name: `${spec.name} (fake model)`,
        command: agent.command,
        args: agent.args,
        env: { ...agent.env, [markName]: markValue },
      },
      fakeUrl: fake.url,
      runMark,
      scenario: spec.scenario(workspace),
      expect: spec.expect,
    };
    log(`${agentId}: workspace ${workspace}, agent HOME ${home}, fake model ${fake.url}`);
    const { runNodeHostTests } = await import('../harness/code-server.mjs');
    let code = await runNodeHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: bundle,
      folder: workspace,
      // ACP_REAL_MCP_SECRET: what an MCP server's `${env:...}` in the settings resolves to.
      env: { ACP_REAL_AGENT: JSON.stringify(config), ACP_REAL_MCP_SECRET: `mcp-secret-${randomUUID()}` },
      timeoutMs,
      // The diagnostics channel: what of the protocol this agent used, for the README's "ACP support" table.
      userSettings: { 'vscode-acp.diagnostics.enabled': true, ...spec.settings },
      onDone: async (server) => {
        const used = protocolUsed(server.tmpDir);
        log(`${agentId}: ${used.text}`);
        const wanted = spec.expect.protocolVersion;
        if (wanted && (used.versions.length === 0 || used.versions.some((v) => v !== wanted))) {
          log(`${agentId}: FAIL: the agent was to speak ACP version ${wanted}`);
          return false;
        }
        return true;
      },
      onOutput: (line) => {
        const m = /CONNECT \S+ (\d+) ms/.exec(line);
        if (m) connectMs = Number(m[1]);
      },
    });
    if (spec.expect.takesFolders && code === 0) code = await runTwoFolders(workspace, config, bundle, timeoutMs);
    const asked = fakeLines.filter((l) => l.startsWith('unknown request'));
    if (asked.length) {
      log(`${agentId}: the fake model was asked what it does not know:\n  ${asked.join('\n  ')}`);
      if (code === 0) code = 1;
    }
    if (code !== 0 && !verbose) log(`${agentId}: fake endpoint log:\n  ${fakeLines.join('\n  ')}`);
    const left = await endLeftovers(runMark);
    if (left.length) {
      log(`${agentId}: ${left.length} agent process(es) outlived the run: ${left.join(' ')} (ended now)`);
      if (code === 0) code = 1;
    }
    // Chats with the same agent are to share its process: it must hold two sessions apart.
    const twoSessions = await checkTwoSessions(spec);
    log(`${agentId}: two sessions on one process, prompted at once: ${twoSessions ?? 'each got its own reply'}`);
    if (twoSessions && code === 0) code = 1;
    log(`${agentId}: done in ${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code}`);
    return { code, connectMs };
  } finally {
    await endLeftovers(runMark);
    await fake.close();
    if (keep) log(`kept ${workspace} and ${home}`);
    else for (const dir of [workspace, home]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Pids of live processes whose environment carries `mark` (the agents and their children). */
export function markedPids(mark) {
  const pids = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(mark)) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Ends what carries `mark`; returns the pids that were still alive. */
async function endLeftovers(mark) {
  if (process.platform !== 'linux') return [];
  const found = markedPids(mark);
  let pids = found;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {}
  }
  for (let i = 0; i < 30 && (pids = markedPids(mark)).length; i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  return found;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    if (!args[at + 1]) {
      process.stderr.write(`${name} needs a value\n`);
      process.exit(2);
    }
    return args[at + 1];
  };
  const bundle = option('--bundle');
  const agents = option('--agents')?.split(',');
  process.exit(await runRealAgentTests({ bundle, agents, keep: args.includes('--keep') || undefined }));
}
