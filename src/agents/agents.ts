/**
 * Which agents exist: the built-in ones and those from settings. Whether an
 * agent can actually be started is the platform's business.
 */
import { z } from 'zod';

export interface AgentDefinition {
  readonly id: string;
  readonly name: string;
  /** The program to start; empty for an agent served elsewhere (`url`). */
  readonly command: string;
  /**
   * An agent served elsewhere over ACP's standard remote transport (WebSocket, `ws:` or `wss:`), instead of a
   * program started here; `cwd`: the folder it works in there (default: the workspace folder's path here).
   */
  readonly url?: string;
  readonly cwd?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly builtIn: boolean;
  /** How a user installs it (a built-in agent from npm): only when they ask, and see what will run first. */
  readonly install?: AgentInstall;
}

/** A built-in agent's npm package: installed (where the host installs agents) into the extension's own storage. */
export interface AgentInstall {
  readonly npmPackage: string;
}

/**
 * A built-in agent: the program its npm package provides, started as the ACP registry says, found where the
 * extension installed it or on PATH. Not `npx`: that would fetch and run the newest release, unasked, at every start.
 */
const builtIn = (
  id: string,
  name: string,
  npmPackage: string,
  command: string,
  args: string[] = [],
  env: Record<string, string> = {},
): AgentDefinition => ({
  id,
  name,
  command,
  args,
  env,
  builtIn: true,
  install: { npmPackage },
});

/**
 * The agents of the ACP registry that install from npm, each started as the
 * registry says and checked here (installed, `initialize` answered offline,
 * 2026-12-01; see docs/agents.md). The four most used first.
 */
export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  builtIn('opencode', 'OpenCode', 'opencode-ai', 'opencode', ['acp']),
  builtIn('claude-code', 'Claude Code', '@agentclientprotocol/claude-agent-acp', 'claude-agent-acp'),
  builtIn('gemini', 'Gemini CLI', '@google/gemini-cli', 'gemini', ['--acp']),
  builtIn('codex', 'Codex', '@agentclientprotocol/codex-acp', 'codex-acp'),
  builtIn('auggie', 'Auggie CLI', '@augmentcode/auggie', 'auggie', ['--acp'], { AUGMENT_DISABLE_AUTO_UPDATE: '1' }),
  builtIn('cline', 'Cline', 'cline', 'cline', ['--acp']),
  builtIn('factory-droid', 'Factory Droid', 'droid', 'droid', ['exec', '--output-format', 'acp-daemon'], {
    DROID_DISABLE_AUTO_UPDATE: 'true',
    FACTORY_DROID_AUTO_UPDATE_ENABLED: 'false',
  }),
  builtIn('github-copilot-cli', 'GitHub Copilot CLI', '@github/copilot', 'copilot', ['--acp']),
  builtIn('grok', 'Grok Build', '@xai-official/grok', 'grok', ['agent', 'stdio']),
  builtIn('kilo', 'Kilo', '@kilocode/cli', 'kilo', ['acp']),
  builtIn('qoder', 'Qoder CLI', '@qoder-ai/qodercli', 'qodercli', ['--acp']),
  builtIn('qwen-code', 'Qwen Code', '@qwen-code/qwen-code', 'qwen', ['--acp', '--experimental-skills']),
];

/** What installing it runs, in short (the exact version and folder are shown before it runs). */
export function installCommandLine(install: AgentInstall): string {
  return `npm install ${install.npmPackage}`;
}

const customProgramSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.record(z.string(), z.string()).default({}),
});
/** An agent served over the standard transport: WebSocket or Streamable HTTP URLs, without credentials in them. */
const customRemoteSchema = z.object({
  name: z.string().min(1).max(100).optional(),
  url: z
    .string()
    .max(2048)
    .refine(
      (u) => URL.canParse(u) && /^(wss?|https?):$/.test(new URL(u).protocol),
      'must be a ws:, wss:, http: or https: URL',
    )
    .refine(
      (u) => !URL.canParse(u) || (!new URL(u).username && !new URL(u).password),
      'must not hold a user or password',
    ),
  cwd: z.string().min(1).max(4096).optional(),
});
const customAgentSchema = z.union([customProgramSchema, customRemoteSchema]);

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
      problems.push(
        `vscode-acp.agents.${id}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'value'} ${i.message}`).join('; ')}`,
      );
    } else {
      const agent = parsed.data;
      byId.set(
        id,
        'url' in agent
          ? {
              id,
              name: agent.name ?? id,
              command: '',
              args: [],
              env: {},
              url: agent.url,
              ...(agent.cwd ? { cwd: agent.cwd } : {}),
              builtIn: false,
            }
          : { id, name: agent.name ?? id, command: agent.command, args: agent.args, env: agent.env, builtIn: false },
      );
    }
  }
  for (const [id, path] of Object.entries(asRecord(pathsRaw, 'vscode-acp.agentPaths', problems))) {
    const agent = byId.get(id);
    if (typeof path !== 'string' || !isAbsolutePath(path)) {
      problems.push(`vscode-acp.agentPaths.${id}: must be an absolute path`);
    } else if (!agent) {
      problems.push(`vscode-acp.agentPaths.${id}: no agent with this id`);
    } else if (agent.url) {
      problems.push(`vscode-acp.agentPaths.${id}: this agent is served at a URL, not started from a path`);
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
