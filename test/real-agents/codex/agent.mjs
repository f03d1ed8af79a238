/**
 * Codex's ACP agent (@zed-industries/codex-acp), installed into the test cache (never into the
 * project's node_modules), pointed at the local fake Responses endpoint (fakeModel.mjs).
 *
 * The npm package is a small Node wrapper (bin/codex-acp.js) that runs the native binary from the
 * optional dependency @zed-industries/codex-acp-<platform>-<arch> with spawnSync, and forwards no
 * signals. `launch()` therefore names the native binary itself: one process, ended by a signal.
 * No install scripts, nothing downloaded at run time, no Node version requirement.
 *
 *   node test/real-agents/codex/agent.mjs      # install (idempotent: ~0 s when done)
 *
 *   import { install, launch, makeHome, env } from './test/real-agents/codex/agent.mjs';
 *   await install();
 *   const home = await makeHome({ workspace, baseUrl: fake.url });   // approvals: 'ask' (default) or 'presets'
 *   const { command, args } = launch();
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

/** Pinned: bump deliberately (and re-run sdkClient.mjs). 0.16.0 was the newest release (npm `latest`). */
export const CODEX_ACP_PACKAGE = '@zed-industries/codex-acp';
export const CODEX_ACP_VERSION = '0.16.0';
export const CODEX_ACP_DIR = path.join(CACHE, 'codex-acp');
/** The model Codex is told to use: a name it knows (for an unknown one it offers no `apply_patch`). */
export const CODEX_MODEL = 'gpt-5.4';
/** The provider id in config.toml, and the variable that holds its (fake) API key. */
export const PROVIDER_ID = 'fake';
export const API_KEY_ENV = 'FAKE_API_KEY';

const PLATFORM_PACKAGE = `${CODEX_ACP_PACKAGE}-${process.platform}-${process.arch}`;
/** The native agent (speaks ACP on stdio). */
export const CODEX_ACP_BIN = path.join(CODEX_ACP_DIR, 'node_modules', ...PLATFORM_PACKAGE.split('/'), 'bin', process.platform === 'win32' ? 'codex-acp.exe' : 'codex-acp');

/**
 * The full check: the binary starts in a throwaway HOME and answers `initialize` on stdio.
 * Resolves to the agent's name and version, or throws.
 */
async function answersInitialize() {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'acp-codex-check-'));
  await fs.mkdir(path.join(home, '.codex'));
  await fs.mkdir(path.join(home, 'tmp'));
  const child = spawn(CODEX_ACP_BIN, [], { cwd: home, env: { PATH: process.env.PATH, ...env({ home }) }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
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
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } }) + '\n');
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

/** Installs the pinned agent into $CACHE/codex-acp unless it is there already (~220 MB). */
export function install() {
  return installPinned({
    label: 'codex-acp', dir: CODEX_ACP_DIR, spec: `${CODEX_ACP_PACKAGE}@${CODEX_ACP_VERSION}`, stamp: `${CODEX_ACP_VERSION} ${PLATFORM_PACKAGE}`,
    isInstalled: async () => (await installedVersion(CODEX_ACP_DIR, CODEX_ACP_PACKAGE)) === CODEX_ACP_VERSION
      && (await installedVersion(CODEX_ACP_DIR, PLATFORM_PACKAGE)) === CODEX_ACP_VERSION && existsSync(CODEX_ACP_BIN),
    works: async () => `${await answersInitialize()} answered initialize`,
  });
}

/** How to start the agent (stdio ACP): the native binary, no wrapper. */
export function launch() {
  return { command: CODEX_ACP_BIN, args: [] };
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
];

/**
 * The agent's environment, to lay over the parent's (give it PATH): the throwaway HOME with
 * CODEX_HOME, XDG_* and TMPDIR inside it, the fake key. Where the model lives is in config.toml
 * (`makeHome`), so the environment does not depend on the endpoint.
 *
 * TMPDIR is $HOME/tmp because Codex refuses to put its helper links (`codex-linux-sandbox`,
 * `apply_patch`, prepended to PATH) under the temporary dir, and the HOME is in /tmp.
 */
export function env({ home }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    CODEX_HOME: path.join(home, '.codex'),
    TMPDIR: path.join(home, 'tmp'),
    [API_KEY_ENV]: 'x',
    RUST_LOG: process.env.RUST_LOG ?? 'warn',
  };
}

/**
 * How Codex decides about approvals: the config.toml lines for `makeHome({ approvals })`.
 *
 * Codex runs commands, and reads the file an `*** Update File` patch edits, inside its sandbox
 * unless the preset says "no sandbox" (Full Access). On Linux that sandbox needs bubblewrap on
 * PATH (the npm package brings none) and a CODEX_HOME outside the temporary dir (see `env`).
 * Without bubblewrap, sandboxed commands panic (exit code 101) and such patches fail.
 */
export const APPROVALS = {
  /**
   * Ask before every patch and every command that is not known to be safe, and never sandbox
   * (works without bubblewrap). No preset matches this, so the agent offers no `modes` and no
   * "Approval Preset" option (session/set_mode still switches to a preset).
   */
  ask: 'approval_policy = "untrusted"\nsandbox_mode = "danger-full-access"',
  /**
   * Start in the "Read Only" preset: `modes` and "Approval Preset" offered; every patch asks;
   * a command asks only when the model asks for `sandbox_permissions: "require_escalated"`,
   * else it runs sandboxed (without bubblewrap: it fails, and so do `Update File` patches).
   */
  presets: 'sandbox_mode = "read-only"',
};

/**
 * $CODEX_HOME/config.toml: the fake provider (Responses API at `${baseUrl}/v1`, no retries, no
 * WebSocket), a model Codex knows, the workspace trusted, an approval setting (`APPROVALS`), and
 * nothing that calls home (analytics, feedback, OpenTelemetry, update checks).
 */
export function configToml({ workspace, baseUrl, approvals = 'ask' }) {
  if (!APPROVALS[approvals]) throw new Error(`approvals: one of ${Object.keys(APPROVALS).join(', ')}`);
  const s = (value) => JSON.stringify(value); // a TOML basic string
  return `# Written by test/real-agents/codex/agent.mjs for one offline test run.
model = ${s(CODEX_MODEL)}
model_provider = ${s(PROVIDER_ID)}
# approvals: ${approvals}
${APPROVALS[approvals]}
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
 * agent's TMPDIR; the caller removes it. Write the config again (`configToml`) to start the next
 * agent process with other approvals.
 */
export async function makeHome({ workspace, baseUrl, approvals }, prefix = 'acp-codex-home-') {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  await fs.mkdir(path.join(home, '.codex'), { recursive: true });
  await fs.mkdir(path.join(home, 'tmp'));
  await fs.writeFile(path.join(home, '.codex', 'config.toml'), configToml({ workspace, baseUrl, approvals }));
  return home;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  await install();
}
