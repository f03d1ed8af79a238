/**
 * Which agents exist: the built-in ones and those from settings. Whether an
 * agent can actually be started is the platform's business.
 */
import { z } from 'zod';

export interface AgentDefinition {
  readonly id: string;
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly builtIn: boolean;
}

const builtIn = (id: string, name: string, command: string, args: string[]): AgentDefinition =>
  ({ id, name, command, args, env: {}, builtIn: true });

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  builtIn('opencode', 'OpenCode', 'opencode', ['acp']),
  builtIn('claude-code', 'Claude Code', 'npx', ['-y', '@agentclientprotocol/claude-agent-acp']),
  builtIn('gemini', 'Gemini CLI', 'gemini', ['--acp']),
  builtIn('codex', 'Codex', 'npx', ['-y', '@zed-industries/codex-acp']),
];

const customAgentSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});

const agentIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/);

export interface AgentSettings {
  agents: AgentDefinition[];
  /** Settings entries that were ignored, each with the reason. */
  problems: string[];
}

/**
 * Merges built-in agents with `vscode-acp.agents` and applies
 * `vscode-acp.agentPaths`. Broken entries are reported, never fatal.
 */
export function resolveAgentSettings(customRaw: unknown, pathsRaw: unknown): AgentSettings {
  const problems: string[] = [];
  const byId = new Map<string, AgentDefinition>(BUILT_IN_AGENTS.map((a) => [a.id, a]));
  for (const [id, value] of Object.entries(asRecord(customRaw, 'vscode-acp.agents', problems))) {
    const parsed = customAgentSchema.safeParse(value);
    if (!agentIdSchema.safeParse(id).success) {
      problems.push(`vscode-acp.agents: "${id}" is not a valid agent id (letters, digits, . _ -)`);
    } else if (!parsed.success) {
      problems.push(`vscode-acp.agents.${id}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`);
    } else {
      byId.set(id, { id, name: parsed.data.name ?? id, command: parsed.data.command, args: parsed.data.args, env: parsed.data.env, builtIn: false });
    }
  }
  for (const [id, path] of Object.entries(asRecord(pathsRaw, 'vscode-acp.agentPaths', problems))) {
    const agent = byId.get(id);
    if (typeof path !== 'string' || !isAbsolutePath(path)) {
      problems.push(`vscode-acp.agentPaths.${id}: must be an absolute path`);
    } else if (!agent) {
      problems.push(`vscode-acp.agentPaths.${id}: no agent with this id`);
    } else {
      byId.set(id, { ...agent, command: path });
    }
  }
  return { agents: [...byId.values()], problems };
}

function asRecord(value: unknown, name: string, problems: string[]): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  problems.push(`${name}: must be an object`);
  return {};
}

export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}
