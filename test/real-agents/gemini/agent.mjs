/**
 * Gemini CLI (@google/gemini-cli) as an ACP agent (`gemini --acp`), installed into the test cache
 * (never into the project's node_modules) and run with the harness's Node 24.
 *
 *   node test/real-agents/gemini/agent.mjs     # install (idempotent)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE, NODE24 } from '../../harness/paths.mjs';
import { offlineEnv } from '../agentEnv.mjs';
import { installedVersion, installPinned } from '../pinnedInstall.mjs';

/** Pinned: bump deliberately (and re-run sdkClient.mjs). */
export const GEMINI_PACKAGE = '@google/gemini-cli';
export const GEMINI_VERSION = '0.61.0';
export const GEMINI_DIR = path.join(CACHE, 'gemini-cli');
export const GEMINI_PKG = path.join(GEMINI_DIR, 'node_modules', ...GEMINI_PACKAGE.split('/'));
export const GEMINI_ENTRY = path.join(GEMINI_PKG, 'bundle', 'gemini.js');
export const GEMINI_NODE = NODE24;

/** `gemini --version` in a throwaway HOME must print the pinned version. */
function starts() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'acp-gemini-check-'));
  try {
    const r = spawnSync(GEMINI_NODE, [GEMINI_ENTRY, '--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, ...env({ home, baseUrl: 'http://127.0.0.1:9' }) },
    });
    return r.status === 0 && r.stdout.trim() === GEMINI_VERSION;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Installs the pinned Gemini CLI into $CACHE/gemini-cli unless it is there already. */
export function install() {
  return installPinned({
    label: 'gemini-cli',
    dir: GEMINI_DIR,
    spec: `${GEMINI_PACKAGE}@${GEMINI_VERSION}`,
    stamp: GEMINI_VERSION,
    node24: true,
    ignoreScripts: true,
    isInstalled: async () =>
      (await installedVersion(GEMINI_DIR, GEMINI_PACKAGE)) === GEMINI_VERSION && existsSync(GEMINI_ENTRY),
    works: async () => starts(),
  });
}

/** The agent's command line: stdio ACP. */
export function launch() {
  return { command: GEMINI_NODE, args: [GEMINI_ENTRY, '--acp'] };
}

/**
 * The user settings in the throwaway HOME: nothing phones home (usage statistics, update checks;
 * telemetry is off through env()), no IDE companion, and every tool asks before it runs (approval
 * mode "default").
 * No `security.auth.selectedType`: with GOOGLE_GEMINI_BASE_URL set, session/new picks the auth
 * type "gateway" itself, and "gateway" in the settings fails the start-up auth check ("Invalid
 * auth method selected.").
 */
export const SETTINGS = {
  general: {
    enableAutoUpdate: false,
    enableAutoUpdateNotification: false,
    defaultApprovalMode: 'default',
    checkpointing: { enabled: false },
  },
  privacy: { usageStatisticsEnabled: false },
  ide: { enabled: false },
};

/**
 * A throwaway HOME with `.gemini/settings.json` (the caller removes it). It takes the same
 * `{ workspace, baseUrl }` as env() but needs neither: both reach the agent through env().
 */
export async function makeHome() {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'acp-gemini-home-')));
  await fs.mkdir(path.join(home, '.gemini'), { recursive: true });
  await fs.writeFile(path.join(home, '.gemini', 'settings.json'), JSON.stringify(SETTINGS, null, 2) + '\n');
  return home;
}

/**
 * Variables set empty in the agent's environment: what a developer's shell or the extension host
 * could carry in to redirect it (other auth types, a model, another config dir, a sandbox, an IDE
 * companion, proxies). Gemini CLI reads each of these as unset when empty; not so the telemetry
 * variables (an empty GEMINI_TELEMETRY_TARGET stops it at start), hence GEMINI_TELEMETRY_ENABLED.
 */
const INHERITED_TO_CLEAR = [
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_VERTEX_BASE_URL',
  'CLOUD_SHELL',
  'GEMINI_CLI_USE_COMPUTE_ADC',
  'GEMINI_API_KEY_AUTH_MECHANISM',
  'GEMINI_CLI_CUSTOM_HEADERS',
  'GEMINI_MODEL',
  'GEMINI_CLI_HOME',
  'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
  'GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
  'GEMINI_SYSTEM_MD',
  'GEMINI_SANDBOX',
  'GEMINI_CLI_IDE_SERVER_PORT',
  'GEMINI_CLI_IDE_WORKSPACE_PATH',
];

/**
 * The agent's environment: a throwaway HOME, the fake endpoint (GOOGLE_GEMINI_BASE_URL selects
 * the auth type "gateway", which sends GEMINI_API_KEY there), no relaunch into a child process,
 * and every folder trusted (GEMINI_CLI_TRUST_WORKSPACE; in an untrusted folder Gemini CLI holds
 * back settings, MCP servers and tools). `workspace` is not needed: Gemini CLI takes it from
 * session/new's `cwd`.
 */
export function env({ home, baseUrl }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    GEMINI_API_KEY: 'x',
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_CLI_NO_RELAUNCH: '1',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    // Overrides settings.json and any inherited value.
    GEMINI_TELEMETRY_ENABLED: 'false',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await install();
}
