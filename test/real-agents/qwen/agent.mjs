/**
 * Qwen Code (@qwen-code/qwen-code) as an ACP agent (`qwen --acp`), installed into the test cache
 * (never into the project's node_modules), run with the harness's Node 24 (the package wants
 * Node >= 22), pointed at the fake Chat Completions endpoint (../opencode/fakeModel.mjs) through
 * `~/.qwen/settings.json` in a throwaway HOME and the OPENAI_* variables.
 *
 *   node test/real-agents/qwen/agent.mjs     # install (idempotent: ~0 s when done)
 *
 * The package is one bundle (`cli.js` plus its chunks, no dependencies; optional native ones for a
 * pty, the clipboard, images) with no install scripts of its own; `cli-entry.js` (its `bin`) only
 * relaunches `cli.js` with `--expose-gc`, so `cli.js` is run directly, with QWEN_CODE_NO_RELAUNCH.
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

/** Pinned: bump deliberately (and re-run sdkClient.mjs). 0.24.4 is the newest 0.24. */
export const QWEN_PACKAGE = '@qwen-code/qwen-code';
export const QWEN_VERSION = '0.24.4';
export const QWEN_DIR = path.join(CACHE, 'qwen-code');
export const QWEN_PKG = path.join(QWEN_DIR, 'node_modules', ...QWEN_PACKAGE.split('/'));
export const QWEN_ENTRY = path.join(QWEN_PKG, 'cli.js');
export const QWEN_NODE = NODE24;
/** The models the settings declare (the fake answers for any), the first the default. */
export const QWEN_MODEL = 'fake-model';
export const QWEN_OTHER_MODEL = 'fake-model-large';

/**
 * Why the editor server step is skipped for Qwen Code 0.24.4 (seen 2026-12-07, with a plain SDK client and through
 * VS Code): it connects a session's MCP servers (HTTP or stdio), lists their tools and registers them for the session
 * (its debug log: "SessionMcpView[...] applied 2 tools"), yet with its default background MCP discovery it never shows
 * them to the model: they are not among a request's tools, not in its deferred-tools reminder (at the first turn or
 * later ones), and its `tool_search` finds none of them; only a `tool_call` of the exact name, which a model cannot
 * know, reaches them. With `QWEN_CODE_LEGACY_MCP_BLOCKING=1` (discovery done inside session/new) they are announced
 * and the step passes: tool_search, then tool_call of `mcp__vscode-editor__problems` and `..._definition`.
 */
export const NO_SESSION_MCP_TOOLS =
  "Qwen Code 0.24.4 registers a session's MCP tools but never shows them to its model (not offered, not in its deferred-tools reminder, not found by tool_search) unless QWEN_CODE_LEGACY_MCP_BLOCKING=1: see NO_SESSION_MCP_TOOLS in qwen/agent.mjs";

/** `qwen --version` in a throwaway HOME must print the pinned version. */
function starts() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'acp-qwen-check-'));
  try {
    const r = spawnSync(QWEN_NODE, [QWEN_ENTRY, '--version'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, ...env({ home, baseUrl: 'http://127.0.0.1:9' }) },
    });
    return r.status === 0 && r.stdout.trim() === QWEN_VERSION;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Installs the pinned Qwen Code into $CACHE/qwen-code unless it is there already. */
export function install() {
  return installPinned({
    label: 'qwen-code',
    dir: QWEN_DIR,
    spec: `${QWEN_PACKAGE}@${QWEN_VERSION}`,
    stamp: QWEN_VERSION,
    node24: true,
    // Only `sharp` (an optional dependency) has an install script; its prebuilt binary is a package.
    ignoreScripts: true,
    isInstalled: async () =>
      (await installedVersion(QWEN_DIR, QWEN_PACKAGE)) === QWEN_VERSION && existsSync(QWEN_ENTRY),
    works: async () => starts(),
  });
}

/** The agent's command line: stdio ACP. */
export function launch() {
  return { command: QWEN_NODE, args: [QWEN_ENTRY, '--acp'] };
}

/**
 * The user settings: the fake endpoint as the `openai` provider with two models (images in, so
 * that an attached image reaches the model), the auth type `openai`, every tool asking first
 * (`tools.approvalMode: "default"`; Qwen Code starts in `auto`, where nothing asks), and nothing that
 * phones home or asks the model on the side (titles, follow-up suggestions, recaps, memories).
 */
export function settings({ baseUrl }) {
  const model = (id, name) => ({
    id,
    name,
    baseUrl: `${baseUrl}/v1`,
    envKey: 'OPENAI_API_KEY',
    generationConfig: { contextWindowSize: 128000, modalities: { image: true } },
  });
  return {
    modelProviders: { openai: [model(QWEN_MODEL, 'Fake Model'), model(QWEN_OTHER_MODEL, 'Fake Model Large')] },
    security: { auth: { selectedType: 'openai' }, folderTrust: { enabled: false } },
    model: { name: QWEN_MODEL },
    tools: { approvalMode: 'default' },
    general: { enableAutoUpdate: false, showSessionRecap: false },
    // Else a memory-extraction subagent asks the model (with tools) after every turn.
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
    ui: { enableFollowupSuggestions: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false },
  };
}

/** A throwaway HOME with `.qwen/settings.json` (the caller removes it). */
export async function makeHome({ baseUrl }) {
  const home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'acp-qwen-home-')));
  await fs.mkdir(path.join(home, '.qwen'), { recursive: true });
  await fs.writeFile(path.join(home, '.qwen', 'settings.json'), JSON.stringify(settings({ baseUrl }), null, 2) + '\n');
  return home;
}

/**
 * Variables set empty: what a developer's shell or the extension host could carry in to give
 * Qwen Code another home, provider, key, model or system prompt.
 */
const INHERITED_TO_CLEAR = [
  'QWEN_HOME',
  'QWEN_DEFAULT_AUTH_TYPE',
  'QWEN_CODE_MODEL',
  'QWEN_CODE_SYSTEM_SETTINGS_PATH',
  'QWEN_CODE_SYSTEM_DEFAULTS_PATH',
  'QWEN_CODE_TRUSTED_FOLDERS_PATH',
  'QWEN_SYSTEM_MD',
  'QWEN_SANDBOX',
  'QWEN_CODE_IDE_SERVER_PORT',
  'QWEN_CODE_IDE_WORKSPACE_PATH',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'DASHSCOPE_API_KEY',
  'GEMINI_MODEL',
];

/**
 * The agent's environment: a throwaway HOME, the fake endpoint and its key, no relaunch into a
 * child process, no telemetry, no auto title. `workspace` comes with session/new.
 */
export function env({ home, baseUrl }) {
  return {
    ...offlineEnv(home, INHERITED_TO_CLEAR),
    OPENAI_BASE_URL: `${baseUrl}/v1`,
    OPENAI_API_KEY: 'x',
    OPENAI_MODEL: QWEN_MODEL,
    QWEN_CODE_NO_RELAUNCH: 'true',
    QWEN_USAGE_STATISTICS_ENABLED: 'false',
    QWEN_DISABLE_AUTO_TITLE: '1',
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await install();
}
