/**
 * Which MCP servers a session gets: the sources in ascending precedence
 * (user settings, workspace settings, folder settings, `.vscode/mcp.json`),
 * names compared case-insensitively, a higher source's server replacing a
 * lower one's, two of one name in one source both refused (the name stays
 * taken: nothing lower stands in for a refused server), then what the agent
 * and the host can take, then `${env:...}` resolved. Pure: reading the
 * sources is mcpSources.ts's work.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { MCP_LIMITS, type McpProblem } from './problems';
import { isRemote, type ServerConfig, type ServerRead } from './serverConfig';
import { resolveServer, serverProblem, type AgentOs, type EnvLookup } from './serverChecks';

export type McpSourceId = 'user' | 'workspace' | 'folder' | 'project';

export const SOURCE_LABELS: Record<McpSourceId, string> = {
  user: 'user settings (vscode-acp.mcpServers)',
  workspace: 'workspace settings (vscode-acp.mcpServers)',
  folder: 'folder settings (vscode-acp.mcpServers)',
  project: '.vscode/mcp.json',
};

export interface McpSourceRead {
  readonly id: McpSourceId;
  /** Absent: the source has none (no setting, no file), or is refused or ignored as a whole. */
  readonly servers?: readonly ServerRead[];
  /** Why the whole source is refused or ignored. */
  readonly problem?: McpProblem;
}

export interface McpPlanEntry {
  readonly source: McpSourceId;
  readonly at: string;
  readonly name?: string;
  /** `replaced`: a higher source has a server of this name. */
  readonly state: 'sent' | 'left out' | 'replaced';
  readonly problem?: McpProblem;
  readonly config?: ServerConfig;
}

export interface McpPlan {
  readonly sources: readonly McpSourceRead[];
  readonly entries: readonly McpPlanEntry[];
  /** What `session/new` (`load`, `resume`) sends. */
  readonly servers: readonly acp.McpServer[];
  /** Every value a `${env:...}` reference resolved to: never logged. */
  readonly secrets: ReadonlySet<string>;
}

export interface PlanContext {
  /** The agent's `mcpCapabilities`; `undefined` when no agent is connected (ACP: Show MCP Servers), then HTTP/SSE are listed as they would be for an agent that takes them. */
  readonly agent: acp.McpCapabilities | null | undefined;
  readonly agentKnown: boolean;
  readonly os: AgentOs;
  readonly env: EnvLookup;
  /** Why a `${env:NAME}` found no value, when it is not "not set where VS Code runs" (an agent served elsewhere). */
  readonly envUnset?: string;
}

export function planMcp(sources: readonly McpSourceRead[], context: PlanContext): McpPlan {
  const entries: McpPlanEntry[] = [];
  /** By lower-cased name: the index in `entries` of the server that holds the name. */
  const holder = new Map<string, number>();
  for (const source of sources) {
    const servers = source.servers ?? [];
    const counts = new Map<string, number>();
    for (const read of servers) {
      if (read.name !== undefined) counts.set(read.name.toLowerCase(), (counts.get(read.name.toLowerCase()) ?? 0) + 1);
    }
    const over = servers.length > MCP_LIMITS.servers;
    servers.forEach((read, i) => {
      const key = read.name?.toLowerCase();
      let problem = 'problem' in read ? read.problem : undefined;
      if (!problem && key !== undefined && counts.get(key)! > 1) {
        problem = {
          code: 'MCP_CONFIG_DUPLICATE',
          path: read.at,
          detail:
            'has the name of another server in the same source (names are compared ignoring case): both are left out',
        };
      }
      if (!problem && over && i >= MCP_LIMITS.servers) {
        problem = {
          code: 'MCP_CONFIG_TOO_LARGE',
          path: read.at,
          detail: `is past the ${MCP_LIMITS.servers} servers one source may have`,
        };
      }
      if (key !== undefined) {
        const lower = holder.get(key);
        // Within one source, both stay (as duplicates); a higher source replaces the lower one's.
        if (lower !== undefined && entries[lower].source !== source.id) {
          entries[lower] = { ...entries[lower], state: 'replaced', problem: undefined };
        }
        holder.set(key, entries.length);
      }
      entries.push({
        source: source.id,
        at: read.at,
        ...(read.name !== undefined ? { name: read.name } : {}),
        state: problem ? 'left out' : 'sent',
        ...(problem ? { problem } : { config: (read as { config: ServerConfig }).config }),
      });
    });
  }
  const servers: acp.McpServer[] = [];
  const secrets = new Set<string>();
  entries.forEach((entry, i) => {
    if (entry.state !== 'sent' || !entry.config) return;
    const problem =
      serverProblem(entry.config, entry.at, context.os) ??
      agentProblem(entry.config, entry.at, context) ??
      (servers.length >= MCP_LIMITS.servers
        ? {
            code: 'MCP_CONFIG_TOO_LARGE' as const,
            path: entry.at,
            detail: `is past the ${MCP_LIMITS.servers} servers a session may have`,
          }
        : undefined);
    const resolved = problem
      ? { problem }
      : resolveServer(entry.config, entry.at, context.env, secrets, context.envUnset);
    if ('problem' in resolved) entries[i] = { ...entry, state: 'left out', problem: resolved.problem };
    else servers.push(resolved.server);
  });
  return { sources, entries, servers, secrets };
}

function agentProblem(config: ServerConfig, at: string, context: PlanContext): McpProblem | undefined {
  if (!isRemote(config) || !context.agentKnown || context.agent?.[config.type]) return undefined;
  return {
    code: 'MCP_AGENT_UNSUPPORTED',
    path: `${at}.type`,
    detail: `is ${config.type.toUpperCase()}, and the agent does not take ${config.type.toUpperCase()} MCP servers (its mcpCapabilities)`,
  };
}
