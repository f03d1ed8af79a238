/**
 * ACP: Load Session and ACP: Delete Session: quick picks over this
 * workspace's history. Deleting removes the session from this history only;
 * deleting the agent's own copy (`session/delete`, where the agent
 * advertises it) is a separate choice, asked for explicitly.
 */
import * as vscode from 'vscode';
import type { AgentList } from '../agents/agentList';
import { openSavedChat } from './historySaver';
import type { Chats } from '../chats/chats';
import type { AgentConnections } from '../connection/agentConnections';
import { errorMessage } from '../errorText';
import type { HistoryEntry } from '../shared/saved/savedSessions';
import type { HistoryStore } from './historyStore';

export interface SessionCommandDeps {
  readonly chats: Chats;
  readonly store: HistoryStore;
  readonly agentList: AgentList;
  readonly agents: AgentConnections;
  readonly log: vscode.LogOutputChannel;
}

/** Picks a saved session; undefined when there is none or the user cancelled. */
async function pickSaved(deps: SessionCommandDeps, title: string): Promise<HistoryEntry | undefined> {
  if (!deps.store.available) {
    void vscode.window.showInformationMessage('Chat history is kept per workspace: open a folder to have one.');
    return undefined;
  }
  const saved = await deps.store.list();
  if (saved.length === 0) {
    void vscode.window.showInformationMessage(
      'No saved chats in this workspace yet: a chat is saved once a turn in it has finished.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    saved.map((entry) => ({
      label: entry.title,
      description: deps.agentList.name(entry.agentId),
      detail: `Last used ${new Date(entry.updatedAt).toLocaleString()}`,
      entry,
    })),
    { title, placeHolder: 'Search saved chats', matchOnDescription: true },
  );
  return picked?.entry;
}

/** ACP: Load Session and ACP: Delete Session (the Sessions tree has its own, sessionsTreeCommands.ts). */
export function registerSessionCommands(deps: SessionCommandDeps): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('vscode-acp.loadSession', () => loadSessionCommand(deps)),
    vscode.commands.registerCommand('vscode-acp.deleteSession', () => deleteSessionCommand(deps)),
    // Not in the palette: a chat's "Open the conversation as it was" (after an Edit or Retry).
    vscode.commands.registerCommand('vscode-acp.openSavedSession', (ref: unknown) => openSavedSession(deps, ref)),
  ];
}

/** Opens the saved session `ref` names (agent and session ids), or says it is not in the history. */
async function openSavedSession(deps: SessionCommandDeps, ref: unknown): Promise<void> {
  const { agentId, sessionId } = (ref ?? {}) as { agentId?: unknown; sessionId?: unknown };
  const saved = deps.store.available ? await deps.store.list() : [];
  const entry = saved.find((e) => e.agentId === agentId && e.sessionId === sessionId);
  if (!entry) {
    void vscode.window.showInformationMessage("That conversation is not in this workspace's history any more.");
    return;
  }
  await openSavedChat(deps.chats, deps.store, entry);
  await vscode.commands.executeCommand('vscode-acp.focusChat');
}

export async function loadSessionCommand(deps: SessionCommandDeps): Promise<void> {
  const entry = await pickSaved(deps, 'Load Session');
  if (!entry) return;
  await openSavedChat(deps.chats, deps.store, entry);
  // From the Command Palette the chat view may be closed: show the chat that was opened.
  await vscode.commands.executeCommand('vscode-acp.focusChat');
}

/** ACP: Delete Session: `entry`, or one the user picks. */
export async function deleteSessionCommand(deps: SessionCommandDeps, given?: HistoryEntry): Promise<void> {
  const entry = given ?? (await pickSaved(deps, "Delete Session from This Workspace's History"));
  if (!entry) return;
  const name = deps.agentList.name(entry.agentId);
  const onAgent = deps.agents.capabilitiesOf(entry.agentId)?.sessionCapabilities?.delete
    ? `Delete Here and in ${name}`
    : undefined;
  const here = 'Delete from History';
  const choice = await vscode.window.showWarningMessage(
    `Delete "${entry.title}" from this workspace's history?`,
    {
      modal: true,
      detail: onAgent
        ? `${name} keeps its own copy of the conversation unless you also delete it there.`
        : `${name}'s own copy of the conversation is not touched.`,
    },
    ...[here, ...(onAgent ? [onAgent] : [])],
  );
  if (!choice) return;
  await deps.store.delete(entry.key);
  if (choice !== onAgent) return;
  try {
    await deps.agents.using(entry.agentId, async (connection) => {
      const deleteSession = connection.client.deleteSession;
      if (!deleteSession) throw new Error('it no longer offers to delete sessions.');
      await deleteSession(entry.sessionId);
    });
  } catch (error) {
    deps.log.warn(`session/delete of ${entry.sessionId} failed: ${errorMessage(error)}`);
    void vscode.window.showErrorMessage(
      `${name} could not delete its copy: ${errorMessage(error)} It is gone from this workspace's history.`,
    );
  }
}
