/**
 * Node host: a built-in agent that is not installed offers Install; asked, the extension asks the registry which
 * version to install and what Node.js it needs, refuses where the node on PATH is too old, shows what will run, and
 * runs it in a VS Code terminal only once the user says Install, into the extension's own storage (pinned, no global
 * install); once the terminal closes the agent is looked for again there. `npm` here is a stand-in first on PATH:
 * `view` answers as the registry would (ENGINES sets `engines.node`), `install --prefix P` records its arguments and
 * "installs" the agent's program into P/node_modules/.bin (no network, nothing global).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { activeChat, transcript, waitFor, type Chat } from '../shared/chatWaits';
import { answeringWarning } from '../shared/dialogs';

describe('installing a built-in agent', function () {
  this.timeout(60_000);
  let chat: Chat;
  let bin: string;
  let savedPath: string | undefined;

  before(async () => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fake-npm-'));
    fs.writeFileSync(
      path.join(bin, 'npm'),
      [
        '#!/bin/sh',
        'here=$(dirname "$0")',
        'if [ "$1" = view ]; then',
        '  printf \'{"version":"1.2.3","engines":{"node":"%s"}}\\n\' "$(cat "$here/engines.txt")"',
        '  exit 0',
        'fi',
        'echo "$@" > "$here/npm-args.txt"',
        'echo "fake npm: $*"',
        'mkdir -p "$3/node_modules/.bin"',
        'printf \'#!/bin/sh\\nexit 0\\n\' > "$3/node_modules/.bin/cline"',
        'chmod +x "$3/node_modules/.bin/cline"',
      ].join('\n') + '\n',
      { mode: 0o755 },
    );
    savedPath = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
    chat = await activeChat();
    await vscode.workspace
      .getConfiguration('vscode-acp')
      .update('agents', undefined, vscode.ConfigurationTarget.Global);
    await chat.refreshAgents();
  });

  after(() => {
    process.env.PATH = savedPath;
    fs.rmSync(bin, { recursive: true, force: true });
  });

  const installing = (answer: string | undefined) =>
    answeringWarning(
      () => answer,
      () => chat.installAgent('cline'),
    );

  it('refuses to install what the node on PATH cannot run, saying why, and runs nothing', async function () {
    const before = chat.status.agents.find((a) => a.id === 'cline');
    assert.ok(before, JSON.stringify(chat.status.agents));
    if (before.available) return this.skip(); // installed on this machine for real
    assert.equal(before.install, 'npm install cline');
    fs.writeFileSync(path.join(bin, 'engines.txt'), '>=99');
    const asked = await installing('Install');
    assert.equal(asked.message, '(none)', 'not asked: it cannot run here');
    assert.match(
      transcript(chat),
      /Could not install Cline: Cline 1\.2\.3 needs Node\.js >=99; the node on PATH is \d+\.\d+\.\d+\./,
    );
    assert.ok(!fs.existsSync(path.join(bin, 'npm-args.txt')), 'nothing installed');
  });

  it('shows what will run; said no, runs nothing; said Install, runs it in a terminal into its storage, then finds the agent', async function () {
    if (chat.status.agents.find((a) => a.id === 'cline')?.available) return this.skip();
    fs.writeFileSync(path.join(bin, 'engines.txt'), '>=18');
    const declined = await installing(undefined);
    assert.equal(declined.message, 'Install Cline 1.2.3?');
    assert.ok(!fs.existsSync(path.join(bin, 'npm-args.txt')), 'nothing ran before it was asked');

    const opened = new Promise<vscode.Terminal>((resolve) => {
      const sub = vscode.window.onDidOpenTerminal((t) => {
        sub.dispose();
        resolve(t);
      });
    });
    let terminal: vscode.Terminal | undefined;
    void opened.then((t) => (terminal = t));
    const asked = await installing('Install');
    assert.equal(terminal?.name, 'Install Cline 1.2.3');
    const args = fs.readFileSync(path.join(bin, 'npm-args.txt'), 'utf8').trim().split(' ');
    const prefix = args[2]!;
    assert.deepEqual(
      [args[0], args[1], ...args.slice(3)],
      ['install', '--prefix', '--engine-strict', '--no-audit', '--no-fund', 'cline@1.2.3'],
    );
    assert.match(prefix, /[\\/]agents[\\/]cline$/, 'into the extension storage, a folder of its own');
    assert.match(
      asked.detail,
      new RegExp(`^Runs: npm install --prefix ${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
    );
    assert.match(asked.detail, /not a global install/);
    assert.match(asked.detail, /It needs Node\.js >=18; this machine's is \d+\.\d+\.\d+\./);
    await waitFor(
      chat,
      'the agent to be found',
      () => chat.status.agents.find((a) => a.id === 'cline')?.available === true,
    );
    assert.equal(chat.status.agents.find((a) => a.id === 'cline')?.install, undefined, 'no install offered once found');
    assert.match(transcript(chat), /Cline is installed: Connect to start it\./);
    fs.rmSync(prefix, { recursive: true, force: true });
  });
});
