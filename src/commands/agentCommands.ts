/**
 * The commands about the shown chat's agent and what it was given: sign out,
 * its MCP servers, the checkpoints kept of its changes, the diagnostics of
 * its messages.
 */
import * as vscode from 'vscode';
import type { AgentList } from '../agents/agentList';
import type { CheckpointDocuments } from '../review/checkpointDocuments';
import type { Chats } from '../chats/chats';
import type { AgentConnections } from '../connection/agentConnections';
import { errorMessage } from '../errorText';
import type { Diagnostics } from '../diagnostics/diagnostics';
import type { McpReports } from '../mcp/showMcpServers';
import { sessionFolderIfAny } from '../workspaceFolder';
import type { Platform } from '../platform';
import { editorServerReport } from '../session/sessionEditor';
import { editorGroups } from '../editorServer/vscodeEditor';
import { continueWithAnotherAgent } from './continueChat';

export interface AgentCommandDeps {
  readonly chats: Chats;
  readonly agents: AgentConnections;
  readonly agentList: AgentList;
  readonly mcpReports: McpReports;
  /** Undefined where checkpoints are not kept (the web host: the files are on the bridge's machine). */
  readonly checkpointDocuments: CheckpointDocuments | undefined;
  readonly diagnostics: Diagnostics;
  readonly platform: Platform;
}

export function registerAgentCommands({
  chats,
  agents,
  agentList,
  mcpReports,
  checkpointDocuments,
  diagnostics,
  platform,
}: AgentCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('vscode-acp.showDiagnostics', () => diagnostics.show()),
    // From another extension or a test: the agent's id; else the user picks it.
    vscode.commands.registerCommand('vscode-acp.continueWithAgent', (agentId?: unknown) =>
      continueWithAnotherAgent(chats, agentList, typeof agentId === 'string' ? agentId : undefined),
    ),
    vscode.commands.registerCommand('vscode-acp.signOut', async () => {
      const chat = chats.shown;
      const agentId = chat.agentId;
      if (!agentId) return;
      const name = agentList.name(agentId);
      try {
        const done = chat.liveConnection
          ? await chat.liveConnection.signOut()
          : await agents.using(agentId, (c) => c.signOut());
        if (done) void vscode.window.showInformationMessage(`Signed out of ${name}.`);
        else if (done === false) {
          void vscode.window.showInformationMessage(
            `${name} does not offer signing out (its sign-in is kept by the agent itself).`,
          );
        }
      } catch (error) {
        void vscode.window.showErrorMessage(`Signing out of ${name} failed: ${errorMessage(error)}`);
      }
    }),
    vscode.commands.registerCommand('vscode-acp.showMcpServers', async () => {
      // The shown chat's session folder and agent; before it connects, the folder its session would take.
      const live = chats.shown.liveConnection;
      const picked = live
        ? { folder: live.folder }
        : await sessionFolderIfAny().then((p) => p && { folder: p.folder?.uri });
      if (!picked) return;
      const capabilities = live?.init.agentCapabilities?.mcpCapabilities;
      await mcpReports.show(
        picked.folder,
        live ? { name: live.agentLabel, capabilities, os: live.agentOs } : undefined,
        editorServerReport(
          platform,
          live?.offered ?? platform.capabilities(),
          live ? capabilities : 'unknown',
          editorGroups(),
        ),
      );
    }),
    vscode.commands.registerCommand('vscode-acp.showCheckpoints', async () => {
      if (!checkpointDocuments) {
        return void vscode.window.showInformationMessage(
          "Checkpoints are not kept here: the agent's files are on the bridge's machine.",
        );
      }
      await checkpointDocuments.showReport();
    }),
  ];
}
