/** Node host: agents for one suite, each the test agent playing its own scenario. */
import * as path from 'path';
import * as vscode from 'vscode';
import { activeChat, type Chat } from '../shared/chatWaits';

const root = path.resolve(__dirname, '../../..');

/** A `vscode-acp.agents` entry: the scripted test agent with `scenario` (and more arguments, e.g. --sessions). */
export function scenarioAgent(
  name: string,
  scenario: object,
  ...extraArgs: string[]
): { name: string; command: string; args: string[] } {
  return {
    name,
    command: process.execPath,
    args: [path.join(root, 'dist/test/agent.js'), JSON.stringify(scenario), ...extraArgs],
  };
}

/** Configures `agents` and returns the chat; with `select`, that agent is picked in a fresh, disconnected chat. */
export async function chatWithAgents(
  agents: Record<string, ReturnType<typeof scenarioAgent>>,
  select?: string,
): Promise<Chat> {
  await vscode.workspace.getConfiguration('vscode-acp').update('agents', agents, vscode.ConfigurationTarget.Global);
  const chat = await activeChat();
  await chat.refreshAgents();
  if (select) {
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    chat.selectAgent(select);
    await vscode.commands.executeCommand('vscode-acp.newChat');
  }
  return chat;
}
