/** What several real-agent suites do: a chat with the run's agent, and the Sessions tree's nodes of its sessions. */
import * as vscode from 'vscode';
import type { AcpExtensionApi, OpenChat } from '../../../src/extension';
import type { SessionNode } from '../../../src/history/sessionsTree';
import * as assert from '../shared/assert';
import { acpApi, transcript } from '../shared/chatWaits';
import type { RealAgentConfig } from './config';

/** A new chat with the run's agent configured, selected and connected. */
export async function connectedRealChat(config: RealAgentConfig): Promise<{ api: AcpExtensionApi; chat: OpenChat }> {
  await vscode.workspace
    .getConfiguration('vscode-acp')
    .update('agents', { [config.agentId]: config.agent }, vscode.ConfigurationTarget.Global);
  const api = await acpApi();
  await api.chat.refreshAgents();
  const chat = api.chats.newChat();
  chat.selectAgent(config.agentId);
  assert.equal(await chat.connect(), true, transcript(chat));
  return { api, chat };
}

/**
 * The Sessions tree's nodes under the agent, listed afresh and paged (Load more) until the agent's own listing has
 * `sessionId` or has no more pages.
 */
export async function agentSessionNodes(
  api: AcpExtensionApi,
  config: RealAgentConfig,
  sessionId: string,
): Promise<SessionNode[]> {
  api.sessionsTree.refresh();
  const agentNode = (await api.sessionsTree.getChildren()).find(
    (n) => n.kind === 'agent' && n.agentId === config.agentId,
  );
  assert.ok(agentNode, 'the agent is in the tree');
  let nodes = await api.sessionsTree.getChildren(agentNode);
  for (
    let pages = 0;
    pages < 20 && !nodes.some((n) => n.kind === 'session' && n.listed?.sessionId === sessionId);
    pages++
  ) {
    const more = nodes.find((n) => n.kind === 'info' && n.command === 'vscode-acp.sessions.more');
    if (!more) break;
    await vscode.commands.executeCommand('vscode-acp.sessions.more', more);
    nodes = await api.sessionsTree.getChildren(agentNode);
  }
  return nodes;
}
