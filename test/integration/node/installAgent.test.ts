/**
 * Node host: a built-in agent that is not installed offers its install
 * command, and runs it in a VS Code terminal only when asked; once the
 * terminal closes the agent is looked for again. `npm` here is a stand-in
 * first on PATH that records its arguments and "installs" the agent's
 * program beside itself (no network, nothing global).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { activeChat, transcript, waitFor, type Chat } from '../shared/chatWaits';

suite('installing a built-in agent', function () {
  this.timeout(60_000);
  let chat: Chat;
  let bin: string;
  let savedPath: string | undefined;

  suiteSetup(async () => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fake-npm-'));
    fs.writeFileSync(
      path.join(bin, 'npm'),
      [
        '#!/bin/sh',
        'here=$(dirname "$0")',
        'echo "$@" > "$here/npm-args.txt"',
        'echo "fake npm: $*"',
        'printf \'#!/bin/sh\\nexit 0\\n\' > "$here/cline"',
        'chmod +x "$here/cline"',
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

  suiteTeardown(() => {
    process.env.PATH = savedPath;
    fs.rmSync(bin, { recursive: true, force: true });
  });

  test('offers the install command of an agent that is not found, runs it in a terminal when asked, then finds the agent', async function () {
    const before = chat.status.agents.find((a) => a.id === 'cline');
    assert.ok(before, JSON.stringify(chat.status.agents));
    if (before.available) return this.skip(); // installed on this machine for real
    assert.equal(before.install, 'npm install --global cline');
    assert.ok(!fs.existsSync(path.join(bin, 'npm-args.txt')), 'nothing ran before it was asked');

    const opened = new Promise<vscode.Terminal>((resolve) => {
      const sub = vscode.window.onDidOpenTerminal((t) => {
        sub.dispose();
        resolve(t);
      });
    });
    const installed = chat.installAgent('cline');
    const terminal = await opened;
    assert.equal(terminal.name, 'Install Cline');
    await installed;
    assert.equal(fs.readFileSync(path.join(bin, 'npm-args.txt'), 'utf8').trim(), 'install --global cline');
    await waitFor(
      chat,
      'the agent to be found',
      () => chat.status.agents.find((a) => a.id === 'cline')?.available === true,
    );
    assert.equal(chat.status.agents.find((a) => a.id === 'cline')?.install, undefined, 'no install offered once found');
    assert.match(transcript(chat), /Cline is installed: Connect to start it\./);
  });
});
