/**
 * Codex's ACP agent (@agentclientprotocol/codex-acp, what the ACP registry and our built-in agent
 * list install), installed into the test cache (never into the project's node_modules), pointed
 * at the local fake Responses endpoint (fakeModel.mjs).
 *
 * The npm package is a Node program (bin `codex-acp` = dist/index.js, one bundled file, no
 * install scripts, no Node version requirement) that starts `codex app-server` from its
 * dependency @openai/codex: `node @openai/codex/bin/codex.js app-server`, which runs the native
 * Codex from the optional dependency @openai/codex-<platform>-<arch> (an npm alias of
 * @openai/codex@<version>-<platform>; also brings ripgrep, bubblewrap, `codex-code-mode-host`).
 * codex.js replaces itself with Codex (execve) on Node >= 22.15, else it stays as a parent that
 * forwards SIGINT/SIGTERM/SIGHUP: three processes on Node 20, one process group (`detached`).
 * Nothing is downloaded at run time; ~460 MB installed.
 *
 *   node test/real-agents/codex/agent.mjs      # install (idempotent: ~0 s when done, ~5 s cold)
 *
 *   import { install, launch, makeHome, env } from './test/real-agents/codex/agent.mjs';
 *   await install();
 *   const home = await makeHome({ workspace, baseUrl: fake.url });
 *   const { command, args } = launch();   // node <entry>
 *   spawn(command, args, { cwd: workspace, env: { PATH: process.env.PATH, ...env({ home }) }, detached: true });
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CACHE } from '../../harness/paths.mjs';
import { installedVersion, installPinned } from '../pinnedInstall.mjs';
import { offlineEnv } from '../agentEnv.mjs';

/**
 * Pinned: bump deliberately (and re-run sdkClient.mjs). 2.6.0 is the newest release (npm `latest`).
 * The ACP registry's Codex since it moved from @zed-industries/codex-acp (a Rust binary, 0.16.0
 * was its last pin here) to this TypeScript adapter of `codex app-server`.
 */
export const CODEX_ACP_PACKAGE = '@agentclientprotocol/codex-acp';
export const CODEX_ACP_VERSION = '2.6.0';
/**
 * The Codex CLI it runs: its dependency `@openai/codex@^0.166.0`, which npm resolves at install
 * time (0.166.0 is the only 0.166.x so far). A newer 0.166.x fails `works()` below: bump here.
 */
export const CODEX_PACKAGE = '@openai/codex';
export const CODEX_VERSION = '0.166.0';
/** Its own folder: the layout differs from the @zed-industries package's ($CACHE/codex-acp). */
export const CODEX_ACP_DIR = path.join(CACHE, 'codex-acp-2');
/**
 * The model Codex is told to use: one of Codex 0.166's built-in list (gpt-6.1-sol, gpt-6-astra,
 * gpt-6-sol, gpt-6-luna, gpt-5.6-sol, gpt-6.1-terra, gpt-5.6-terra, gpt-5.6-luna, gpt-5.5), and
 * the one whose requests still list `apply_patch` (custom) and `exec_command` (function) in
 * `tools`. For a name not in that list it starts every reply with a warning ("Model metadata
 * for `gpt-5.4` not found") and offers no `apply_patch`.
 */
export const CODEX_MODEL = 'gpt-5.5';
/**
 * Another model of that list, for a model switch: Codex's first (its default). Every model but
 * gpt-5.5 runs in code mode (see fakeModel.mjs): no `tools`, one JavaScript tool `exec`.
 */
export const CODEX_OTHER_MODEL = 'gpt-6.1-sol';
/** The provider id in config.toml, and the variable that holds its (fake) API key. */
export const PROVIDER_ID = 'fake';
export const API_KEY_ENV = 'FAKE_API_KEY';

/** The adapter's entry script (the package's `bin` `codex-acp`, `#!/usr/bin/env node`). */
export const CODEX_ACP_ENTRY = path.join(
  CODEX_ACP_DIR,
  'node_modules',
  ...CODEX_ACP_PACKAGE.split('/'),
  'dist',
  'index.js',
);
/** The node that runs it: the one running this script (the machine's; the package needs no newer). */
export const CODEX_ACP_NODE = process.execPath;

/** @openai/codex's platform package (an npm alias of @openai/codex@<version>-<platform>) and target. */
const CODEX_TARGETS = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};
const PLATFORM = `${process.platform}-${process.arch}`;
const CODEX_PLATFORM_PACKAGE = `${CODEX_PACKAGE}-${PLATFORM}`;
/** The native Codex (`codex app-server` is what the adapter starts, through @openai/codex's bin/codex.js). */
export const CODEX_BIN = path.join(
  CODEX_ACP_DIR,
  'node_modules',
  ...CODEX_PLATFORM_PACKAGE.split('/'),
  'vendor',
  CODEX_TARGETS[PLATFORM] ?? 'unsupported',
  'bin',
  'codex',
);

/**
 * The full check: the adapter starts in a throwaway HOME and answers `initialize` on stdio.
 * Resolves to the agent's name and version, or throws. The HOME has the test's config.toml
 * (a dead endpoint): codex-acp starts `codex app-server` at once, and without it Codex would
 * sync its plugins from GitHub.
 */
async function answersInitialize() {
  const home = await makeHome({ workspace: os.tmpdir(), baseUrl: 'http://127.0.0.1:9' }, 'acp-codex-check-');
  const { command, args } = launch();
  const child = spawn(command, args, {
    cwd: home,
    env: { PATH: process.env.PATH, ...env({ home }) },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  try {
    const line = await new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no answer to initialize within 30 s')), 30_000);
      child.on('error', reject);
      child.on('exit', (code, signal) => reject(new Error(`exited (${signal ?? code}) before answering initialize`)));
      child.stdout.setEncoding('utf8').on('data', (text) => {
        out += text;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf('\n')));
        }
      });
      child.stdin.write(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: 1, clientCapabilities: {} },
        }) + '\n',
      );
    });
    const info = JSON.parse(line).result?.agentInfo;
    if (!info?.name) throw new Error(`unexpected answer to initialize: ${line.slice(0, 300)}`);
    return `${info.name} ${info.version}`;
  } finally {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    await fs.rm(home, { recursive: true, force: true });
  }
}

/** Installs the pinned agent into $CACHE/codex-acp-2 unless it is there already (~460 MB, ~5 s). */
export function install() {
  return installPinned({
    label: 'codex-acp-2',
    dir: CODEX_ACP_DIR,
    spec: `${CODEX_ACP_PACKAGE}@${CODEX_ACP_VERSION}`,
    stamp: `${CODEX_ACP_VERSION} ${CODEX_PACKAGE}@${CODEX_VERSION} ${PLATFORM}`,
    isInstalled: async () =>
      (await installedVersion(CODEX_ACP_DIR, CODEX_ACP_PACKAGE)) === CODEX_ACP_VERSION &&
      existsSync(CODEX_ACP_ENTRY) &&
      existsSync(CODEX_BIN),
    works: async () => {
      const codex = await installedVersion(CODEX_ACP_DIR, CODEX_PACKAGE);
      const native = await installedVersion(CODEX_ACP_DIR, CODEX_PLATFORM_PACKAGE);
      if (codex !== CODEX_VERSION || native !== `${CODEX_VERSION}-${PLATFORM}`) {
        throw new Error(
          `npm installed ${CODEX_PACKAGE} ${codex} (native ${native}), not the ${CODEX_VERSION} this test expects: update CODEX_VERSION in codex/agent.mjs and re-run sdkClient.mjs`,
        );
      }
      return `${await answersInitialize()} (${CODEX_PACKAGE} ${codex}) answered initialize`;
    },
  });
}

/** How to start the agent (stdio ACP): the adapter's entry script with node. */
export function launch() {
  return { command: CODEX_ACP_NODE, args: [CODEX_ACP_ENTRY] };
}

/** Inherited variables set empty: other providers' keys and addresses, a proxy for 127.0.0.1. */
const INHERITED_TO_CLEAR = [
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_ORGANIZATION',
  'OPENAI_PROJECT',
  'CODEX_CA_CERTIFICATE',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'CODEX_INTERNAL_ORIGINATOR_OVERRIDE',
  // codex-acp's own (README "Runtime options"): an empty value counts as unset for these.
  'CODEX_PATH',
  'CODEX_CONFIG',
  'DEFAULT_AUTH_REQUEST',
  'APP_SERVER_LOGS',
  // Not MODEL_PROVIDER: an empty one would be passed on as provider "" (none is set here).
];

/**
 * The adapter's mode the tests start in (its `mode` config option; `INITIAL_AGENT_MODE`).
 *
 * codex-acp passes each turn an approval policy and sandbox from its mode, over config.toml's:
 * - `read-only` ("Read-only"): approval `on-request`, read-only sandbox. Every patch asks (with
 *   a diff); a command runs in the sandbox without asking, unless the model asks for
 *   `sandbox_permissions: "require_escalated"` (script.mjs does): then it asks, and runs outside
 *   the sandbox when allowed.
 * - `workspace-write` ("Workspace access"): patches in the workspace are applied unasked.
 * - `agent` ("Auto review", codex-acp's default, what a user starts in): a reviewer model
 *   decides instead of the user (more requests to the model, no prompt).
 * - `agent-full-access` ("Full access"): approval `never`.
 * Codex 0.166 refuses `approval_policy = "untrusted"` ("is no longer supported") and never asks
 * with `danger-full-access`, so the old 'ask' setup (untrusted, no sandbox) is gone. The sandbox
 * works here: @openai/codex brings its own bubblewrap (codex-resources/bwrap).
 */
export const AGENT_MODE = 'read-only';

/**
 * The agent's environment, to lay over the parent's (give it PATH): the throwaway HOME with
 * CODEX_HOME, XDG_* and TMPDIR inside it, the fake key, the starting mode (`AGENT_MODE`, or
 * `mode`). Where the model lives is in config.toml (`makeHome`), so the environment does not
 * depend on the endpoint.
 *
 * TMPDIR is $HOME/tmp because Codex refuses to put its helper links (`apply_patch`, ... prepended
 * to PATH) under the temporary dir, and the HOME is in /tmp.
 */
export function env({ home, mode = AGENT_MODE }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    CODEX_HOME: path.join(home, '.codex'),
    TMPDIR: path.join(home, 'tmp'),
    [API_KEY_ENV]: 'x',
    INITIAL_AGENT_MODE: mode,
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
  };
}

/**
 * $CODEX_HOME/config.toml: the fake provider (Responses API at `${baseUrl}/v1`, no retries, no
 * WebSocket), a model Codex knows (`CODEX_MODEL`), the workspace trusted, the read-only sandbox
 * (codex-acp's mode sets each turn's, see `AGENT_MODE`), and nothing that calls home
 * (plugin sync, analytics, feedback, OpenTelemetry, update checks). Checked with strace in a
 * network namespace: no lookup, no connection but to the fake. (Codex's remote control, to
 * chatgpt.com, waits for a ChatGPT login and so never connects.)
 */
export function configToml({ workspace, baseUrl }) {
  const s = (value) => JSON.stringify(value); // a TOML basic string
  return `# Written by test/real-agents/codex/agent.mjs for one offline test run.
model = ${s(CODEX_MODEL)}
model_provider = ${s(PROVIDER_ID)}
sandbox_mode = "read-only"
check_for_update_on_startup = false

[model_providers.${PROVIDER_ID}]
name = "Fake model (test)"
base_url = ${s(`${baseUrl}/v1`)}
env_key = ${s(API_KEY_ENV)}
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 60000
supports_websockets = false

# Plugins: at start Codex syncs its curated plugins (git ls-remote https://github.com/openai/plugins.git,
# then api.github.com), and a shutdown waits ~4 s for that sync.
[features]
plugins = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
trace_exporter = "none"
log_user_prompt = false

[projects.${s(workspace)}]
trust_level = "trusted"
`;
}

/**
 * A throwaway HOME for one agent run, with $HOME/.codex/config.toml (`configToml`) and the
 * agent's TMPDIR; the caller removes it.
 */
export async function makeHome({ workspace, baseUrl }, prefix = 'acp-codex-home-') {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  await fs.mkdir(path.join(home, '.codex'), { recursive: true });
  await fs.mkdir(path.join(home, 'tmp'));
  await fs.writeFile(path.join(home, '.codex', 'config.toml'), configToml({ workspace, baseUrl }));
  return home;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await install();
}
