/**
 * Claude Code's ACP agent (@agentclientprotocol/claude-agent-acp), installed into the test cache
 * (never into the project's node_modules) and run with the harness's Node 24.
 *
 * Version: the newest release needs Node >= 22 (npm on the machines' Node 20 would silently pick
 * 0.49), so it is installed with Node 24 first on PATH and always run with Node 24 (NODE24). It
 * brings the native Claude Code CLI as the optional dependency
 * @anthropic-ai/claude-agent-sdk-linux-x64 (no install scripts, no download at run time).
 *
 *   import { installClaudeAgent } from './test/real-agents/claudeAgent.mjs';
 *   await installClaudeAgent();   // idempotent: ~0 s when done, ~20 s cold
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { nestedNpmEnv } from '../harness/npmEnv.mjs';
import { CACHE, MARKERS, NODE24, NODE24_BIN_DIR } from '../harness/paths.mjs';

/** Pinned: bump deliberately (and re-run the real-agent test). */
export const CLAUDE_AGENT_PACKAGE = '@agentclientprotocol/claude-agent-acp';
export const CLAUDE_AGENT_VERSION = '0.101.0';
export const CLAUDE_AGENT_DIR = path.join(CACHE, 'claude-agent-acp');
export const CLAUDE_AGENT_PKG = path.join(CLAUDE_AGENT_DIR, 'node_modules', ...CLAUDE_AGENT_PACKAGE.split('/'));
/** The agent's entry script: run it as `NODE24 CLAUDE_AGENT_ENTRY` (stdio ACP). */
export const CLAUDE_AGENT_ENTRY = path.join(CLAUDE_AGENT_PKG, 'dist', 'index.js');
/** The node that runs the agent. */
export const CLAUDE_AGENT_NODE = NODE24;

const MARKER = path.join(MARKERS, 'claude-agent-acp.json');

function log(line) {
  process.stderr.write(`[claude-agent] ${line}\n`);
}

async function installedVersion() {
  try {
    return JSON.parse(await fs.readFile(path.join(CLAUDE_AGENT_PKG, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** The native CLI the agent runs: it must exist and start. */
function cliWorks() {
  const dir = path.join(CLAUDE_AGENT_DIR, 'node_modules', '@anthropic-ai');
  const cli = ['linux-x64', 'linux-arm64', 'linux-x64-musl', 'linux-arm64-musl']
    .map((platform) => path.join(dir, `claude-agent-sdk-${platform}`, 'claude'))
    .find((file) => existsSync(file));
  if (!cli) return false;
  const home = mkdtempSync(path.join(os.tmpdir(), 'acp-claude-check-'));
  try {
    const r = spawnSync(cli, ['--version'], { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env.PATH, HOME: home, IS_SANDBOX: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' } });
    return r.status === 0 && /Claude Code/.test(r.stdout);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Cheap check (no process) when the marker says done; the full one after an install. */
async function check({ full }) {
  if ((await installedVersion()) !== CLAUDE_AGENT_VERSION || !existsSync(CLAUDE_AGENT_ENTRY)) return false;
  if (!full) {
    try {
      return JSON.parse(await fs.readFile(MARKER, 'utf8')).stamp === CLAUDE_AGENT_VERSION;
    } catch {
      return false;
    }
  }
  return cliWorks();
}

function run(cmd, args, options) {
  return new Promise((resolve, reject) => {
    log(`$ ${cmd} ${args.join(' ')}   (in ${options.cwd})`);
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`))));
  });
}

/**
 * Installs the pinned agent into $CACHE/claude-agent-acp unless it is there already.
 * Needs the harness's Node 24 (test/harness/setup.mjs installs it first).
 */
export async function installClaudeAgent() {
  const start = Date.now();
  if (await check({ full: false })) {
    log(`${CLAUDE_AGENT_PACKAGE}@${CLAUDE_AGENT_VERSION}: done already (${Date.now() - start} ms)`);
    return;
  }
  if (!existsSync(NODE24)) throw new Error(`Node 24 is missing (${NODE24}): run node test/harness/setup.mjs first`);
  await fs.mkdir(CLAUDE_AGENT_DIR, { recursive: true });
  await fs.writeFile(path.join(CLAUDE_AGENT_DIR, 'package.json'), JSON.stringify({ name: 'vscode-acp-claude-agent', private: true }, null, 2) + '\n');
  // Node 24 first on PATH: npm checks `engines` (node >= 22) against the node it runs on.
  const env = nestedNpmEnv({ PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH ?? ''}` });
  await run('npm', ['install', '--save-exact', `${CLAUDE_AGENT_PACKAGE}@${CLAUDE_AGENT_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: CLAUDE_AGENT_DIR, env });
  if (!(await check({ full: true }))) throw new Error(`${CLAUDE_AGENT_PACKAGE}@${CLAUDE_AGENT_VERSION} installed, but the check still fails (entry ${CLAUDE_AGENT_ENTRY})`);
  await fs.mkdir(MARKERS, { recursive: true });
  await fs.writeFile(MARKER, JSON.stringify({ stamp: CLAUDE_AGENT_VERSION, at: new Date().toISOString() }) + '\n');
  log(`${CLAUDE_AGENT_PACKAGE}@${CLAUDE_AGENT_VERSION}: installed in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

/** Variables set empty in the agent's environment (empty counts as unset for Claude Code). */
const INHERITED_TO_CLEAR = [
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_MODEL',
  'ANTHROPIC_SMALL_FAST_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
  'ANTHROPIC_CUSTOM_HEADERS',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'CLAUDE_CODE_USE_FOUNDRY',
  'CLAUDE_CODE_EXECUTABLE',
  'CLAUDE_AGENT_LOGS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
];

/**
 * The agent's environment: a throwaway HOME, the fake endpoint, and everything that keeps
 * Claude Code offline and quiet (no telemetry, error reports, update checks, feature flags,
 * plugin marketplace, memory files, cost warnings).
 */
export function claudeAgentEnv({ home, baseUrl }) {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'x',
    // Claude Code refuses to skip permissions as root unless it is told it runs in a sandbox;
    // the adapter reads it too.
    IS_SANDBOX: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    DISABLE_GROWTHBOOK: '1',
    DISABLE_INSTALLATION_CHECKS: '1',
    DISABLE_COST_WARNINGS: '1',
    DISABLE_AUTO_COMPACT: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_DISABLE_AUTO_MEMORY: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
    // One extra model call after every turn, to predict the user's next prompt.
    CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
    CLAUDE_CODE_ENABLE_TELEMETRY: '0',
    NO_COLOR: '1',
    // The agent inherits the extension host's environment: neutralise what a developer's shell
    // could carry into it (other providers, tokens, models, a proxy for 127.0.0.1).
    ...Object.fromEntries(INHERITED_TO_CLEAR.map((name) => [name, ''])),
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
  };
}

/** The user settings in the throwaway HOME: ask before edits and commands. */
export const AGENT_SETTINGS = { permissions: { defaultMode: 'default' }, promptSuggestionEnabled: false };

/** A throwaway HOME for one agent run (the caller removes it). */
export async function makeAgentHome(prefix = 'acp-claude-home-') {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  await fs.mkdir(path.join(home, '.claude'), { recursive: true });
  // Without a defaultMode the session starts in `auto` (a model classifier decides, no prompt).
  await fs.writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify(AGENT_SETTINGS, null, 2) + '\n');
  return home;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await installClaudeAgent();
}
