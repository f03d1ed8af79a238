/**
 * What the Sessions tree's items do: open a session (its saved transcript at
 * once, else loaded with its history), Load with History / Resume without
 * History where the agent offers them, rename, delete, and the actions of its state
 * items (Load more, Sign in, Retry, Install).
 */
import * as vscode from 'vscode';
import { deleteSessionCommand, type SessionCommandDeps } from './historyCommands';
import { openSavedChat } from './historySaver';
import { renameSaved } from './rename';
import type { SessionNode, SessionsTree } from './sessionsTree';

type SessionItem = Extract<SessionNode, { kind: 'session' }>;

function isSession(node: unknown): node is SessionItem {
  return typeof node === 'object' && node !== null && (node as SessionNode).kind === 'session';
}

/** A node of one agent (its own, a session or an info line): what the agent commands act on. */
type AgentItem = Exclude<SessionNode, { kind: 'more' } | { kind: 'worktree' }>;

function isNode(node: unknown): node is AgentItem {
  return typeof node === 'object' && node !== null && typeof (node as AgentItem).agentId === 'string';
}

export function registerSessionsTreeCommands(tree: SessionsTree, deps: SessionCommandDeps): vscode.Disposable[] {
  const open = async (node: SessionItem, how?: 'load' | 'resume') => {
    if (node.saved) await openSavedChat(deps.chats, deps.store, node.saved, how);
    else if (node.listed) {
      const { canLoad } = tree.abilities(node.agentId);
      deps.chats.openListed(node.agentId, node.listed, how ?? (canLoad ? 'load' : 'resume'));
    }
    await vscode.commands.executeCommand('vscode-acp.focusChat');
  };
  const onSession = (run: (node: SessionItem) => Promise<void>) => (node: unknown) =>
    isSession(node) ? run(node) : undefined;
  const onNode = (run: (node: AgentItem) => Promise<void> | void) => (node: unknown) =>
    isNode(node) ? run(node) : undefined;
  return [
    vscode.commands.registerCommand('vscode-acp.sessions.refresh', () => tree.refresh()),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.open',
      onSession((node) => open(node)),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.loadWithHistory',
      onSession((node) => open(node, 'load')),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.resumeWithoutHistory',
      onSession((node) => open(node, 'resume')),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.delete',
      onSession((node) => (node.saved ? deleteSessionCommand(deps, node.saved) : Promise.resolve())),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.rename',
      onSession((node) => (node.saved ? renameSaved(deps.chats, deps.store, node.saved) : Promise.resolve())),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.more',
      onNode((node) => tree.relist(node.agentId, { more: true })),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.signIn',
      onNode((node) => tree.relist(node.agentId, { signIn: true })),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.retry',
      onNode((node) => tree.relist(node.agentId)),
    ),
    vscode.commands.registerCommand(
      'vscode-acp.sessions.install',
      onNode(async (node) => {
        await deps.chats.installAgent(deps.chats.shown, node.agentId);
        tree.refresh();
      }),
    ),
  ];
}
