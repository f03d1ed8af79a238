/**
 * Node host: a terminal sign-in end to end. The agent refuses sessions until
 * signed in and offers an ACP `terminal` method; the chat offers it, runs the
 * agent's own program with the method's arguments in a VS Code terminal
 * (the test agent's `--sign-in` prints a canary and records the sign-in),
 * restarts the agent once it exited 0, and opens the session. Sign Out calls
 * `logout`. (test/run.mjs then checks the canary was written nowhere.)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi } from '../shared/chatWaits';
import { withQuickPick } from '../shared/quickPick';

suite('sign-in', function () {
  this.timeout(60_000);
  const root = path.resolve(__dirname, '../../..');

  test('a terminal sign-in runs the agent\'s own program, then the agent restarts and the session opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-signin-'));
    const signInFile = path.join(dir, 'signed-in');
    const scenario = {
      requireAuth: true, signInFile, signInOutput: 'Signed in as',
      agentCapabilities: { auth: { logout: {} } },
      authMethods: [{ type: 'terminal', id: 'term-login', name: 'Sign in in a terminal', args: ['--sign-in'], env: { SIGN_IN_MODE: 'test' } }],
      turns: [{ match: '', steps: [{ text: 'signed in and answering' }] }],
    };
    const agents = vscode.workspace.getConfiguration('vscode-acp').get<Record<string, unknown>>('agents') ?? {};
    await vscode.workspace.getConfiguration('vscode-acp').update('agents', {
      ...agents, signin: { name: 'Sign-in Agent', command: process.execPath, args: [path.join(root, 'dist/test/agent.js'), JSON.stringify(scenario)] },
    }, vscode.ConfigurationTarget.Global);
    const api = await acpApi();
    await api.chat.refreshAgents();

    const offered: string[] = [];
    const opened: vscode.Terminal[] = [];
    const watch = vscode.window.onDidOpenTerminal((t) => opened.push(t));
    const chat = api.chats.newChat();
    try {
      chat.selectAgent('signin');
      await withQuickPick((list) => {
        offered.push(...list.map((i) => `${i.label} | ${i.detail}`));
        return list.find((i) => i.label === 'Sign in in a terminal');
      }, () => chat.send('hello'));
      assert.deepEqual(offered, ['Sign in in a terminal | runs the agent\'s sign-in in a terminal']);
      assert.equal(opened.length, 1);
      assert.equal(opened[0].name, 'Sign in to Sign-in Agent');
      const options = opened[0].creationOptions as vscode.TerminalOptions;
      assert.deepEqual([options.shellPath, ...(options.shellArgs as string[])], [process.execPath, path.join(root, 'dist/test/agent.js'), JSON.stringify(scenario), '--sign-in']);
      assert.equal(options.env?.SIGN_IN_MODE, 'test');
      assert.ok(fs.existsSync(signInFile), 'the sign-in program ran');
      const last = chat.thread.entries.at(-1);
      assert.equal(last?.kind === 'assistant' ? last.text : JSON.stringify(last), 'signed in and answering');

      // ACP: Sign Out asks the agent (it advertises logout).
      const infos: string[] = [];
      const realInfo = vscode.window.showInformationMessage;
      (vscode.window as { showInformationMessage: unknown }).showInformationMessage = async (text: string) => void infos.push(text);
      try {
        await vscode.commands.executeCommand('vscode-acp.signOut');
      } finally {
        (vscode.window as { showInformationMessage: unknown }).showInformationMessage = realInfo;
      }
      assert.deepEqual(infos, ['Signed out of Sign-in Agent.']);
    } finally {
      watch.dispose();
      await api.chats.close(chat.id);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
