/**
 * OpenCode (npm `opencode-ai`) as a real ACP agent for the tests: installed into the test cache
 * (never into the project's node_modules), started as its native binary `opencode acp`, pointed at
 * the fake Chat Completions endpoint of fakeModel.mjs through a config file in a throwaway HOME.
 *
 *   node test/real-agents/opencode/agent.mjs      # install (idempotent: ~0 s when done, ~8 s cold, 354 MB)
 *
 *   import { install, launch, makeHome, env } from './agent.mjs';
 *   await install();
 *   const { command, args } = launch();
 *   const home = await makeHome({ workspace, baseUrl: fake.url });
 *   spawn(command, args, { cwd: workspace, env: { PATH, ...env({ home }) }, detached: true });
 *
 * Version: 1.18.33, the newest release when written, works offline here. `opencode-ai` is a thin
 * package; the program is a self-contained (Bun-compiled) binary in the optional dependency
 * `opencode-<os>-<cpu>[-baseline]`, so it needs no Node at run time. The package's postinstall
 * only links that binary to `bin/opencode.exe` (and npm-installs it when missing), so the install
 * skips scripts and we run the platform binary ourselves. The binary also listens on 127.0.0.1
 * (its own server for the ACP layer, port 4096 or another free one).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE } from '../../harness/paths.mjs';
import { installedVersion, installPinned } from '../pinnedInstall.mjs';
import { offlineEnv } from '../agentEnv.mjs';

/** Pinned: bump deliberately (and re-run sdkClient.mjs). */
export const OPENCODE_PACKAGE = 'opencode-ai';
export const OPENCODE_VERSION = '1.18.33';
export const OPENCODE_DIR = path.join(CACHE, 'opencode-agent');
/** The provider id and models the config declares (fakeModel.mjs answers for any model). */
export const PROVIDER_ID = 'fake';
export const MODELS = { 'fake-model': 'Fake Model', 'fake-model-large': 'Fake Model Large' };
export const DEFAULT_MODEL = `${PROVIDER_ID}/fake-model`;

/**
 * The native binary, as the package's postinstall picks it: the platform's package, its
 * `-baseline` build (no AVX2) when the CPU lacks AVX2 or the first is missing.
 */
export function binary() {
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform] ?? process.platform;
  const base = `opencode-${platform}-${process.arch}`;
  let avx2 = process.arch !== 'x64';
  try {
    avx2 ||= /(^|\s)avx2(\s|$)/i.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {}
  const names = avx2 ? [base, `${base}-baseline`] : [`${base}-baseline`, base];
  const files = names.map((name) => path.join(OPENCODE_DIR, 'node_modules', name, 'bin', 'opencode'));
  return files.find((file) => existsSync(file)) ?? files[0];
}

/** The binary must start and name the pinned version. */
function binaryWorks() {
  const r = spawnSync(binary(), ['--version'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), OPENCODE_DISABLE_AUTOUPDATE: '1' },
  });
  return r.status === 0 && r.stdout.trim() === OPENCODE_VERSION;
}

/** Installs the pinned agent into $CACHE/opencode-agent unless it is there already. */
export function install() {
  return installPinned({
    label: 'opencode-agent',
    dir: OPENCODE_DIR,
    spec: `${OPENCODE_PACKAGE}@${OPENCODE_VERSION}`,
    stamp: OPENCODE_VERSION,
    node24: true,
    ignoreScripts: true,
    isInstalled: async () =>
      (await installedVersion(OPENCODE_DIR, OPENCODE_PACKAGE)) === OPENCODE_VERSION && existsSync(binary()),
    works: async () => binaryWorks(),
  });
}

/** How to start the agent (stdio ACP). */
export function launch() {
  return { command: binary(), args: ['acp'] };
}

/** The config file's path inside a HOME made by makeHome. */
export const configFile = (home) => path.join(home, 'opencode.json');

/**
 * OpenCode's config: one provider (the fake endpoint, through the bundled
 * `@ai-sdk/openai-compatible`) with two models, nothing else enabled, and permission prompts for
 * edits and shell commands (without `permission` OpenCode asks for nothing).
 */
export function config({ baseUrl }, schema = 'https://opencode.ai/config.json') {
  return {
    $schema: schema,
    provider: {
      [PROVIDER_ID]: {
        name: 'Fake',
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: `${baseUrl}/v1`, apiKey: 'x' },
        models: Object.fromEntries(
          Object.entries(MODELS).map(([id, name]) => [
            id,
            {
              name,
              tool_call: true,
              attachment: true,
              modalities: { input: ['text', 'image'], output: ['text'] },
              limit: { context: 128000, output: 4096 },
            },
          ]),
        ),
      },
    },
    enabled_providers: [PROVIDER_ID],
    model: DEFAULT_MODEL,
    small_model: DEFAULT_MODEL,
    permission: { edit: 'ask', bash: 'ask' },
    autoupdate: false,
    share: 'disabled',
  };
}

/**
 * A throwaway HOME (with XDG folders) holding the config (the caller removes it; `workspace` is
 * not needed: OpenCode takes it from session/new).
 *
 * At start OpenCode npm-installs `@opencode-ai/plugin` (in-process, with npm's Arborist, forked
 * into the background) into each config folder ($XDG_CONFIG_HOME/opencode, and `.opencode`
 * folders of the project) unless that folder has a `node_modules` and a `package-lock.json`
 * whose root lists every dependency of its `package.json`. An empty `node_modules` with such a
 * lock counts as installed, so the global one is seeded here and nothing is fetched.
 */
export function makeHome({ baseUrl }) {
  return seededHome({
    name: 'opencode',
    plugin: { '@opencode-ai/plugin': OPENCODE_VERSION },
    configFile: configFile,
    config: config({ baseUrl }),
  });
}

/** makeHome for OpenCode and its forks: `name` the config folder's, `plugin` the package seeded as installed. */
export async function seededHome({ name, plugin, configFile: fileIn, config: configValue }) {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), `acp-${name}-home-`)));
  for (const dir of ['.cache', path.join('.local', 'share'), path.join('.local', 'state'), 'tmp']) {
    await fs.mkdir(path.join(home, dir), { recursive: true });
  }
  const configDir = path.join(home, '.config', name);
  await fs.mkdir(path.join(configDir, 'node_modules'), { recursive: true });
  const dependencies = plugin;
  await fs.writeFile(path.join(configDir, 'package.json'), JSON.stringify({ dependencies }, null, 2) + '\n');
  await fs.writeFile(
    path.join(configDir, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, requires: true, packages: { '': { dependencies } } }, null, 2) + '\n',
  );
  await fs.writeFile(fileIn(home), JSON.stringify(configValue, null, 2) + '\n');
  return home;
}

/** Inherited variables set empty: they could add providers, keys or config, or a proxy. */
const INHERITED_TO_CLEAR = [
  'OPENCODE_CONFIG_CONTENT',
  'OPENCODE_CONFIG_DIR',
  'OPENCODE_TUI_CONFIG',
  'OPENCODE_API_KEY',
  'OPENCODE_AUTH_CONTENT',
  'OPENCODE_PERMISSION',
  'OPENCODE_MODELS_URL',
  'OPENCODE_SERVER_PASSWORD',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY',
  'OPENROUTER_API_KEY',
];

/**
 * The agent's environment: the throwaway HOME, the config, and everything that keeps it offline
 * (the endpoint's address is in the config file, the workspace comes with session/new).
 */
export function env({ home }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    // Its scratch folder is $TMPDIR/opencode (else /tmp/opencode, shared between runs).
    TMPDIR: path.join(home, 'tmp'),
    OPENCODE_CONFIG: configFile(home),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    // Should a plugin install start anyway (see makeHome), let it fail at once.
    npm_config_registry: 'http://127.0.0.1:9/',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await install();
}
