// Real VS Code (code-server 4.139 = VS Code 1.139, Node extension host) driven by headless
// Debian Chromium through playwright-core. Run `node test/harness/setup.mjs` once first.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { format } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, CODE_SERVER_ENTRY, NODE24 } from './paths.mjs';
import { assertSetupDone } from './setup.mjs';
import { httpStatus } from './net.mjs';

const VERBOSE = !!process.env.HARNESS_VERBOSE; // echo server log and browser console
const KEEP = !!process.env.HARNESS_KEEP; // keep temp dirs (server log, user data) after close

/** Settings that keep the workbench quiet and deterministic; userSettings override them. */
export const DEFAULT_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'github.gitAuthentication': false,
  'security.workspace.trust.startupPrompt': 'never',
  'window.restoreWindows': 'none',
};

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

async function tail(file, lines = 40) {
  try {
    return (await fs.readFile(file, 'utf8')).split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Env for the server: the caller's, minus variables of an enclosing VS Code, plus `env`. */
function serverEnv(env, xdgDataHome) {
  const out = {};
  for (const [k, v] of Object.entries(process.env)) {
    // PORT too: code-server lets it override the port in its config.
    if (/^(VSCODE_|ELECTRON_RUN_AS_NODE$|PORT$)/.test(k)) continue;
    out[k] = v;
  }
  // code-server writes its own logs to $XDG_DATA_HOME/code-server/coder-logs: keep them in the temp dir.
  out.XDG_DATA_HOME = xdgDataHome;
  return { ...out, ...env };
}

/** `code-server --install-extension FILE` into the server's extensions dir (takes ~1 s). */
function installVsix(common, file, env) {
  return new Promise((resolve, reject) => {
    let out = '';
    const child = spawn(NODE24, [...common, '--install-extension', file, '--force'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 && !/Failed Installing/i.test(out)
        ? resolve()
        : reject(new Error(`installing ${file} failed (exit ${code}):\n${out}`)),
    );
  });
}

/**
 * Starts code-server on a free 127.0.0.1 port with throwaway config, user data and extensions dirs.
 * @param {{ folder?: string, userSettings?: object, env?: Record<string,string>, trust?: boolean,
 *           vsix?: string|string[], args?: string[], timeoutMs?: number }} [opts]
 *   folder: opened by default (the page URL names it too); env: merged into the server's env (the
 *   extension host inherits it); trust: keep Workspace Trust on (default: --disable-workspace-trust);
 *   vsix: path(s) of .vsix files installed into the throwaway extensions dir before the start
 *   (tests the packaged extension); args: extra code-server arguments.
 * @returns {Promise<{ url: string, port: number, host: string, userDataDir: string,
 *   extensionsDir: string, tmpDir: string, logFile: string, pid: number,
 *   exited: Promise<{code: number|null, signal: string|null}>, close(): Promise<void> }>}
 */
export async function startCodeServer({
  folder,
  userSettings = {},
  env = {},
  trust = false,
  vsix = [],
  args = [],
  timeoutMs = 60_000,
} = {}) {
  assertSetupDone('code-server');
  const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vscode-acp-cs-'));
  const userDataDir = path.join(tmpDir, 'user-data');
  const extensionsDir = path.join(tmpDir, 'extensions');
  const configFile = path.join(tmpDir, 'config.yaml');
  const logFile = path.join(tmpDir, 'server.log');
  await fs.mkdir(path.join(userDataDir, 'User'), { recursive: true });
  await fs.mkdir(extensionsDir, { recursive: true });
  await fs.writeFile(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...userSettings }, null, 2),
  );
  // Port 0: the OS picks a free port, read back from the log (no race with other servers).
  await fs.writeFile(
    configFile,
    'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\ndisable-telemetry: true\ndisable-update-check: true\n',
  );
  const common = [
    CODE_SERVER_ENTRY,
    '--config',
    configFile,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  for (const file of [vsix].flat().filter(Boolean)) {
    await installVsix(common, path.resolve(file), serverEnv(env, path.join(tmpDir, 'xdg-data')));
  }
  const argv = [
    ...common,
    '--ignore-last-opened',
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(trust ? [] : ['--disable-workspace-trust']),
    ...args,
    ...(folder ? [folder] : []),
  ];
  const logStream = createWriteStream(logFile);
  const child = spawn(NODE24, argv, {
    cwd: folder && existsSync(folder) ? (folder.endsWith('.code-workspace') ? path.dirname(folder) : folder) : tmpDir,
    env: serverEnv(env, path.join(tmpDir, 'xdg-data')),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: close() kills server, extension host and their children
  });
  let exited = null;
  const exitPromise = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    }),
  );
  let port = 0;
  let buffered = '';
  const onData = (chunk) => {
    logStream.write(chunk);
    if (VERBOSE) process.stderr.write(`[code-server] ${chunk}`);
    if (!port) {
      buffered += chunk.toString();
      const m = /HTTP server listening on https?:\/\/[^:]+:(\d+)/.exec(buffered);
      if (m) port = Number(m[1]);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (!exited) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {}
      const t = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 3000);
      await exitPromise;
      clearTimeout(t);
    }
    // Stragglers of the group (extension host children) once the leader is gone.
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    logStream.end();
    if (!KEEP) await fs.rm(tmpDir, { recursive: true, force: true }).catch(() => {});
  };

  const deadline = Date.now() + timeoutMs;
  try {
    while (true) {
      if (exited) throw new Error(`code-server exited early (${exited.signal ?? `exit ${exited.code}`})`);
      if (Date.now() > deadline) throw new Error(`code-server did not answer within ${timeoutMs} ms`);
      if (port && (await httpStatus(`http://127.0.0.1:${port}/healthz`)) === 200) break;
      await sleep(100);
    }
  } catch (e) {
    const log = await tail(logFile);
    await close();
    throw new Error(`${e.message}\n--- code-server log (${logFile}) ---\n${log}`, { cause: e });
  }
  const host = `127.0.0.1:${port}`;
  return {
    url: `http://${host}`,
    port,
    host,
    userDataDir,
    extensionsDir,
    tmpDir,
    logFile,
    pid: child.pid,
    exited: exitPromise,
    close,
  };
}

/**
 * Headless Debian Chromium through playwright-core.
 * @param {{ headless?: boolean, args?: string[] }} [opts]
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchChromium({ headless = true, args = [] } = {}) {
  return chromium.launch({ executablePath: CHROMIUM, headless, args: [...CHROMIUM_ARGS, ...args] });
}

/**
 * The workbench URL that opens `folder` and (through the smoke-test driver) loads the extension
 * under development and, if given, runs its tests in the Node extension host.
 */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  const payload = [];
  if (extensionDevelopmentPath) {
    payload.push([
      'extensionDevelopmentPath',
      `vscode-remote://${server.host}${path.resolve(extensionDevelopmentPath)}`,
    ]);
  }
  if (extensionTestsPath) {
    payload.push(['extensionTestsPath', `vscode-remote://${server.host}${path.resolve(extensionTestsPath)}`]);
  }
  const q = [];
  // A .code-workspace file opens as a (multi-root) workspace.
  if (folder) {
    q.push(
      `${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(path.resolve(folder))}`,
    );
  }
  if (payload.length) q.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${server.url}/${q.length ? `?${q.join('&')}` : ''}`;
}

/**
 * Workbench log lines that reach codeAutomationLog alongside the tests' console output (all arrive
 * as type 'info', so they are told apart by their text). Hidden unless HARNESS_VERBOSE is set.
 */
export const WORKBENCH_NOISE = [
  /^\[(AgentHost|ChatModelSelection|AccountPolicyGate|reconnection-grace-time|Service Worker)\b/,
  /^(Resolving|Resolved) connection token\b/,
  /^Creating a socket \(/,
  /^Updating additional builtin extensions cache/,
  /getaddrinfo (ENOTFOUND|EAI_AGAIN) (open-vsx\.org|[\w.-]*(visualstudio|vsassets|microsoft|github)[\w.-]*)/,
  /^Timed out waiting for authentication provider 'github'/,
];

/** Formats codeAutomationLog arguments like console.log does (mocha passes printf-style args). */
export function formatLogArgs(args) {
  return Array.isArray(args) ? format(...args) : String(args);
}

function isNoise(line) {
  return WORKBENCH_NOISE.some((re) => re.test(line));
}

/**
 * Runs the extension's integration tests in code-server's Node extension host.
 * extensionTestsPath must be a CommonJS file exporting `run(): Promise<void>` (rejects = failure).
 * @param {{ extensionDevelopmentPath: string, extensionTestsPath: string, folder?: string,
 *           userSettings?: object, env?: Record<string,string>, trust?: boolean,
 *           vsix?: string|string[], timeoutMs?: number, onOutput?: (line: string) => void,
 *           onDone?: (server) => Promise<boolean> }} opts
 *   onDone: after the tests, before the server and its folders go; false fails the run.
 * @returns {Promise<number>} the runner's exit code (0 = all passed); 124 on timeout, 2 on harness errors.
 */
export async function runNodeHostTests({
  extensionDevelopmentPath,
  extensionTestsPath,
  folder,
  userSettings = {},
  env = {},
  trust = false,
  vsix,
  timeoutMs = 120_000,
  onOutput,
  onDone,
}) {
  const started = Date.now();
  let server;
  let browser;
  let timer;
  try {
    server = await startCodeServer({ folder, userSettings, env, trust, vsix });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    let resolveExit;
    const exitCode = new Promise((r) => (resolveExit = r));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = formatLogArgs(args);
      onOutput?.(line);
      if (VERBOSE || !isNoise(line)) process.stdout.write(line + '\n');
    });
    await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
    if (VERBOSE) page.on('console', (m) => process.stderr.write(`[browser ${m.type()}] ${m.text()}\n`));
    page.on('crash', () => resolveExit(Promise.reject(new Error('the browser page crashed'))));
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`timed out after ${timeoutMs} ms`), { timedOut: true })),
        timeoutMs,
      );
    });
    await page.goto(workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }));
    const serverDied = server.exited.then((x) => {
      throw new Error(`code-server exited during the run (${x.signal ?? `exit ${x.code}`})`);
    });
    serverDied.catch(() => {}); // settles (rejects) at close() too: not an unhandled rejection
    const code = await Promise.race([exitCode, timeout, serverDied]);
    process.stderr.write(
      `[harness] node-host tests exited ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
    // Before the server's folders go: what the run left on disk can still be read.
    const checked = onDone ? await onDone(server) : true;
    return checked === false && code === 0 ? 1 : code;
  } catch (e) {
    const timedOut = !!e.timedOut;
    process.stderr.write(`[harness] node-host tests FAILED: ${e.message}\n`);
    if (server) process.stderr.write(`--- code-server log tail ---\n${await tail(server.logFile, 30)}\n`);
    return timedOut ? 124 : 2;
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    await server?.close();
  }
}

/**
 * Opens the real workbench (extension under development loaded, no tests) for Playwright UI tests.
 * @param {{ extensionDevelopmentPath?: string, folder?: string, userSettings?: object,
 *           env?: Record<string,string>, trust?: boolean, vsix?: string|string[],
 *           viewport?: {width:number,height:number}, headless?: boolean }} opts
 *   Without extensionDevelopmentPath (e.g. with vsix) the page has no payload.
 * @returns {Promise<{ page: import('playwright-core').Page, browser: import('playwright-core').Browser,
 *   server: Awaited<ReturnType<typeof startCodeServer>>, url: string, close(): Promise<void> }>}
 */
export async function openWorkbench({
  extensionDevelopmentPath,
  folder,
  userSettings = {},
  env = {},
  trust = false,
  vsix,
  viewport = { width: 1280, height: 800 },
  headless = true,
} = {}) {
  const server = await startCodeServer({ folder, userSettings, env, trust, vsix });
  let browser;
  try {
    browser = await launchChromium({ headless });
    const page = await browser.newPage({ viewport });
    if (VERBOSE) page.on('console', (m) => process.stderr.write(`[browser ${m.type()}] ${m.text()}\n`));
    const url = workbenchUrl(server, { folder, extensionDevelopmentPath });
    await page.goto(url);
    await waitForWorkbench(page);
    return {
      page,
      browser,
      server,
      url,
      close: async () => {
        await browser.close().catch(() => {});
        await server.close();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => {});
    await server.close();
    throw e;
  }
}

/** Waits until the workbench is rendered and its extension host is up (status bar filled). */
export async function waitForWorkbench(page, { timeout = 60_000 } = {}) {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout });
  await page.locator('.statusbar').waitFor({ state: 'visible', timeout });
}

/**
 * Runs a command through the Command Palette: F1, type the title, Enter.
 * `title` is the label the palette shows (e.g. 'Harness Sample: Say Hello'). Retries until the
 * command is listed (commands of an extension appear only once its host has scanned it).
 */
export async function runCommand(page, title, { timeout = 30_000 } = {}) {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const rows = widget.locator('.quick-input-list .monaco-list-row');
  const deadline = Date.now() + timeout;
  while (true) {
    try {
      if (!(await input.isVisible())) {
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 5000 });
      }
      await input.fill(`>${title}`, { timeout: 3000 });
      const row = rows.filter({ hasText: title }).first();
      await row.waitFor({ state: 'visible', timeout: 2000 });
      const focused = rows.and(page.locator('.focused')).first();
      if ((await focused.count()) && (await focused.innerText()).includes(title)) {
        await page.keyboard.press('Enter');
      } else {
        await row.click({ timeout: 3000 });
      }
      await widget.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => {});
      return;
    } catch {
      // palette closing, or the command is not listed (yet): close it and try again
      await page.keyboard.press('Escape').catch(() => {});
    }
    if (Date.now() > deadline) {
      throw new Error(`command '${title}' not found in the Command Palette within ${timeout} ms`);
    }
    await sleep(500);
  }
}

/**
 * Returns the Frame of a webview's content (the inner `#active-frame` inside `iframe.webview`).
 * @param {import('playwright-core').Page} page
 * @param {string} [viewSelectorHint] a CSS selector that must exist in the webview content
 *   (picks the right webview when there are several); without it, the first webview with content.
 */
export async function webviewFrame(page, viewSelectorHint, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (true) {
    for (const outer of await page.locator('iframe.webview').elementHandles()) {
      const outerFrame = await outer.contentFrame();
      if (!outerFrame) continue;
      try {
        // Not frame.name(): the inner iframe is created as #pending-frame and renamed when ready.
        const handle = await outerFrame.$('iframe#active-frame');
        const inner = await handle?.contentFrame();
        if (!inner) continue;
        const ok = viewSelectorHint
          ? await inner
              .locator(viewSelectorHint)
              .count()
              .then((n) => n > 0)
          : await inner.evaluate(() => !!document.body && document.body.childElementCount > 0);
        if (ok) return inner;
      } catch {
        // frame navigating; retry
      }
    }
    if (Date.now() > deadline) {
      throw new Error(`no webview${viewSelectorHint ? ` containing ${viewSelectorHint}` : ''} within ${timeout} ms`);
    }
    await sleep(200);
  }
}

/**
 * Opens the Notification Center (no-op when open). Needed because with
 * `enable-smoke-test-driver` (which the payload needs) VS Code shows NO toasts: every notification
 * goes straight to the center (its bell gets a dot).
 */
export async function openNotificationCenter(page) {
  const center = page.locator('.notifications-center.visible');
  if (await center.isVisible()) return center;
  const bell = page.locator('[id="status.notifications"]');
  if (await bell.isVisible()) await bell.click();
  else await runCommand(page, 'Notifications: Show Notifications');
  await center.waitFor({ state: 'visible', timeout: 5000 });
  return center;
}

/** Texts of all notifications: toasts (if any) and the entries of the Notification Center. */
export async function notificationTexts(page) {
  const center = await openNotificationCenter(page);
  const toasts = await page.locator('.notification-toast').allInnerTexts();
  const items = await center.locator('.notification-list-item').allInnerTexts();
  return [...toasts, ...items];
}

/** Waits for a notification containing `text` (in the Notification Center); returns its locator. */
export async function waitForNotification(page, text, { timeout = 15_000 } = {}) {
  const center = await openNotificationCenter(page);
  const item = center.locator('.notification-list-item').filter({ hasText: text }).first();
  await item.waitFor({ state: 'visible', timeout });
  return item;
}
