/**
 * Component-test harness: the REAL chat webview bundle (dist/webview/webview.js)
 * in Debian's Chromium, on a page served from 127.0.0.1 under the same CSP as
 * src/views/chatWebview.ts, with VS Code theme variables. It records what
 * a test must be able to assert about hostile content: the messages the view
 * posts to the host, every network request, every dialog, CSP violations,
 * console output, page errors and navigations.
 *
 *   const chat = await openChatPage({ theme: 'dark' });
 *   await chat.apply({ type: 'entries', length: 1, ops: [{ op: 'set', index: 0, entry }] });
 *   await chat.page.locator('acp-markdown a.link').click();   // CSS locators pierce shadow roots
 *   (await chat.posted()).at(-1);                              // { type: 'openLink', href }
 *   await chat.close();
 *
 * Build the bundle first: npx webpack --mode production --config-name webview
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from '../harness/paths.mjs';
import { ASSET_PREFIX, chatPage } from './page.mjs';
import { THEMES, themeCss } from './themes.mjs';

/** What the extension serves to the webview (its localResourceRoots); ACP_WEBVIEW_DIST points elsewhere (a bench or mutant build). */
export const WEBVIEW_DIST = path.resolve(process.env.ACP_WEBVIEW_DIST || path.join(REPO_ROOT, 'dist', 'webview'));
const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  // Scrollbars as VS Code's desktop windows show them (they take room in the layout), not hidden as Playwright's default.
  ignoreDefaultArgs: ['--hide-scrollbars'],
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

// One browser per process, shared by every open page (a launch costs ~0.5 s);
// it closes when the last page does, so a mocha run can end on its own.
let browser;
let openPages = 0;

async function acquireBrowser() {
  openPages++;
  browser ??= chromium.launch(LAUNCH).catch((error) => {
    browser = undefined;
    openPages = 0;
    throw error;
  });
  return browser;
}

async function releaseBrowser() {
  if (--openPages > 0 || !browser) return;
  const b = browser;
  browser = undefined;
  await (await b).close();
}

function serve(content) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(content.html);
    }
    // The browser asks for it by itself (not a page request); answered so that the console stays clean.
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
    const file =
      url.pathname.startsWith(ASSET_PREFIX) &&
      path.join(WEBVIEW_DIST, decodeURIComponent(url.pathname.slice(ASSET_PREFIX.length)));
    if (file && file.startsWith(WEBVIEW_DIST + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      return fs.createReadStream(file).pipe(res);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/**
 * Opens the chat webview in Chromium.
 * @param {{ theme?: 'light' | 'dark' | 'high-contrast', width?: number, height?: number }} [options]
 */
/** The view's status while agent "a" answers in chat "c1", with `extra` on top. */
export const runningStatus = (extra = {}) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn: 'running',
  plan: [],
  controls: { configOptions: [], commands: [] },
  permissions: [],
  ...extra,
});

export async function openChatPage({ theme = 'dark', width = 420, height = 800 } = {}) {
  if (!fs.existsSync(path.join(WEBVIEW_DIST, 'webview.js'))) {
    throw new Error(
      'dist/webview/webview.js is missing: run `npx webpack --mode production --config-name webview` first',
    );
  }
  if (!THEMES[theme]) throw new Error(`Unknown theme "${theme}": use ${Object.keys(THEMES).join(', ')}`);
  const content = {};
  const server = await serve(content);
  const origin = `http://127.0.0.1:${server.address().port}`;
  Object.assign(content, await chatPage(origin, theme));
  const b = await acquireBrowser();
  const context = await b.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const log = record(page, context);

  let closed = false;
  const harness = {
    page,
    origin,
    /** Where the page's HTML came from: 'chatViewProvider' (the real chatHtml). */
    pageSource: content.source,
    ...hostDriver(page),
    ...recordings(page, log, origin),
    /** Text of the rendered tree, shadow roots included; `visibleOnly` skips what is not rendered (closed <details>). */
    deepText: (selector = 'acp-chat-app', { visibleOnly = false } = {}) =>
      page.evaluate(deepTextInPage, { selector, visibleOnly }),
    /** Switches the theme variables and body class in place. */
    async setTheme(name) {
      const css = themeCss(name);
      await page.evaluate(
        ({ css, kind }) => {
          document.getElementById('acp-theme').textContent = css;
          document.body.className = kind;
          document.body.dataset.vscodeThemeKind = kind;
        },
        { css, kind: THEMES[name].kind },
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      await context.close().catch(() => {});
      server.closeAllConnections?.();
      await new Promise((resolve) => server.close(() => resolve()));
      await releaseBrowser();
    },
  };

  try {
    await page.goto(`${origin}/`);
    await page.waitForFunction(
      () =>
        document.querySelector('acp-chat-app')?.shadowRoot &&
        window.__acpHarness.posted.some((m) => m.type === 'ready'),
      undefined,
      { timeout: 10_000 },
    );
  } catch (error) {
    const details = JSON.stringify({ errors: log.errors, console: log.console.slice(-5) });
    await harness.close();
    throw new Error(`the chat page did not start: ${error.message}\n${details}`, { cause: error });
  }
  return harness;
}

/** Listens to everything the page does that a test may assert on. */
function record(page, context) {
  const log = { requests: [], dialogs: [], console: [], errors: [], navigations: [], popups: [] };
  page.on('request', (r) => log.requests.push({ url: r.url(), method: r.method(), resourceType: r.resourceType() }));
  page.on('dialog', (d) => {
    log.dialogs.push({ type: d.type(), message: d.message() });
    void d.dismiss().catch(() => {});
  });
  page.on('console', (m) => log.console.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => log.errors.push(String(e?.stack ?? e)));
  page.on('framenavigated', (f) => log.navigations.push({ url: f.url(), main: f === page.mainFrame() }));
  context.on('page', (p) => {
    if (p !== page) log.popups.push(p.url());
  });
  return log;
}

/** Plays the extension's part: host messages into <acp-chat-app>. */
function hostDriver(page) {
  const driver = {
    /** Sends a HostMessage to the app (as if from the extension) and waits until it is rendered. */
    async apply(message) {
      await page.evaluate(async (m) => {
        const app = document.querySelector('acp-chat-app');
        app.apply(m);
        await app.updateComplete;
        // Nested elements update in later microtasks; a frame plus a task lets them all finish.
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      }, message);
    },
    /** Replaces the whole transcript with `entries`. */
    setEntries(entries) {
      return driver.apply({
        type: 'entries',
        length: entries.length,
        ops: entries.map((entry, index) => ({ op: 'set', index, entry })),
      });
    },
    /** Appends streamed text to the text entry at `index` (the list keeps its length). */
    async appendText(index, text) {
      const length = await page.evaluate(() => document.querySelector('acp-chat-app').entries.length);
      return driver.apply({ type: 'entries', length, ops: [{ op: 'append', index, text }] });
    },
    /**
     * Streams `chunks` into the text entry at `index`, one host message per
     * chunk, each rendered before the next is sent (all inside the page, so
     * hundreds of chunks take a second, not a round trip each).
     */
    async streamText(index, chunks) {
      await page.evaluate(
        async ({ index, chunks }) => {
          const app = document.querySelector('acp-chat-app');
          for (const text of chunks) {
            app.apply({ type: 'entries', length: app.entries.length, ops: [{ op: 'append', index, text }] });
            await app.updateComplete;
            await new Promise((resolve) => setTimeout(resolve, 0));
          }
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        },
        { index, chunks },
      );
    },
  };
  return driver;
}

/** What the page did, as recorded: copies, so that a test can keep them. */
function recordings(page, log, origin) {
  return {
    /**
     * Messages the webview posted to the host, in order (the first is `{ type: 'ready' }`), without the `draft`s that
     * keep the host up to date with the box while typing settles (their timing is the page's): see `postedDrafts`.
     */
    posted: () => page.evaluate(() => window.__acpHarness.posted.filter((m) => m.type !== 'draft')),
    /** The `draft` messages posted, in order. */
    postedDrafts: () => page.evaluate(() => window.__acpHarness.posted.filter((m) => m.type === 'draft')),
    /** Forgets the posted messages recorded so far. */
    clearPosted: () =>
      page.evaluate(() => {
        window.__acpHarness.posted.length = 0;
      }),
    /** Every request the page made: `{ url, method, resourceType }`. */
    requests: () => log.requests.slice(),
    /** Requests other than the page itself and files of dist/webview (the bundle, its font). */
    foreignRequests: () => log.requests.filter((r) => !isOwnRequest(r.url, origin)),
    /** Every alert/confirm/prompt/beforeunload dialog: `{ type, message }` (each was dismissed). */
    dialogs: () => log.dialogs.slice(),
    /** Loads the CSP refused: `{ directive, blockedURI, sample }`. */
    violations: () => page.evaluate(() => window.__acpHarness.violations.slice()),
    /** Console messages `{ type, text }` and uncaught page errors. */
    console: () => log.console.slice(),
    errors: () => log.errors.slice(),
    /** Main-frame navigations (the first is the page load) and any popup windows' URLs. */
    navigations: () => log.navigations.filter((n) => n.main).map((n) => n.url),
    popups: () => log.popups.slice(),
  };
}

function isOwnRequest(url, origin) {
  return (
    url === `${origin}/` ||
    (url.startsWith(`${origin}${ASSET_PREFIX}`) &&
      fs.existsSync(path.join(WEBVIEW_DIST, new URL(url).pathname.slice(ASSET_PREFIX.length))))
  );
}

/** Runs in the page: concatenated text of an element's composed tree. */
function deepTextInPage({ selector, visibleOnly }) {
  const root = document.querySelector(selector);
  if (!root) return '';
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentElement;
      if (!visibleOnly || !parent || parent.checkVisibility()) out.push(node.data);
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return;
    if (node.nodeName === 'STYLE' || node.nodeName === 'SCRIPT') return;
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of node.childNodes) walk(child);
    if (node.nodeType === Node.ELEMENT_NODE && getComputedStyle(node).display !== 'inline') out.push('\n');
  };
  walk(root);
  return out.join('');
}

/** A VS Code-like getState/setState that survives reloads (VS Code keeps it while the view is hidden). */
export function installVsCodeState(page) {
  return page.addInitScript(() => {
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.dispatchEvent(new CustomEvent('acp-webview-message', { detail: m })),
      getState: () => JSON.parse(sessionStorage.getItem('vscode-state') ?? 'null') ?? undefined,
      setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
    });
  });
}
