/**
 * Nothing the extension starts for an agent may outlive VS Code: neither the
 * agent process nor a command it ran (nor their children), after a normal
 * shutdown of code-server (SIGTERM) or a SIGKILL of the extension host, when
 * none of the extension's code runs at the end. Each case: start them in the
 * real Node extension host (test/integration/orphans), end VS Code that way,
 * then look for survivors.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatLogArgs, launchChromium, startCodeServer, workbenchUrl } from './harness/code-server.mjs';
import { REPO_ROOT } from './harness/paths.mjs';

const MARKER = 'sleep 3517';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function survivors() {
  try {
    return execFileSync('pgrep', ['-af', MARKER], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter((l) => l && !l.includes('pgrep'));
  } catch {
    return [];
  }
}

async function waitForNoSurvivors(ms) {
  const deadline = Date.now() + ms;
  while (survivors().length > 0 && Date.now() < deadline) await sleep(100);
  return survivors();
}

/** One case: `end(server, hostPid)` ends VS Code its way; resolves with what is left after 6 s. */
async function runCase(name, end) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-orphans-'));
  const pidFile = path.join(folder, '..', `${path.basename(folder)}.pid.json`);
  const server = await startCodeServer({ folder, env: { ORPHANS_PID_FILE: pidFile, ORPHANS_HOLD: '1' } });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const line = formatLogArgs(args);
      // The runner's own failure (workbench noise is left out; HARNESS_VERBOSE shows it).
      if (process.env.HARNESS_VERBOSE || /expected \d+ processes|the consent prompt/.test(line)) {
        process.stdout.write(`[host] ${line}\n`);
      }
    });
    await page.exposeFunction('codeAutomationExit', (code) => process.stdout.write(`[host] runner exited ${code}\n`));
    await page.goto(
      workbenchUrl(server, {
        folder,
        extensionDevelopmentPath: REPO_ROOT,
        extensionTestsPath: path.join(REPO_ROOT, 'dist/node/test/orphans.js'),
      }),
    );
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(pidFile)) {
      if (Date.now() > deadline) throw new Error(`${name}: the extension host never started the agent and its command`);
      await sleep(200);
    }
    const { host } = JSON.parse(fs.readFileSync(pidFile, 'utf8'));
    process.stdout.write(
      `${name}: running: ${survivors().length} processes (agent, shell, two sleeps); extension host pid ${host}\n`,
    );
    await end(server, host);
    const left = await waitForNoSurvivors(6_000);
    process.stdout.write(
      `${name}: ${left.length ? `LEFT RUNNING:\n  ${left.join('\n  ')}` : 'nothing left running'}\n`,
    );
    return left;
  } finally {
    await browser.close().catch(() => {});
    await server.close();
    // Never leave them behind for the next case, whatever happened.
    try {
      execFileSync('pkill', ['-KILL', '-f', MARKER]);
    } catch {}
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(pidFile, { force: true });
  }
}

export async function runOrphanTests() {
  if (survivors().length) throw new Error(`processes with "${MARKER}" run already: ${survivors().join('; ')}`);
  const failures = [];
  // code-server's normal shutdown: SIGTERM to the server's process group (it, its extension host).
  const shutdown = await runCase('normal shutdown (SIGTERM)', (server) => server.close());
  if (shutdown.length) failures.push('normal shutdown');
  // The extension host killed outright: none of its code runs.
  const killed = await runCase('extension host SIGKILLed', (_server, host) => process.kill(host, 'SIGKILL'));
  if (killed.length) failures.push('SIGKILL of the extension host');
  if (failures.length) throw new Error(`processes outlived VS Code after: ${failures.join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runOrphanTests().then(
    () => console.log('orphans: none'),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
