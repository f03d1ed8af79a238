/**
 * Runs inside code-server's Node extension host for test/orphans.mjs: starts
 * an agent that runs an approved command (a shell with two children), then
 * writes the host's pid to $ORPHANS_PID_FILE. The harness then shuts
 * code-server down or SIGKILLs this host, and checks that nothing we started
 * is left. With ORPHANS_HOLD=1 it holds until killed.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { processes } from '../node/processes';
import { activeChat, waitFor } from '../shared/chatWaits';

/** Every process of this test has it on its command line (the agent's scenario holds it too). */
export const MARKER = 'sleep 3517';

const count = (pattern: string) => processes(pattern).split('\n').filter(Boolean).length;

export async function run(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  const scenario = {
    turns: [
      {
        match: '',
        steps: [{ terminal: { command: 'sh', args: ['-c', `${MARKER} & ${MARKER}; wait`], toolCallId: 'orphan-cmd' } }],
      },
    ],
  };
  await vscode.workspace.getConfiguration('vscode-acp').update(
    'agents',
    {
      orphans: {
        name: 'Orphans Agent',
        command: process.execPath,
        args: [path.join(root, 'dist/test/agent.js'), JSON.stringify(scenario)],
      },
    },
    vscode.ConfigurationTarget.Global,
  );
  const chat = await activeChat();
  await chat.refreshAgents();
  chat.selectAgent('orphans');
  void chat.composer.send('start the command');
  await waitFor(chat, 'the consent prompt', () => chat.status.permissions.length === 1, 30_000);
  chat.permissions.answer(chat.status.permissions[0].requestId, 'allow_once');
  // The agent, the shell and its two sleeps.
  for (let i = 0; i < 100 && count(MARKER) < 4; i++) await new Promise((r) => setTimeout(r, 100));
  if (count(MARKER) < 4) throw new Error(`expected 4 processes with "${MARKER}", found ${count(MARKER)}`);
  fs.writeFileSync(process.env.ORPHANS_PID_FILE!, JSON.stringify({ host: process.pid }));
  if (process.env.ORPHANS_HOLD === '1') await new Promise(() => undefined);
}
