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
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CACHE, NODE24 } from '../harness/paths.mjs';
import { installedVersion, installPinned } from './pinnedInstall.mjs';
import { offlineEnv } from './agentEnv.mjs';

/** Pinned: bump deliberately (and re-run the real-agent test). */
export const CLAUDE_AGENT_PACKAGE = '@agentclientprotocol/claude-agent-acp';
export const CLAUDE_AGENT_VERSION = '0.101.0';
export const CLAUDE_AGENT_DIR = path.join(CACHE, 'claude-agent-acp');
export const CLAUDE_AGENT_PKG = path.join(CLAUDE_AGENT_DIR, 'node_modules', ...CLAUDE_AGENT_PACKAGE.split('/'));
/** The agent's entry script: run it as `NODE24 CLAUDE_AGENT_ENTRY` (stdio ACP). */
export const CLAUDE_AGENT_ENTRY = path.join(CLAUDE_AGENT_PKG, 'dist', 'index.js');
/** The node that runs the agent. */
export const CLAUDE_AGENT_NODE = NODE24;

/** The native CLI the agent runs: it must exist and start. */
function cliWorks() {
  const dir = path.join(CLAUDE_AGENT_DIR, 'node_modules', '@anthropic-ai');
  const cli = ['linux-x64', 'linux-arm64', 'linux-x64-musl', 'linux-arm64-musl']
    .map((platform) => path.join(dir, `claude-agent-sdk-${platform}`, 'claude'))
    .find((file) => existsSync(file));
  if (!cli) return false;
  const home = mkdtempSync(path.join(os.tmpdir(), 'acp-claude-check-'));
  try {
    const r = spawnSync(cli, ['--version'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env.PATH, HOME: home, IS_SANDBOX: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' },
    });
    return r.status === 0 && /Claude Code/.test(r.stdout);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Installs the pinned agent into $CACHE/claude-agent-acp unless it is there already.
 * Needs the harness's Node 24 (test/harness/setup.mjs installs it first).
 */
export function installClaudeAgent() {
  return installPinned({
    label: 'claude-agent-acp',
    dir: CLAUDE_AGENT_DIR,
    spec: `${CLAUDE_AGENT_PACKAGE}@${CLAUDE_AGENT_VERSION}`,
    stamp: CLAUDE_AGENT_VERSION,
    node24: true,
    isInstalled: async () =>
      (await installedVersion(CLAUDE_AGENT_DIR, CLAUDE_AGENT_PACKAGE)) === CLAUDE_AGENT_VERSION &&
      existsSync(CLAUDE_AGENT_ENTRY),
    works: async () => cliWorks(),
  });
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
];

/**
 * The agent's environment: a throwaway HOME, the fake endpoint, and everything that keeps
 * Claude Code offline and quiet (no telemetry, error reports, update checks, feature flags,
 * plugin marketplace, memory files, cost warnings).
 */
export function claudeAgentEnv({ home, baseUrl }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    CLAUDE_CONFIG_DIR: path.join(home, '.claude'),
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
    // The agent inherits the extension host's environment: neutralise what a developer's shell
    // could carry into it (other providers, tokens, models, a proxy for 127.0.0.1).
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
