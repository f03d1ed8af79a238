/** A chat with the test agent in these windows, and what it reports of its MCP servers. */
import * as vscode from 'vscode';
import type { OpenChat } from '../../../src/extension';
import { acpApi, lastReply } from '../shared/chatWaits';
import { reportedMcp } from '../shared/mcpReport';
import * as assert from '../shared/assert';

export async function useTestAgent(): Promise<void> {
  const agent = (globalThis as { acpTestAgent?: unknown }).acpTestAgent;
  await vscode.workspace
    .getConfiguration('vscode-acp')
    .update('agents', { test: agent }, vscode.ConfigurationTarget.Global);
  await (await acpApi()).chat.refreshAgents();
}

/** The names of the MCP servers the chat's session got (asks the agent). */
export async function mcpNames(chat: OpenChat): Promise<string[]> {
  await chat.composer.send('report mcp');
  return reportedMcp(lastReply(chat)).map((s) => s.name);
}

export function notices(chat: OpenChat): string {
  return chat.thread.entries.flatMap((e) => (e.kind === 'notice' ? [e.text] : [])).join('\n');
}

/** The URI of the workspace folder called `name` (the test fails when there is none). */
export function folder(name: string): vscode.Uri {
  const found = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
  assert.ok(found, `the workspace has ${name}`);
  return found!.uri;
}

/** Opens a file of `folder` in an editor: the session folder of the next connection. */
export async function focusFolder(folder: vscode.Uri): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'README.md'));
}
