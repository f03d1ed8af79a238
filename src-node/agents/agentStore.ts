/**
 * Built-in agents the extension installs: each into a folder of its own in the extension's global storage
 * (`<storage>/agents/<id>`, an npm prefix: no global install, no root), pinned to the version the npm registry names
 * as latest when the user asks, after the Node.js that will run it is checked against what the package requires.
 * What will run is shown before it runs (agentInstall.ts asks); npm is started as a program, never through a shell.
 */
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { satisfies, valid } from 'semver';
import type { AgentDefinition } from '../../src/agents/agents';
import { resolveExecutable, type ResolveOptions } from './resolveExecutable';

/** How long asking the registry (or node) may take. */
const ASK_TIMEOUT_MS = 30_000;

/** What an install will do: the package at one version, with the Node.js it needs and the one it would get. */
export interface InstallPlan {
  readonly npmPackage: string;
  readonly version: string;
  /** The package's `engines.node`, if it names one. */
  readonly needsNode?: string;
  /** The version of the `node` on PATH (what its program starts with), if any. */
  readonly node?: string;
  /** The npm program and its arguments. */
  readonly npm: string;
  readonly args: readonly string[];
  /** Where it goes. */
  readonly prefix: string;
}

/** The folder agent `id` is installed into. */
export function agentPrefix(storage: string, id: string): string {
  return path.join(storage, 'agents', id);
}

/** The agent's program where the extension installed it, if it is there. */
export function installedProgram(storage: string | undefined, agent: AgentDefinition): Promise<string | undefined> {
  if (!storage || !agent.install) return Promise.resolve(undefined);
  const bin = path.join(agentPrefix(storage, agent.id), 'node_modules', '.bin', agent.command);
  return resolveExecutable(bin);
}

/** Asks the registry which version to install and what it needs; throws with a sentence the user can act on. */
export async function installPlan(
  storage: string,
  agent: AgentDefinition,
  options: ResolveOptions,
): Promise<InstallPlan> {
  const npmPackage = agent.install?.npmPackage;
  if (!npmPackage) throw new Error(`${agent.name} has no npm package to install.`);
  const npm = await resolveExecutable('npm', process.env, options);
  if (!npm) throw new Error('npm was not found on PATH: install Node.js (which brings npm), then try again.');
  let answer: string;
  try {
    answer = await run(npm, ['view', `${npmPackage}@latest`, 'version', 'engines', '--json']);
  } catch (error) {
    throw new Error(
      `The npm registry could not be asked which version of ${npmPackage} to install: ${firstLine(error)}`,
      { cause: error },
    );
  }
  const { version, needsNode } = registryAnswer(answer);
  if (!version) throw new Error(`The npm registry named no version of ${npmPackage}.`);
  const nodeProgram = await resolveExecutable('node', process.env, options);
  const node = nodeProgram ? valid((await run(nodeProgram, ['--version']).catch(() => '')).trim()) : null;
  const prefix = agentPrefix(storage, agent.id);
  return {
    npmPackage,
    version,
    ...(needsNode ? { needsNode } : {}),
    ...(node ? { node } : {}),
    npm,
    args: ['install', '--prefix', prefix, '--engine-strict', '--no-audit', '--no-fund', `${npmPackage}@${version}`],
    prefix,
  };
}

/** Why the plan cannot run here (the Node.js on PATH is missing or too old for the package), else undefined. */
export function nodeProblem(agentName: string, plan: InstallPlan): string | undefined {
  const what = `${agentName} ${plan.version}`;
  if (!plan.node) return `${what} runs on Node.js, and no node was found on PATH: install Node.js, then try again.`;
  if (plan.needsNode && !satisfies(plan.node, plan.needsNode, { includePrerelease: true })) {
    return `${what} needs Node.js ${plan.needsNode}; the node on PATH is ${plan.node}. Install a newer Node.js, then try again.`;
  }
  return undefined;
}

/** `npm view --json` of `version` and `engines` (one version: an object; untrusted shape). */
export function registryAnswer(json: string): { version?: string; needsNode?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  const fields = (Array.isArray(parsed) ? parsed.at(-1) : parsed) as { version?: unknown; engines?: unknown } | null;
  const version = typeof fields?.version === 'string' && valid(fields.version) ? fields.version : undefined;
  const engines = fields?.engines as { node?: unknown } | undefined;
  const needsNode = typeof engines?.node === 'string' && engines.node.length <= 200 ? engines.node : undefined;
  return { ...(version ? { version } : {}), ...(needsNode ? { needsNode } : {}) };
}

/** The plan's command line as a user would type it (shown, never run through a shell). */
export function planCommandLine(plan: InstallPlan): string {
  return ['npm', ...plan.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `"${a}"`)).join(' ');
}

/** Runs `program` (no shell) in the user's home, and resolves with what it printed. */
function run(program: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      program,
      [...args],
      { cwd: os.homedir(), timeout: ASK_TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
      (error, stdout, stderr) => (error ? reject(new Error(stderr.trim() || error.message)) : resolve(stdout)),
    );
  });
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((l) => l.trim() !== '') ?? text;
}
