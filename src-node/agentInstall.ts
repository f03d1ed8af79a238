/**
 * Installing a built-in agent, or signing in to one, when the user asks: its install command
 * (`npm install --global <package>`) runs in a VS Code terminal the user
 * sees, started as that program with its arguments (no shell), and the
 * result is its exit code when the terminal closes. Nothing is installed
 * any other way, and nothing without the user's click.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { installCommandLine, type AgentDefinition } from '../src/agents/agents';
import { launchFor } from './agentLaunch';
import { resolveExecutable, type ResolveOptions } from './resolveExecutable';
import { runInVisibleTerminal } from './visibleTerminal';

export async function installInTerminal(agent: AgentDefinition, options: ResolveOptions): Promise<number | undefined> {
  const install = agent.install;
  if (!install) throw new Error(`${agent.name} has no install command.`);
  const executable = await resolveExecutable(install.command, process.env, options);
  if (!executable) {
    throw new Error(
      `"${install.command}" was not found on PATH: install Node.js (which brings npm), then try again, or run \`${installCommandLine(install)}\` yourself.`,
    );
  }
  const launch = await launchFor(executable, install.args, options);
  return runInVisibleTerminal({
    name: `Install ${agent.name}`,
    executable: launch.executable,
    args: launch.args,
    ...outsideUntrusted(),
  });
}

/**
 * Where an install or sign-in runs in Restricted Mode: the user's home, not the untrusted folder, whose own
 * configuration (an `.npmrc`, the agent's project settings) it would otherwise read.
 */
function outsideUntrusted(): { cwd?: vscode.Uri } {
  return vscode.workspace.isTrusted ? {} : { cwd: vscode.Uri.file(os.homedir()) };
}

/**
 * An agent's terminal sign-in: its own program (as it is started for ACP)
 * with its arguments and then the method's (or the method's alone, the
 * legacy form), the method's variables added.
 */
export async function signInInTerminal(
  agent: AgentDefinition,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  replaceArgs: boolean,
  options: ResolveOptions,
): Promise<number | undefined> {
  const executable = await resolveExecutable(agent.command, process.env, options);
  if (!executable) throw new Error(`"${agent.command}" was not found: ${agent.name} cannot sign in.`);
  const launch = await launchFor(executable, replaceArgs ? args : [...agent.args, ...args], options);
  return runInVisibleTerminal({
    name: `Sign in to ${agent.name}`,
    executable: launch.executable,
    args: launch.args,
    env: { ...agent.env, ...env },
    ...outsideUntrusted(),
  });
}
