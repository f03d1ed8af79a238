/**
 * Installing a built-in agent, or signing in to one, when the user asks. An install is planned first (agentStore.ts:
 * the version the npm registry names, the Node.js it needs), refused with the reason where the Node.js on PATH cannot
 * run it, shown as the command it will run and where it goes, and run only once the user says Install: in a VS Code
 * terminal the user sees, started as that program with its arguments (no shell), into the extension's own storage.
 * The result is its exit code when the terminal closes, or 'cancelled'.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AgentDefinition } from '../../src/agents/agents';
import { launchFor } from './agentLaunch';
import { installPlan, nodeProblem, planCommandLine } from './agentStore';
import { resolveExecutable, type ResolveOptions } from './resolveExecutable';
import { runInVisibleTerminal } from './visibleTerminal';

export async function installInTerminal(
  agent: AgentDefinition,
  storage: string,
  options: ResolveOptions,
): Promise<number | undefined | 'cancelled'> {
  const plan = await installPlan(storage, agent, options);
  const problem = nodeProblem(agent.name, plan);
  if (problem) throw new Error(problem);
  const install = `Install ${agent.name} ${plan.version}`;
  const needs = plan.needsNode ? ` It needs Node.js ${plan.needsNode}; this machine's is ${plan.node}.` : '';
  const answer = await vscode.window.showWarningMessage(
    `${install}?`,
    {
      modal: true,
      detail:
        `Runs: ${planCommandLine(plan)}\n\nFrom the npm registry, as you, into this extension's own storage (not a ` +
        `global install), in a terminal you can watch.${needs}`,
    },
    'Install',
  );
  if (answer !== 'Install') return 'cancelled';
  const launch = await launchFor(plan.npm, plan.args, options);
  return runInVisibleTerminal({
    name: install,
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
