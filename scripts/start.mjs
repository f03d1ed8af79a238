/**
 * `npm start`: builds the extension, installs it into a local VS Code in the
 * browser (code-server, Node extension host) and serves it on localhost, with
 * the agents found on this machine plus the Demo Agent (src-node/demo: no model, no account) ready to pick.
 *
 *   npm start                 opens a demo folder it makes for itself, trusted (it is its own)
 *   npm start -- /some/folder opens that folder (Restricted Mode until you trust it, as VS Code does)
 *   PORT=9000 npm start       another port (default 8080)
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { setup } from '../test/harness/setup.mjs';
import { CACHE, CODE_SERVER_ENTRY, NODE24, REPO_ROOT } from '../test/harness/paths.mjs';

const port = Number(process.env.PORT ?? 8080);
const home = path.join(CACHE, 'start');
const named = process.argv[2];
const folder = named ? path.resolve(named) : demoFolder();
const userDataDir = path.join(home, 'user-data');
const extensionsDir = path.join(home, 'extensions');

function step(what, command, args, options = {}) {
  process.stdout.write(`\n> ${what}\n`);
  const r = spawnSync(command, args, { cwd: REPO_ROOT, stdio: 'inherit', ...options });
  if (r.status !== 0) {
    process.stderr.write(`npm start: ${what} failed\n`);
    process.exit(1);
  }
}

/**
 * The folder `npm start` opens when none is named: made here once, with a
 * README the Demo Agent can read (`/read README.md`), so that nothing the
 * agent does touches a real project.
 */
function demoFolder() {
  const dir = path.join(home, 'demo-folder');
  const readme = path.join(dir, 'README.md');
  if (!fs.existsSync(readme)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      readme,
      '# A demo folder\n\n`npm start` made this folder for you to try the ACP chat in.\n' +
        'Ask the Demo Agent to `/read README.md`, or pick a real agent and ask it to change something here.\n',
    );
  }
  return dir;
}

/** Adds the demo agent to the user settings, keeping whatever else is there. */
function writeSettings() {
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '{}';
  if (typeof parse(text) !== 'object') text = '{}';
  const demo = {
    name: 'Demo Agent',
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'dist/bridge/demo-agent.js')],
  };
  const set = (key, value) => {
    text = applyEdits(text, modify(text, key, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  };
  set(['vscode-acp.agents', 'demo'], demo);
  if (parse(text)['workbench.startupEditor'] === undefined) set(['workbench.startupEditor'], 'none');
  if (parse(text)['vscode-acp.defaultAgent'] === undefined) set(['vscode-acp.defaultAgent'], 'demo');
  fs.writeFileSync(file, text);
}

process.stdout.write('> Installing what the local VS Code needs (once, into ' + CACHE + ')\n');
await setup({ parts: ['code-server'] });
step('Building and packaging the extension', 'npm', ['run', '--silent', 'package']);
// Its own config file: without one, code-server writes a password config to ~/.config.
const config = path.join(home, 'config.yaml');
fs.mkdirSync(home, { recursive: true });
fs.writeFileSync(
  config,
  `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\ndisable-telemetry: true\ndisable-update-check: true\n`,
);
/** code-server with npm start's own config, user data and extensions. */
const codeServer = [
  CODE_SERVER_ENTRY,
  '--config',
  config,
  '--user-data-dir',
  userDataDir,
  '--extensions-dir',
  extensionsDir,
];
step('Installing it into the local VS Code', NODE24, [
  ...codeServer,
  '--install-extension',
  path.join(REPO_ROOT, 'vscode-acp.vsix'),
  '--force',
]);
writeSettings();

const server = spawn(
  NODE24,
  [
    ...codeServer,
    // Its own demo folder is trusted; a folder the user names is VS Code's to ask about.
    ...(named ? [] : ['--disable-workspace-trust']),
    folder,
  ],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
server.stdout.setEncoding('utf8').on('data', (text) => {
  if (/HTTP server listening/.test(text)) {
    process.stdout.write(
      `\nVS Code with the ACP extension is running. Open this in your browser:\n\n  http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}\n\n` +
        'Then click the ACP icon in the Secondary Side Bar (or run "Focus on Agent Chat View", Ctrl+Alt+Shift+A), pick an agent and press Connect.\n' +
        'Press Ctrl+C to stop.\n',
    );
  }
});
server.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'));
