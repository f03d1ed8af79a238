/**
 * Kilo Code's CLI (npm `@kilocode/cli-linux-x64`, a fork of OpenCode) as a real ACP agent for the
 * tests: installed into the test cache (never into the project's node_modules), started as its
 * native binary `kilo acp`, pointed at the fake Chat Completions endpoint of
 * ../opencode/fakeModel.mjs through a config file in OpenCode's shape (KILO_CONFIG) in a
 * throwaway HOME.
 *
 *   node test/real-agents/kilo/agent.mjs      # install (idempotent: ~0 s when done)
 *
 * Version: 7.7.7. The thin `@kilocode/cli` package picks a platform package in its postinstall,
 * but the registry has no platform package of 7.8.x for Linux (nor a `-baseline` or `-musl` one of
 * 7.7.7), so the Linux x64 binary package is installed itself: a self-contained (Bun-compiled)
 * binary, no Node at run time. Like OpenCode it also listens on 127.0.0.1 (its own server for the
 * ACP layer).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE } from '../../harness/paths.mjs';
import { installedVersion, installPinned } from '../pinnedInstall.mjs';
import { offlineEnv } from '../agentEnv.mjs';
import { config as openCodeConfig, seededHome } from '../opencode/agent.mjs';

/** Pinned: bump deliberately (and re-run sdkClient.mjs). */
export const KILO_PACKAGE = `@kilocode/cli-${process.platform}-${process.arch}`;
export const KILO_VERSION = '7.7.7';
export const KILO_DIR = path.join(CACHE, 'kilo-cli');
/** The provider id and models the config declares: OpenCode's (the fake answers for any model). */
export { DEFAULT_MODEL, MODELS, PROVIDER_ID } from '../opencode/agent.mjs';

export const binary = () => path.join(KILO_DIR, 'node_modules', ...KILO_PACKAGE.split('/'), 'bin', 'kilo');

/** The binary must start and name the pinned version. */
function binaryWorks() {
  const r = spawnSync(binary(), ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), KILO_DISABLE_AUTOUPDATE: '1', KILO_NO_DAEMON: '1' },
  });
  return r.status === 0 && r.stdout.trim() === KILO_VERSION;
}

/** Installs the pinned agent into $CACHE/kilo-cli unless it is there already. */
export function install() {
  return installPinned({
    label: 'kilo-cli',
    dir: KILO_DIR,
    spec: `${KILO_PACKAGE}@${KILO_VERSION}`,
    stamp: KILO_VERSION,
    ignoreScripts: true,
    isInstalled: async () => (await installedVersion(KILO_DIR, KILO_PACKAGE)) === KILO_VERSION && existsSync(binary()),
    works: async () => binaryWorks(),
  });
}

/** How to start the agent (stdio ACP). */
export function launch() {
  return { command: binary(), args: ['acp'] };
}

/** The config file's path inside a HOME made by makeHome. */
export const configFile = (home) => path.join(home, 'kilo.json');

/** Kilo's config: OpenCode's (../opencode/agent.mjs), under Kilo's schema, with no telemetry export. */
export function config({ baseUrl }) {
  return { ...openCodeConfig({ baseUrl }, 'https://app.kilo.ai/config.json'), experimental: { openTelemetry: false } };
}

/**
 * A throwaway HOME (with XDG folders) holding the config (the caller removes it). Like OpenCode, at start Kilo
 * npm-installs its plugin package (`@kilocode/plugin`) into each config folder unless it is seeded as installed.
 */
export function makeHome({ baseUrl }) {
  return seededHome({
    name: 'kilo',
    plugin: { '@kilocode/plugin': KILO_VERSION },
    configFile,
    config: config({ baseUrl }),
  });
}

/** Inherited variables set empty: they could add providers, keys, config or an account. */
const INHERITED_TO_CLEAR = [
  'KILO_CONFIG_CONTENT',
  'KILO_CONFIG_DIR',
  'KILO_TUI_CONFIG',
  'KILO_API_KEY',
  'KILO_PERMISSION',
  'KILO_MODELS_URL',
  'KILO_MODELS_PATH',
  'KILO_SERVER_PASSWORD',
  'KILO_ORG_ID',
  'KILO_DB',
  'OPENCODE_CONFIG',
  'OPENCODE_CONFIG_CONTENT',
  'OPENCODE_CONFIG_DIR',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'OPENROUTER_API_KEY',
];

/**
 * The agent's environment: the throwaway HOME, the config, and everything that keeps it offline
 * and alone (no daemon, no telemetry, no presence or session upload, no indexing).
 */
export function env({ home }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    TMPDIR: path.join(home, 'tmp'),
    KILO_CONFIG: configFile(home),
    // No credentials of its own (set empty, it warns that it cannot parse them).
    KILO_AUTH_CONTENT: '{}',
    KILO_NO_DAEMON: '1',
    KILO_TELEMETRY_LEVEL: 'off',
    KILO_DISABLE_MODELS_FETCH: '1',
    KILO_DISABLE_AUTOUPDATE: '1',
    KILO_DISABLE_SHARE: '1',
    KILO_DISABLE_SESSION_INGEST: '1',
    KILO_DISABLE_PRESENCE: '1',
    KILO_DISABLE_LSP_DOWNLOAD: '1',
    KILO_DISABLE_DEFAULT_PLUGINS: '1',
    KILO_DISABLE_CODEBASE_INDEXING: '1',
    KILO_DISABLE_CLAUDE_CODE: '1',
    KILO_DISABLE_EXTERNAL_SKILLS: '1',
    // Should a plugin install start anyway (see makeHome), let it fail at once.
    npm_config_registry: 'http://127.0.0.1:9/',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await install();
}
