/**
 * Installing a built-in agent when the user asks: its install command
 * (`npm install --global <package>`) runs in a VS Code terminal the user
 * sees, started as that program with its arguments (no shell), and the
 * result is its exit code when the terminal closes. Nothing is installed
 * any other way, and nothing without the user's click.
 */
import * as vscode from 'vscode';
import { installCommandLine, type AgentDefinition } from '../src/agents';
import { launchFor } from './agentLaunch';
import { resolveExecutable, type ResolveOptions } from './resolveExecutable';

export async function installInTerminal(agent: AgentDefinition, options: ResolveOptions): Promise<number | undefined> {
  const install = agent.install;
  if (!install) throw new Error(`${agent.name} has no install command.`);
  const executable = await resolveExecutable(install.command, process.env, options);
  if (!executable) throw new Error(`"${install.command}" was not found on PATH: install Node.js (which brings npm), then try again, or run \`${installCommandLine(install)}\` yourself.`);
  const launch = await launchFor(executable, install.args, options);
  const terminal = vscode.window.createTerminal({ name: `Install ${agent.name}`, shellPath: launch.executable, shellArgs: [...launch.args] });
  terminal.show();
  return new Promise((resolve) => {
    const closed = vscode.window.onDidCloseTerminal((t) => {
      if (t !== terminal) return;
      closed.dispose();
      resolve(t.exitStatus?.code);
    });
  });
}
