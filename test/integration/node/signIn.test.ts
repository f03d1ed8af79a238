/**
 * Node host: a terminal sign-in end to end. The agent refuses sessions until
 * signed in and offers an ACP `terminal` method; the chat offers it, runs the
 * agent's own program with the method's arguments in a VS Code terminal
 * (the test agent's `--sign-in` prints a canary and records the sign-in),
 * and once it exited 0 asks again: an agent that reads its credentials only
 * when it starts is restarted first. Sign Out calls
 * `logout`. (test/run.mjs then checks the canary was written nowhere.)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply } from '../shared/chatWaits';
import { withQuickPick } from '../shared/dialogs';
import { scenarioAgent } from './scenarioAgents';

describe('sign-in', function () {
  this.timeout(60_000);

  /** The sign-in agent configured with `extra` in its scenario; what it needs and where it keeps its files. */
  async function signInAgent(extra: Record<string, unknown>, env: Record<string, string> = {}) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-signin-'));
    const signInFile = path.join(dir, 'signed-in');
    const eventsFile = path.join(dir, 'events');
    const scenario = {
      requireAuth: true,
      signInFile,
      eventsFile,
      signInOutput: 'Signed in as',
      agentCapabilities: { auth: { logout: {} } },
      authMethods: [
        {
          type: 'terminal',
          id: 'term-login',
          name: 'Sign in in a terminal',
          args: ['--sign-in'],
          env: { SIGN_IN_MODE: 'test' },
        },
      ],
      turns: [{ match: '', steps: [{ text: 'signed in and answering' }] }],
      ...extra,
    };
    const agents = vscode.workspace.getConfiguration('vscode-acp').get<Record<string, unknown>>('agents') ?? {};
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        ...agents,
        signin: { ...scenarioAgent('Sign-in Agent', scenario), env },
      },
      vscode.ConfigurationTarget.Global,
    );
    const api = await acpApi();
    await api.chat.refreshAgents();
    const starts = () =>
      fs
        .readFileSync(eventsFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('start ')).length;
    return { api, dir, signInFile, scenario, starts };
  }

  /** Sends a first prompt to the sign-in agent and picks its terminal method: what was offered and which terminals opened. */
  async function signInByTerminal(chat: ReturnType<Awaited<ReturnType<typeof acpApi>>['chats']['newChat']>) {
    const offered: string[] = [];
    const opened: vscode.Terminal[] = [];
    const watch = vscode.window.onDidOpenTerminal((t) => opened.push(t));
    try {
      chat.selectAgent('signin');
      await withQuickPick(
        (list) => {
          offered.push(...list.map((i) => `${i.label} | ${i.detail}`));
          return list.find((i) => i.label === 'Sign in in a terminal');
        },
        () => chat.composer.send('hello'),
      );
    } finally {
      watch.dispose();
    }
    return { offered, opened };
  }

  it("a terminal sign-in runs the agent's own program, then the session opens on the same agent process", async () => {
    const { api, dir, signInFile, scenario, starts } = await signInAgent({});
    const chat = api.chats.newChat();
    try {
      const { offered, opened } = await signInByTerminal(chat);
      assert.deepEqual(offered, ["Sign in in a terminal | runs the agent's sign-in in a terminal"]);
      assert.equal(opened.length, 1);
      assert.equal(opened[0].name, 'Sign in to Sign-in Agent');
      const options = opened[0].creationOptions as vscode.TerminalOptions;
      assert.deepEqual(
        [options.shellPath, ...(options.shellArgs as string[])],
        [process.execPath, ...scenarioAgent('Sign-in Agent', scenario).args, '--sign-in'],
      );
      assert.equal(options.env?.SIGN_IN_MODE, 'test');
      assert.ok(fs.existsSync(signInFile), 'the sign-in program ran');
      assert.equal(lastReply(chat), 'signed in and answering');
      assert.equal(starts(), 1, 'the agent takes the sign-in without a restart');

      // ACP: Sign Out asks the agent (it advertises logout).
      const infos: string[] = [];
      const realInfo = vscode.window.showInformationMessage;
      (vscode.window as { showInformationMessage: unknown }).showInformationMessage = async (text: string) =>
        void infos.push(text);
      try {
        await vscode.commands.executeCommand('vscode-acp.signOut');
      } finally {
        (vscode.window as { showInformationMessage: unknown }).showInformationMessage = realInfo;
      }
      assert.deepEqual(infos, ['Signed out of Sign-in Agent.']);
    } finally {
      await api.chats.close(chat.id);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an agent that reads its credentials when it starts is restarted once after the sign-in, then the session opens', async () => {
    const { api, dir, signInFile, starts } = await signInAgent({ signInReadAtStart: true });
    const chat = api.chats.newChat();
    try {
      const { opened } = await signInByTerminal(chat);
      assert.equal(opened.length, 1);
      assert.ok(fs.existsSync(signInFile), 'the sign-in program ran');
      assert.equal(lastReply(chat), 'signed in and answering');
      assert.equal(starts(), 2, 'asked again first, then restarted once');
    } finally {
      await api.chats.close(chat.id);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an env_var method says which variable the agent reads and where to set it, never its value', async () => {
    const envVar = {
      authMethods: [{ type: 'env_var', id: 'key', name: 'API key', vars: [{ name: 'TEST_AGENT_KEY' }] }],
    };
    const refusal = async (env: Record<string, string>) => {
      const { api, dir } = await signInAgent(envVar, env);
      const chat = api.chats.newChat();
      try {
        chat.selectAgent('signin');
        await withQuickPick(
          (list) => list.find((i) => i.label === 'API key'),
          () => chat.composer.send('hello'),
        );
        return JSON.stringify(chat.thread);
      } finally {
        await api.chats.close(chat.id);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    };
    const unset = await refusal({});
    assert.match(
      unset,
      /reads its key from the environment variable TEST_AGENT_KEY\. Set TEST_AGENT_KEY in the environment VS Code starts from/,
    );
    // Set in the agent's settings (and still refused): that value is the one to check, not the environment.
    const configured = await refusal({ TEST_AGENT_KEY: 'canary-key-value' });
    assert.match(
      configured,
      /TEST_AGENT_KEY is set for this agent in the setting vscode-acp\.agents, and that value is what it gets/,
    );
    assert.ok(!configured.includes('canary-key-value'), 'the value is never shown');
  });
});
