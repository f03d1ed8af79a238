/**
 * The MCP servers of one session, worked out once when it starts or is
 * restored (and reused unchanged for its one sign-in retry): the sources
 * read, the plan made, the resolved secrets handed to the redactor before
 * anything can log them, and what the chat should say about those left out.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import { redactor } from '../secrets/redactor';
import { planMcp, type McpPlan } from './mcpPlan';
import type { McpSourceRead } from './mcpPlan';
import type { AgentOs, EnvLookup } from './serverChecks';

/** What the host knows of the agent's machine for MCP servers. */
export interface McpHost {
  readonly os: AgentOs;
  /** `${env:NAME}`; the web host has no environment. */
  readonly env: EnvLookup;
  /** Why `env` has no value, when it is not "not set where VS Code runs". */
  readonly envUnset?: string;
  /** The servers the settings and .vscode/mcp.json give a session in `folder` (mcpSources.ts). */
  readonly sources: (folder: vscode.Uri | undefined) => Promise<McpSourceRead[]>;
}

/** The plan for a session in `folder`; `agentKnown` false: no agent is connected yet (ACP: Show MCP Servers). */
export async function mcpPlanFor(
  folder: vscode.Uri | undefined,
  agent: acp.McpCapabilities | null | undefined,
  agentKnown: boolean,
  host: McpHost,
): Promise<McpPlan> {
  return planMcp(await host.sources(folder), {
    agent,
    agentKnown,
    os: host.os,
    env: host.env,
    ...(host.envUnset ? { envUnset: host.envUnset } : {}),
  });
}

export async function sessionMcp(
  folder: vscode.Uri | undefined,
  agent: acp.McpCapabilities | null | undefined,
  host: McpHost,
): Promise<McpPlan> {
  const plan = await mcpPlanFor(folder, agent, true, host);
  redactor.add(plan.secrets);
  return plan;
}
