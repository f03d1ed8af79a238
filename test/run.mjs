/**
 * `npm test`: everything, on a fresh machine too. Installs what the real-host
 * tests need (once, into a cache outside the repo), builds, then runs:
 * type check, unit tests, the web-bundle guard, the webview's component tests
 * in Chromium, integration tests in the Node
 * extension host (code-server) and in the web worker host (@vscode/test-web,
 * through the real bridge), the UI tests in Chromium, the packaged .vsix, and
 * `npm start` itself.
 *
 * Ends with one line "N passed, N failed". `node test/run.mjs unit web ...`
 * runs only the named stages (building first when they test a `dist/` older
 * than the sources); `node test/run.mjs --list` names them all.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from './harness/paths.mjs';
import { startBridge, startStandardServer } from './harness/bridgeProcess.mjs';
import { STAGES } from './stages.mjs';

const listOnly = process.argv.includes('--list');
const only = new Set(process.argv.slice(2).filter((a) => a !== '--list'));
const results = [];
/** The stages' implementations, each registered by `stage()` below; run in the order of test/stages.mjs. */
const stages = [];
/** What `build` makes (webpack.config.js stamps each bundle's build), and what it is made from. */
const STAMPS = path.join(REPO_ROOT, 'dist', '.stamps');
const SOURCES = ['src', 'src-node', 'src-web', 'webview', 'test', 'package.json', 'webpack.config.js'];
const NOT_FROM_DIST = new Set(['setup', 'typecheck', 'lint', 'build', 'web-bundle-guard']);

// What each stage printed, so that the last lines of the run say why a stage failed: CI keeps
// only the tail of a long log.
let printed = '';
for (const stream of [process.stdout, process.stderr]) {
  const write = stream.write.bind(stream);
  stream.write = (chunk, ...rest) => {
    printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (printed.length > 4_000_000) printed = printed.slice(-2_000_000);
    return write(chunk, ...rest);
  };
}

/** Mocha's failures (titles and messages, no stack lines), or else the stage's last lines. */
function whyFailed(text) {
  // Stack frames say where, not why: the lines kept are the messages.
  const lines = text
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^\s+at /.test(l));
  const at = lines.findLastIndex((l) => /^\s*\d+ failing/.test(l));
  const picked = at >= 0 ? lines.slice(at) : lines.slice(-15);
  return picked
    .slice(0, 24)
    .map((l) => (l.length > 300 ? l.slice(0, 300) + '…' : l))
    .join('\n');
}

/** One line for the run's last lines (CI may keep no more than those): past mocha's counts, the first. */
function firstReason(text) {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !/^(===|\s*\d+ (passing|failing|pending))/.test(l));
  const line = lines.find((l) => /error|fail|not ok|expected/i.test(l)) ?? lines[0] ?? '';
  return line.trim().slice(0, 200);
}

function stage(name, fn) {
  stages.push({ name, fn });
}

/** The newest modification time of a TypeScript source or config under `paths` (test scripts run as they are). */
function newestSource(paths) {
  let newest = 0;
  const visit = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) {
        if (entry !== 'node_modules' && entry !== 'tmp') visit(path.join(file, entry));
      }
    } else if (/\.(ts|json)$/.test(file) || file.endsWith('webpack.config.js')) newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(path.join(REPO_ROOT, p));
  return newest;
}

/** Whether `dist/` was never built, or built before a source it is made from last changed. */
function distIsStale() {
  const stamps = fs.existsSync(STAMPS)
    ? fs.readdirSync(STAMPS).map((f) => fs.statSync(path.join(STAMPS, f)).mtimeMs)
    : [];
  return stamps.length === 0 || Math.min(...stamps) < newestSource(SOURCES);
}

async function runStage(name, fn) {
  const started = Date.now();
  printed = '';
  process.stdout.write(`\n=== ${name}\n`);
  let ok = false;
  let thrown;
  try {
    ok = (await fn()) !== false;
  } catch (error) {
    thrown = error instanceof Error ? error.message : String(error);
    process.stdout.write(`${error instanceof Error ? error.stack : error}\n`);
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const why = ok ? '' : whyFailed(printed);
  results.push({ name, ok, seconds, why, reason: ok ? '' : firstReason(thrown ?? why) });
  process.stdout.write(`=== ${name}: ${ok ? 'passed' : 'FAILED'} (${seconds} s)\n`);
}

/** Runs a command, its output through ours (so a failure can be summed up); resolves true on exit 0. */
function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: ['inherit', 'pipe', 'pipe'], ...options });
    child.stdout.on('data', (d) => process.stdout.write(d));
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.once('error', (e) => {
      process.stdout.write(`${command}: ${e.message}\n`);
      resolve(false);
    });
    child.once('close', (code) => resolve(code === 0));
  });
}

const npx = (...args) => run('npx', ['--no-install', ...args]);

/** A scratch workspace folder for one host's tests. */
function workspace(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `acp-${name}-`));
  fs.writeFileSync(path.join(dir, 'README.md'), `# ${name} test workspace\n`);
  return fs.realpathSync(dir);
}

stage('setup', async () => {
  const { setup } = await import('./harness/setup.mjs');
  await setup();
  // The real agents of the real-agents stage, into the cache.
  const { REAL_AGENTS } = await import('./real-agents/agents.mjs');
  for (const agent of Object.values(REAL_AGENTS)) await agent.install();
  const { installConformance } = await import('./mcp/install.mjs');
  await installConformance();
});
stage('typecheck', () => run('npm', ['run', '--silent', 'typecheck']));
stage('lint', () => run('npm', ['run', '--silent', 'lint']));
stage('build', async () => {
  if (!(await run('npm', ['run', '--silent', 'build']))) return false;
  // VS Code's Node host reports a read of `navigator` as an error at every start (test/checks/nodeEntryLoad.cjs).
  return run('node', ['test/checks/nodeEntryLoad.cjs']);
});
stage('web-bundle-guard', () => {
  // A Node builtin imported anywhere in a web bundle must fail the build.
  const r = spawnSync(
    'npx',
    ['--no-install', 'webpack', '--mode', 'production', '--env', 'webEntry=./test/fixtures/imports-node-builtin.ts'],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  const failedAsExpected = r.status !== 0 && /Node builtin "node:fs"/.test(r.stdout + r.stderr);
  process.stdout.write(
    failedAsExpected
      ? 'the web build refused a Node builtin, as it must\n'
      : `expected the web build to fail on a Node builtin:\n${r.stdout}${r.stderr}\n`,
  );
  return failedAsExpected;
});
stage('unit', () => npx('mocha', 'dist/test/unit.js'));
stage('mcp-conformance', async () => {
  const { installConformance, serverScenarios, CONFORMANCE_CLI } = await import('./mcp/install.mjs');
  const { NODE24 } = await import('./harness/paths.mjs');
  await installConformance();
  // Every scenario of the suite is run or named with why it does not apply (a new one fails until it is).
  const scenarios = serverScenarios().join(',');
  return run('node', ['dist/test/mcpConformance.js', CONFORMANCE_CLI, NODE24, scenarios]);
});
stage('webview', () => run('node', ['test/webview/run.mjs']));
/**
 * The scripted agent served over the standard remote transport, twice: as in the integration scenario, and one
 * that lists sessions and hangs on its first listing until it is given up. Their URLs go in the workspace the tests
 * open (`standard-url.txt`, the first's Streamable HTTP URL `standard-http-url.txt`, `standard-listing-url.txt`), each
 * with a query standing for a token.
 */
async function startServedAgents(folder) {
  const listing = JSON.stringify({
    agentCapabilities: { sessionCapabilities: { list: {} } },
    hang: { 'session/list': 1 },
    turns: [{ match: 'report cancelled', steps: [{ reportCancelled: true }] }],
  });
  const servers = [await startStandardServer(), await startStandardServer(listing)];
  fs.writeFileSync(path.join(folder, 'standard-url.txt'), `${servers[0].url}?token=not-shown`);
  fs.writeFileSync(path.join(folder, 'standard-http-url.txt'), `${servers[0].httpUrl}?token=not-shown`);
  fs.writeFileSync(path.join(folder, 'standard-listing-url.txt'), `${servers[1].url}?token=not-shown`);
  return servers;
}

stage('node', async () => {
  const { runNodeHostTests } = await import('./harness/code-server.mjs');
  const { filesHolding, filesUnder } = await import('./harness/canaries.mjs');
  const folder = workspace('node');
  // Resolved into MCP servers by `${env:ACP_TEST_MCP_SECRET}`; the test agent writes it to stderr and
  // sends it back in errors. A quote and a backslash: its JSON form differs.
  const secret = `canary-mcp-"q\\-${process.pid}-${Date.now()}`;
  // What the test agent's terminal sign-in prints: VS Code shows it in a terminal, and nothing keeps it.
  const signInCanary = `canary-signin-${process.pid}-${Date.now()}`;
  // Agents served over the standard remote transport (shared/served.test.ts).
  const served = await startServedAgents(folder);
  const code = await runNodeHostTests({
    extensionDevelopmentPath: REPO_ROOT,
    extensionTestsPath: path.join(REPO_ROOT, 'dist/node/test/index.js'),
    folder,
    env: { ACP_TEST_MCP_SECRET: secret, ACP_TEST_SIGNIN_CANARY: signInCanary },
    userSettings: { 'vscode-acp.diagnostics.enabled': true },
    timeoutMs: 300_000,
    onDone: async (server) => {
      // Everything the extension wrote: logs, output channels, workspace and global state, the workspace.
      const { found, files, skipped } = filesHolding([server.tmpDir, folder], [secret, signInCanary]);
      process.stdout.write(
        `secret canaries (MCP env value, sign-in output): in ${found.length} of ${files} files the run wrote${found.length ? `: ${found.join(', ')}` : ''} (${skipped.length} over 64 MiB not read)\n`,
      );
      // The diagnostics channel (on for this run): a JSON record per message, and no content.
      const logs = filesUnder([server.tmpDir]).filter((f) => path.basename(f) === 'ACP Diagnostics.log');
      const lines = logs.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n').filter(Boolean));
      const records = lines
        .map((l) => /^\S+ \S+ \[info\] (\{.*\})$/.exec(l)?.[1])
        .filter(Boolean)
        .map((j) => JSON.parse(j));
      const prompts = ['report mcp', 'leak mcp', 'report prompt', 'signed in and answering'];
      const leaked = lines.filter((l) => prompts.some((p) => l.includes(p)));
      process.stdout.write(
        `diagnostics: ${records.length} records in ${lines.length} lines, ${leaked.length} with content (${new Set(records.map((r) => r.method)).size} methods)\n`,
      );
      return found.length === 0 && records.length > 100 && records.length === lines.length && leaked.length === 0;
    },
  }).finally(() => served.forEach((s) => s.stop()));
  return code === 0;
});
stage('workspaces', async () => {
  // What the node stage's window cannot show: a multi-root workspace (MCP sources, the folders given to agents), Restricted Mode,
  // a hostile Git repository.
  const { runNodeHostTests } = await import('./harness/code-server.mjs');
  const write = (file, value) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  };
  const servers = (...names) => ({ 'vscode-acp.mcpServers': names.map(([name, command]) => ({ name, command })) });
  const userSettings = servers(['user-srv', '/opt/user-srv']);
  const run = (folder, mode, { trust = false, settings = userSettings, env = {} } = {}) =>
    runNodeHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'dist/node/test/workspaces.js'),
      folder,
      userSettings: settings,
      trust,
      env: { ACP_WORKSPACE_MODE: mode, ...env },
      timeoutMs: 120_000,
    });
  const multi = workspace('multi');
  for (const name of ['alpha', 'beta']) write(path.join(multi, name, 'README.md'), `# ${name}\n`);
  // Beside the workspace's folders, not one of them: no agent may reach it through the extension.
  write(path.join(multi, 'gamma', 'secret.txt'), "gamma's secret\n");
  write(
    path.join(multi, 'alpha', '.vscode', 'settings.json'),
    servers(['alpha-settings', '/opt/alpha'], ['shared', '/opt/alpha-shared']),
  );
  write(path.join(multi, 'alpha', '.vscode', 'mcp.json'), {
    servers: { 'alpha-project': { command: '/opt/alpha-project' } },
  });
  write(path.join(multi, 'beta', '.vscode', 'settings.json'), servers(['beta-settings', '/opt/beta']));
  const workspaceFile = path.join(multi, 'multi.code-workspace');
  write(workspaceFile, {
    folders: [{ path: 'alpha' }, { path: 'beta' }],
    settings: servers(['ws-srv', '/opt/ws'], ['shared', '/opt/ws-shared']),
  });
  const multiOk = (await run(workspaceFile, 'multi-root')) === 0;
  const restricted = workspace('restricted');
  // A cloned repository's own settings, each different from the user's: none may count in Restricted Mode.
  write(path.join(restricted, '.vscode', 'settings.json'), {
    ...servers(['ws-srv', '/opt/ws']),
    'vscode-acp.agents': { 'folder-agent': { name: 'Folder Agent', command: '/opt/folder-agent' } },
    'vscode-acp.agentPaths': { test: '/opt/folder-test-agent' },
    'vscode-acp.defaultAgent': 'folder-agent',
  });
  write(path.join(restricted, '.vscode', 'mcp.json'), { servers: { 'project-srv': { command: '/opt/project' } } });
  const restrictedOk = (await run(restricted, 'restricted', { trust: true })) === 0;
  // A trusted folder that is a hostile Git repository: the checkpoints' Git must run none of its programs.
  const repo = JSON.parse(
    spawnSync(process.execPath, [path.join(REPO_ROOT, 'dist/test/hostileRepo.js')], { encoding: 'utf8' }).stdout,
  );
  const hostileOk =
    (await run(repo.root, 'hostile-git', {
      // VS Code's own Git runs the repository's programs, as Git does for its user: off here, to see only ours.
      settings: { 'git.enabled': false, 'git.autoRepositoryDetection': false },
      env: { ACP_HOSTILE_MARKERS: repo.markers },
    })) === 0;
  return multiOk && restrictedOk && hostileOk;
});
stage('orphans', async () => {
  // Nothing started for an agent outlives VS Code: normal shutdown, SIGKILLed extension host.
  const { runOrphanTests } = await import('./orphans.mjs');
  await runOrphanTests();
});
stage('real-agents', async () => {
  const { runRealAgentTests } = await import('./real-agents/run.mjs');
  return (await runRealAgentTests({ bundle: path.join(REPO_ROOT, 'dist/real/test/index.js') })) === 0;
});
stage('web', async () => {
  const { runWebHostTests } = await import('./harness/test-web.mjs');
  const { startDropProxy } = await import('./harness/dropProxy.mjs');
  const { filesHolding } = await import('./harness/canaries.mjs');
  const folder = workspace('web');
  // The bridge machine's secret: in the bridge's and the agent's environment, named by
  // `${env:ACP_TEST_MCP_SECRET}` in the MCP settings. The web worker cannot resolve it, and nothing
  // (bridge, agent, extension) may carry it anywhere: into the workspace, the sessions, the bridge's output.
  const secret = `canary-web-mcp-"q\\-${process.pid}-${Date.now()}`;
  const sessions = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-web-sessions-'));
  const bridge = await startBridge(folder, sessions, undefined, { ACP_TEST_MCP_SECRET: secret });
  // A second agent that takes neither embedded context nor images: what a vscode.dev file cannot be sent to.
  const plain = await startBridge(
    folder,
    fs.mkdtempSync(path.join(os.tmpdir(), 'acp-web-plain-')),
    JSON.stringify({ agentCapabilities: {}, turns: [{ match: '', steps: [{ reportPrompt: true }] }] }),
  );
  // The extension connects through a proxy that the tests can ask to cut the connection.
  const proxy = await startDropProxy(Number(new URL(bridge.url).port));
  // Agents served over the standard remote transport (shared/served.test.ts).
  const served = await startServedAgents(folder);
  // The folder is a hostile repository's: its own settings point the bridge elsewhere (web/bridgeAddress.test.ts).
  const { startTrap } = await import('./harness/trap.mjs');
  const trap = await startTrap();
  fs.mkdirSync(path.join(folder, '.vscode'), { recursive: true });
  fs.writeFileSync(
    path.join(folder, '.vscode', 'settings.json'),
    JSON.stringify({ 'vscode-acp.bridge.url': trap.url }),
  );
  try {
    const proxied = new URL(bridge.url);
    proxied.port = String(proxy.port);
    fs.writeFileSync(path.join(folder, 'bridge-url.txt'), proxied.href);
    fs.writeFileSync(path.join(folder, 'drop-url.txt'), `http://127.0.0.1:${proxy.port}/__drop`);
    fs.writeFileSync(path.join(folder, 'bridge-plain-url.txt'), plain.url);
    fs.writeFileSync(path.join(folder, 'trap-url.txt'), trap.url);
    const code = await runWebHostTests({
      extensionDevelopmentPath: REPO_ROOT,
      extensionTestsPath: path.join(REPO_ROOT, 'dist/web/test/index.js'),
      folderPath: folder,
      timeoutMs: 180_000,
    });
    const { found, files } = filesHolding([folder, sessions], [secret]);
    const inOutput = [secret, JSON.stringify(secret).slice(1, -1)].some((v) => bridge.printed().includes(v));
    process.stdout.write(
      `secret canary (the bridge machine's MCP env value): in ${found.length} of ${files} files under the workspace and sessions${found.length ? `: ${found.join(', ')}` : ''}; in the bridge's output: ${inOutput ? 'yes' : 'no'}\n`,
    );
    const trapped = trap.requests();
    process.stdout.write(
      `the workspace's bridge address was asked ${trapped.length} times${trapped.some((u) => u.includes('token=')) ? ', with a token' : ''}\n`,
    );
    return code === 0 && found.length === 0 && !inOutput && trapped.length === 0;
  } finally {
    await trap.close();
    await proxy.close();
    bridge.stop();
    plain.stop();
    served.forEach((s) => s.stop());
  }
});
stage('ui', async () => {
  const { runChatUiTest } = await import('./ui/chat.ui.mjs');
  const shot = await runChatUiTest();
  process.stdout.write(`screenshot: ${path.relative(REPO_ROOT, shot)}\n`);
});

stage('ui-install', async () => {
  // Install of a built-in agent at the default side bar width: the real npm against a stub registry on 127.0.0.1.
  const { runInstallUiTest } = await import('./ui/install.ui.mjs');
  process.stdout.write(`screenshot: ${path.relative(REPO_ROOT, await runInstallUiTest())}\n`);
});

stage('ui-web', async () => {
  // The web worker host in VS Code for the Web: the bridge set as a user does, a chat, and its history after a reload.
  const { runWebChatUiTest } = await import('./ui/webChat.ui.mjs');
  const { shot, shownMs } = await runWebChatUiTest();
  process.stdout.write(
    `after a reload, the saved chat was shown ${shownMs} ms after it was picked: ${path.relative(REPO_ROOT, shot)}\n`,
  );
});

stage('ui-everything', async () => {
  // Every session/update kind shown in the real workbench; light and dark screenshots.
  const { runEverythingUiTest } = await import('./ui/everything.ui.mjs');
  const shots = await runEverythingUiTest();
  process.stdout.write(`screenshots: ${shots.map((s) => path.relative(REPO_ROOT, s)).join(', ')}\n`);
});
stage('ui-review', async () => {
  // An agent's edit reviewed hunk by hunk in an ordinary editor, by keyboard; light and dark screenshots.
  const { runReviewUiTest } = await import('./ui/review.ui.mjs');
  const shots = await runReviewUiTest();
  process.stdout.write(`screenshots: ${shots.map((s) => path.relative(REPO_ROOT, s)).join(', ')}\n`);
});
stage('ui-walkthrough', async () => {
  // The Get Started walkthrough walked as a first-time user does, each step done for real.
  const { runWalkthroughUiTest } = await import('./ui/walkthrough.ui.mjs');
  const shot = await runWalkthroughUiTest();
  process.stdout.write(`every step of the walkthrough done by doing it: ${path.relative(REPO_ROOT, shot)}\n`);
});
stage('ui-compare', async () => {
  // One task to two agents, each in a worktree, from the Command Palette; the compare view; Apply of one.
  const { runCompareUiTest } = await import('./ui/compare.ui.mjs');
  const shots = await runCompareUiTest();
  process.stdout.write(`screenshots: ${shots.map((s) => path.relative(REPO_ROOT, s)).join(', ')}\n`);
});
stage('ui-huge', async () => {
  // An 8 MiB message on one line: shown in part, whole in an editor, and nothing freezes.
  const { runHugeMessageUiTest } = await import('./ui/hugeMessage.ui.mjs');
  const { shot, slowestMs } = await runHugeMessageUiTest();
  process.stdout.write(
    `slowest answer of workbench or chat while it arrived: ${slowestMs} ms; ${path.relative(REPO_ROOT, shot)}\n`,
  );
});
stage('ui-hostile', async () => {
  // Text of every shape an agent sends in one piece, in both hosts: no renderer task over 100 ms of CPU.
  // An echoed secret: in no file and nowhere in the view. Stop to Send back within 2 s.
  const { runNodeHostileTextUiTest, runWebHostileTextUiTest } = await import('./ui/hostileText.ui.mjs');
  const node = await runNodeHostileTextUiTest();
  const web = await runWebHostileTextUiTest();
  const worst = (r) => r.results.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
  process.stdout.write(
    `Stop to Send back (an agent that ignores it): ${node.stopMs} ms; ` +
      `longest renderer task: Node host ${worst(node).cpuMs} ms (${worst(node).case}), web host ${worst(web).cpuMs} ms (${worst(web).case}); ` +
      `${path.relative(REPO_ROOT, node.shot)}, ${path.relative(REPO_ROOT, web.shot)}\n`,
  );
});
stage('fuzz', async () => {
  // 10,000 messages generated from the SDK's JSON Schema (a third mutated, some lines broken)
  // through the real extension and chat view: nothing crashes, the chat answers, memory comes back.
  const { describeFuzz, runFuzzUiTest } = await import('./ui/fuzz.ui.mjs');
  const seeds = (process.env.ACP_FUZZ_SEEDS ?? '1,2,3,4').split(',').map(Number);
  process.stdout.write(`${describeFuzz(await runFuzzUiTest({ count: 2_500, seeds }))}\n`);
});
stage('package', async () => {
  const { checkPackage } = await import('./checks/vsixPackage.mjs');
  const { files, bytes, vsixBytes } = checkPackage();
  process.stdout.write(
    `vscode-acp.vsix: ${files.length} files, ${bytes} bytes (${vsixBytes} packed), no vsce warning\n`,
  );
  const { runVsixTest } = await import('./ui/vsix.ui.mjs');
  const shot = await runVsixTest();
  process.stdout.write(`the .vsix installs into code-server and shows the chat: ${path.relative(REPO_ROOT, shot)}\n`);
});

stage('screenshots', async () => {
  // npm run screenshots, into test-results/ (the repository's images/ are refreshed by running it by hand).
  const { makeScreenshots } = await import('./ui/screenshots.ui.mjs');
  const shots = await makeScreenshots(path.join(REPO_ROOT, 'test-results', 'screenshots'));
  process.stdout.write(
    `${shots.length} pictures, each a PNG of the window: ${shots.map((s) => path.basename(s)).join(', ')}\n`,
  );
});

stage('start', async () => {
  // The README's first command, run for real: it serves the workbench and the chat answers.
  const { runStartTest } = await import('./ui/start.ui.mjs');
  const shot = await runStartTest();
  process.stdout.write(
    `npm start served a chat that answered; Ctrl+C ended it all: ${path.relative(REPO_ROOT, shot)}\n`,
  );
});

// The order and the words are the table's (test/stages.mjs); each of its stages has its implementation here.
const made = new Map(stages.map((s) => [s.name, s]));
const mismatch = [
  ...STAGES.filter((s) => !made.has(s.name)).map((s) => `${s.name}: in test/stages.mjs, not implemented here`),
  ...stages.filter((s) => !STAGES.some((t) => t.name === s.name)).map((s) => `${s.name}: not in test/stages.mjs`),
];
if (mismatch.length > 0) {
  process.stdout.write(`The stages and their table differ:\n  ${mismatch.join('\n  ')}\n`);
  process.exit(2);
}
stages.splice(0, stages.length, ...STAGES.map((s) => made.get(s.name)));
if (listOnly) {
  process.stdout.write(`${STAGES.map((s) => `${s.name.padEnd(18)}${s.checks}`).join('\n')}\n`);
  process.exit(0);
}
const unknown = [...only].filter((name) => !stages.some((s) => s.name === name));
if (unknown.length > 0) {
  process.stdout.write(`No stage named ${unknown.join(', ')}. The stages: ${stages.map((s) => s.name).join(', ')}\n`);
  process.exit(2);
}
const chosen = stages.filter((s) => only.size === 0 || only.has(s.name));
// A chosen stage that tests dist/ must not test a stale one: build first (the whole run builds anyway).
if (only.size > 0 && !only.has('build') && chosen.some((s) => !NOT_FROM_DIST.has(s.name)) && distIsStale()) {
  process.stdout.write('dist/ was never built, or built before the sources last changed: building first.\n');
  chosen.unshift(stages.find((s) => s.name === 'build'));
}
for (const s of chosen) await runStage(s.name, s.fn);

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
for (const r of results.filter((r) => !r.ok)) process.stdout.write(`\n--- why ${r.name} failed ---\n${r.why}\n`);
process.stdout.write(
  '\n' +
    results
      .map((r) => `${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.seconds} s)${r.ok ? '' : `: ${r.reason}`}`)
      .join('\n') +
    '\n',
);
process.stdout.write(`stages: ${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
