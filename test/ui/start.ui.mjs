/**
 * The README's first command, as a new user runs it: `npm start` builds and packages the
 * extension, installs it into the local VS Code (code-server), prints the address; in that page
 * (its own demo folder, trusted) the chat connects to the Demo Agent and answers, and the agent
 * reads the folder's README after asking; Ctrl+C stops everything it started.
 *
 * On an empty tool cache (as in CI) this is `npm start`'s first run: its own setup and a new
 * user-data folder. Run after `npm install`: node test/ui/start.ui.mjs
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchChromium, waitForWorkbench, webviewFrame } from '../harness/code-server.mjs';
import { freePort, httpStatus } from '../harness/net.mjs';
import { REPO_ROOT } from '../harness/paths.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** `npm start` in its own process group (as in a terminal); resolves with its address. */
function npmStart(port, { timeoutMs }) {
  const child = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let out = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const address = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no address within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    child.stdout.setEncoding('utf8').on('data', (text) => {
      process.stdout.write(text);
      out += text;
      const url = out.match(/http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+/)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${signal ?? `code ${code}`}) before printing an address`));
    });
  });
  return { child, address, exited };
}

export async function runStartTest({ timeoutMs = 20 * 60_000 } = {}) {
  const port = await freePort();
  const started = Date.now();
  const start = npmStart(port, { timeoutMs });
  let browser;
  let page;
  try {
    const url = await start.address;
    if (!url.startsWith(`http://127.0.0.1:${port}/`)) {
      throw new Error(`npm start printed ${url}, not the port it was given (${port})`);
    }
    process.stdout.write(`npm start served the workbench after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await waitForWorkbench(page);
    // Issue 46, item 4: the first time, the chat is in front of VS Code's own Chat, with nothing clicked.
    const chat = await webviewFrame(page, 'acp-chat-app');
    // The side bar's active tab (its title when it has one tab).
    const front = await page
      .locator('.part.auxiliarybar')
      .evaluate(
        (bar) =>
          bar.querySelector('.composite-bar .action-item.checked, .composite-bar .action-item.active')?.textContent ??
          bar.querySelector('.title-label')?.textContent ??
          '',
      );
    if (front.trim() !== 'ACP') throw new Error(`the Secondary Side Bar shows "${front}" in front, not ACP`);
    const firstLook = path.join(REPO_ROOT, 'test-results', 'start-first-look.png');
    fs.mkdirSync(path.dirname(firstLook), { recursive: true });
    await page.screenshot({ path: firstLook });
    // The Demo Agent is set up and selected: Connect, ask, and read its answer.
    const picker = chat.locator('acp-composer-toolbar select[aria-label="Agent"]');
    await picker.locator('option[value="demo"]').waitFor({ state: 'attached', timeout: 30_000 });
    if ((await picker.inputValue()) !== 'demo') {
      throw new Error(`the agent picker shows ${await picker.inputValue()}, not the Demo Agent`);
    }
    await chat.getByRole('button', { name: 'Connect' }).click();
    await chat.getByText('Demo Agent 1.0.0').waitFor({ timeout: 30_000 });
    const box = chat.getByRole('combobox', { name: 'Message the agent' });
    await box.fill('Hello?');
    await box.press('Enter');
    await chat.locator('acp-chat-entry').getByText('a real ACP agent that plays a script').waitFor({ timeout: 30_000 });
    // Its own folder is trusted: nothing is restricted, and the agent may read a file once allowed.
    if ((await chat.locator('acp-restricted-note').count()) !== 0) {
      throw new Error("npm start's own folder opened in Restricted Mode");
    }
    // The answer is over (a prompt typed during a turn waits for Send): Send is back.
    await chat.getByRole('button', { name: 'Send', exact: true }).waitFor({ timeout: 30_000 });
    await box.fill('/read README.md');
    await box.press('Enter');
    await chat
      .getByRole('group', { name: 'Permission request: Read README.md' })
      .getByRole('button', { name: 'Allow once' })
      .click();
    await chat
      .locator('acp-chat-entry')
      .getByText('The first 12 lines of README.md are in the card above.')
      .waitFor({ timeout: 30_000 });
    const shot = path.join(REPO_ROOT, 'test-results', 'start-chat.png');
    fs.mkdirSync(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot });
    await browser.close();
    browser = undefined;

    // Ctrl+C in the terminal: SIGINT to the whole foreground group. Everything must end.
    process.kill(-start.child.pid, 'SIGINT');
    const deadline = Date.now() + 15_000;
    while (groupAlive(start.child.pid) && Date.now() < deadline) await sleep(200);
    if (groupAlive(start.child.pid)) {
      throw new Error('after Ctrl+C, processes that npm start started were still running 15 s later');
    }
    if ((await httpStatus(`http://127.0.0.1:${port}/healthz`)) !== 0) {
      throw new Error(`after Ctrl+C, port ${port} still answers`);
    }
    return shot;
  } catch (error) {
    // What the page showed when it failed.
    const failed = path.join(REPO_ROOT, 'test-results', 'start-failed.png');
    fs.mkdirSync(path.dirname(failed), { recursive: true });
    await page?.screenshot({ path: failed }).catch(() => {});
    throw error;
  } finally {
    await browser?.close().catch(() => {});
    try {
      process.kill(-start.child.pid, 'SIGKILL');
    } catch {}
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runStartTest().then(
    (shot) => console.log(`npm start test passed; screenshot: ${shot}`),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
