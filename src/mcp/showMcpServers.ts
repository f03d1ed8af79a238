/**
 * ACP: Show MCP Servers: what the next session of the shown chat would send,
 * source by source, with why each server left out is left out. Values are
 * never shown (env, headers, arguments, URL queries): only their names and
 * counts.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import { SOURCE_LABELS, type McpPlan, type McpPlanEntry } from './mcpPlan';
import { problemText } from './problems';
import { isRemote } from './serverConfig';
import type { AgentOs } from './serverChecks';
import { mcpPlanFor, type McpHost } from './sessionMcp';

export const MCP_REPORT_URI = vscode.Uri.from({ scheme: 'vscode-acp-mcp', path: '/MCP Servers.txt' });

/** The connected agent, when there is one: what it takes decides HTTP and SSE. */
export interface McpReportAgent {
  readonly name: string;
  readonly capabilities: acp.McpCapabilities | null | undefined;
  /** Its machine's kind of OS, where known. */
  readonly os: AgentOs;
}

export class McpReports implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private text = '';

  constructor(private readonly host: McpHost) {}

  provideTextDocumentContent(): string {
    return this.text;
  }

  /** `more`: lines said after the user's servers (the editor server's, src/session/sessionEditor.ts). */
  async show(
    folder: vscode.Uri | undefined,
    agent: McpReportAgent | undefined,
    more: readonly string[] = [],
  ): Promise<void> {
    const plan = await mcpPlanFor(
      folder,
      agent?.capabilities,
      agent !== undefined,
      agent ? { ...this.host, os: agent.os } : this.host,
    );
    this.text = [mcpReport(plan, folder, agent).trimEnd(), '', ...more, ''].join('\n');
    this._onDidChange.fire(MCP_REPORT_URI);
    const document = await vscode.workspace.openTextDocument(MCP_REPORT_URI);
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

export function mcpReport(plan: McpPlan, folder: vscode.Uri | undefined, agent: McpReportAgent | undefined): string {
  const lines: string[] = ['MCP servers the next session will send', ''];
  lines.push(`Folder: ${folder ? folder.toString(true) : 'none (only your user settings apply)'}`);
  if (agent) {
    const takes = (kind: 'http' | 'sse') => (agent.capabilities?.[kind] ? 'yes' : 'no');
    lines.push(`Agent: ${agent.name} (takes HTTP servers: ${takes('http')}, SSE servers: ${takes('sse')})`);
  } else {
    lines.push(
      'Agent: not connected (HTTP and SSE servers are listed as sent; an agent that does not take them gets none)',
    );
  }
  if (!vscode.workspace.isTrusted) lines.push('Restricted Mode: only your user settings are used.');
  const by = (state: McpPlanEntry['state']) => plan.entries.filter((e) => e.state === state);
  const sent = by('sent');
  lines.push('', `Sent (${sent.length}):`, ...(sent.length ? sent.map(sentLine) : ['  none']));
  const problems = [
    ...plan.sources.flatMap((s) => (s.problem ? [s.problem] : [])),
    ...by('left out').flatMap((e) => (e.problem ? [e.problem] : [])),
  ];
  if (problems.length) lines.push('', `Left out (${problems.length}):`, ...problems.map((p) => `  ${problemText(p)}`));
  const replaced = by('replaced');
  if (replaced.length) {
    lines.push(
      '',
      `Replaced by a server of the same name in a higher source (${replaced.length}):`,
      ...replaced.map((e) => `  ${e.name} from ${SOURCE_LABELS[e.source]} (${e.at})`),
    );
  }
  lines.push('', 'Sources, lowest precedence first:');
  for (const source of plan.sources) {
    const count = source.servers?.length ?? 0;
    lines.push(
      `  ${SOURCE_LABELS[source.id]}: ${source.problem ? 'not used' : count === 1 ? '1 server' : `${count} servers`}`,
    );
  }
  lines.push('', 'Values (environment, headers, arguments, URL queries) are not shown.');
  return lines.join('\n') + '\n';
}

function sentLine(entry: McpPlanEntry): string {
  const config = entry.config!;
  const from = SOURCE_LABELS[entry.source];
  if (isRemote(config)) {
    const url = new URL(config.url);
    const headers = config.headers.length ? `; headers ${config.headers.map((h) => `${h.name}=•••`).join(', ')}` : '';
    return `  ${config.name}: ${config.type.toUpperCase()} from ${from}: ${url.origin}${url.pathname}${url.search ? ' (query not shown)' : ''}${headers}`;
  }
  const args = config.args.length === 1 ? '1 argument' : `${config.args.length} arguments`;
  const env = config.env.length ? `; env ${config.env.map((e) => `${e.name}=•••`).join(', ')}` : '';
  return `  ${config.name}: stdio from ${from}: ${config.command}, ${args}${env}`;
}
