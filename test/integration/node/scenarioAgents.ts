/** Node host: agents for one suite, each the test agent playing its own scenario. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { activeChat, type Chat } from '../shared/chatWaits';

const root = path.resolve(__dirname, '../../..');

/**
 * A `vscode-acp.agents` entry: the scripted test agent with `scenario` (and more arguments, e.g. --sessions). It takes
 * MCP servers over HTTP, as every agent we test does, unless the scenario says what it takes.
 */
export function scenarioAgent(
  name: string,
  scenario: object,
  ...extraArgs: string[]
): { name: string; command: string; args: string[] } {
  const capabilities = {
    mcpCapabilities: { http: true },
    ...(scenario as { agentCapabilities?: object }).agentCapabilities,
  };
  const json = JSON.stringify({ ...scenario, agentCapabilities: capabilities });
  return {
    name,
    command: process.execPath,
    args: [path.join(root, 'dist/test/agent.js'), scenarioArgument(json), ...extraArgs],
  };
}

/** Past this, a scenario goes in a file of its own: it is an argument in the user's settings.json otherwise. */
const MAX_INLINE_SCENARIO = 64 * 1024;

/** The scenario as the test agent's argument: its JSON, or the path of a file holding it (a large one). */
function scenarioArgument(json: string): string {
  if (json.length <= MAX_INLINE_SCENARIO) return json;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-scenario-')), 'scenario.json');
  fs.writeFileSync(file, json);
  return file;
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
