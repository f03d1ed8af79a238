/**
 * Checks the built-in agent list (src/agents.ts) against the real packages: for each agent, its
 * npm package installed into a scratch folder (never globally), then its program started as the
 * list says, with a throwaway HOME and no keys, and asked `initialize`. Prints one line per agent:
 * the answer's agentInfo and auth methods and how long it took, or why it failed. Exit code 1
 * when one failed. Not part of `npm test`: the twelve packages take about 3.5 GB and minutes.
 *
 *   node test/real-agents/checkBuiltIns.mjs [id ...]      # KEEP=1 keeps the scratch folder
 *
 * Agents that need Node >= 22 get the harness's Node 24 first on PATH (test/harness/setup.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nestedNpmEnv } from '../harness/npmEnv.mjs';
import { NODE24_BIN_DIR, REPO_ROOT } from '../harness/paths.mjs';
import { offlineEnv } from './agentEnv.mjs';

const INIT_TIMEOUT_MS = 60_000;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-builtins-'));
const PATH = `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}`;

/** src/agents.ts, bundled for Node (it is TypeScript). */
async function builtInAgents() {
  const out = path.join(scratch, 'agents.mjs');
  const r = spawnSync(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'esbuild'),
    [
      path.join(REPO_ROOT, 'src/agents.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--log-level=error',
      `--outfile=${out}`,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`esbuild: ${r.stderr}`);
  return (await import(pathToFileURL(out).href)).BUILT_IN_AGENTS;
}

function install(agent, dir) {
  const started = Date.now();
  const pkg = agent.install.args.at(-1);
  const r = spawnSync('npm', ['install', '--prefix', dir, pkg, '--no-audit', '--no-fund', '--loglevel=error'], {
    encoding: 'utf8',
    timeout: 600_000,
    env: nestedNpmEnv({ PATH, HOME: path.join(dir, 'home') }),
  });
  if (r.status !== 0) {
    throw new Error(`npm install ${pkg} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  }
  return Date.now() - started;
}

/** Starts the program as the list says and waits for its answer to `initialize`. */
function initialize(agent, dir) {
  const program = path.join(dir, 'node_modules', '.bin', agent.command);
  if (!fs.existsSync(program)) return Promise.reject(new Error(`the package puts no "${agent.command}" on PATH`));
  const home = fs.mkdtempSync(path.join(dir, 'home-'));
  const env = { PATH: `${path.dirname(program)}${path.delimiter}${PATH}`, ...offlineEnv(home), ...agent.env };
  const child = spawn(program, agent.args, { cwd: home, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const started = Date.now();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t) => (stderr = (stderr + t).slice(-2000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no answer within ${INIT_TIMEOUT_MS / 1000} s`)), INIT_TIMEOUT_MS);
    const finish = (error, answer) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      if (error) {
        reject(
          new Error(`${error.message}${stderr ? `; stderr: ${stderr.trim().split('\n').slice(-2).join(' | ')}` : ''}`),
        );
      } else resolve({ ms: Date.now() - started, answer });
    };
    child.on('error', (e) => finish(e));
    child.on('exit', (code, signal) => finish(new Error(`exited (${signal ?? code}) before answering`)));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (text) => {
      out += text;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue; // not ours to judge here: the extension reports stray lines
        }
        if (message.id === 1) {
          return message.error
            ? finish(new Error(`initialize failed: ${JSON.stringify(message.error)}`))
            : finish(undefined, message.result);
        }
      }
    });
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: 1,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        },
      }) + '\n',
    );
  });
}

const wanted = process.argv.slice(2);
const agents = (await builtInAgents()).filter((a) => wanted.length === 0 || wanted.includes(a.id));
let failed = 0;
try {
  for (const agent of agents) {
    const dir = path.join(scratch, agent.id);
    try {
      const installMs = install(agent, dir);
      const { ms, answer } = await initialize(agent, dir);
      const info = answer.agentInfo
        ? `${answer.agentInfo.title ?? answer.agentInfo.name} ${answer.agentInfo.version}`
        : 'no agentInfo';
      const auth = (answer.authMethods ?? []).map((m) => m.id).join(', ') || 'none';
      process.stdout.write(
        `ok    ${agent.id}: ${[agent.command, ...agent.args].join(' ')} -> ${info}, protocol ${answer.protocolVersion}, sign-in: ${auth}; initialize ${ms} ms, install ${(installMs / 1000).toFixed(1)} s\n`,
      );
    } catch (error) {
      failed++;
      process.stdout.write(`FAIL  ${agent.id}: ${error.message}\n`);
    }
    if (process.env.KEEP !== '1') fs.rmSync(dir, { recursive: true, force: true });
  }
} finally {
  if (process.env.KEEP !== '1') fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(failed > 0 ? 1 : 0);
