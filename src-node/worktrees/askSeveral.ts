/**
 * Ask Several Agents... (issue 49): one task, with the shown chat's attachments, to 2 to 4 agents the user picks, each
 * in a chat of its own in a worktree of its own, grouped under the task in the chat list; then the compare view
 * (compareView.ts) shows them side by side.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AgentList } from '../../src/agents/agentList';
import type { Chat } from '../../src/chat/chat';
import type { Chats } from '../../src/chats/chats';
import { addAttachments } from '../../src/attachments/attach';
import { modelChoices, type ModelChoice } from '../../src/chat/modelChoices';
import { titleText } from '../../src/shared/text/titleText';
import { pickSessionFolder } from '../../src/workspaceFolder';
import type { ChatWorktrees } from './chatWorktrees';
import { placeOf } from './worktreeRecords';

export const MIN_AGENTS = 2;
export const MAX_AGENTS = 4;

/** One task given to several agents: its id (its worktrees' records have it), its chats in the order picked. */
export interface AskedTask {
  readonly id: string;
  readonly chats: readonly Chat[];
}

interface AgentItem extends vscode.QuickPickItem {
  readonly id: string;
  readonly model?: ModelChoice;
}

/**
 * The available agents, each followed by its models where a chat of it knows them (a session's model option): the
 * same agent picked with two models is asked twice, each chat set to its model.
 */
function agentItems(chats: Chats, agentList: Pick<AgentList, 'agents'>): AgentItem[] {
  return agentList.agents
    .filter((a) => a.available)
    .flatMap((a) => {
      const models =
        chats.all
          .filter((c) => c.agentId === a.id)
          .map((c) => modelChoices(c.thread.controls))
          .find((m) => m.length > 1) ?? [];
      return [
        { label: a.name, id: a.id },
        ...models.map((model) => ({ label: a.name, description: model.name, id: a.id, model })),
      ];
    });
}

export async function askSeveralAgents(
  chats: Chats,
  agentList: Pick<AgentList, 'agents' | 'name'>,
  worktrees: ChatWorktrees,
  unavailable: () => string | undefined,
  /** The checkpoints' first look at a new worktree, before its agent gets the task. */
  firstLook: (folder: string) => Promise<void>,
): Promise<AskedTask | undefined> {
  const why = unavailable();
  if (why) return void vscode.window.showWarningMessage(why);
  const folder = await pickSessionFolder();
  if (!folder) return undefined;
  const repo = await worktrees.repository(folder.uri.fsPath);
  if ('why' in repo) return void vscode.window.showWarningMessage(`No worktree can be made: ${repo.why}.`);
  const source = chats.shown;
  const task = await vscode.window.showInputBox({
    title: 'Ask Several Agents',
    prompt: "The task each agent gets, in a worktree of its own (the shown chat's attachments go with it)",
    value: source.draft,
    validateInput: (value) => (value.trim() ? undefined : 'Say what the agents should do'),
  });
  if (!task?.trim()) return undefined;
  const picked = await vscode.window.showQuickPick(agentItems(chats, agentList), {
    title: 'Ask Several Agents',
    placeHolder: `Pick ${MIN_AGENTS} to ${MAX_AGENTS} agents (an agent once per model counts)`,
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.length < MIN_AGENTS || picked.length > MAX_AGENTS) {
    return void vscode.window.showWarningMessage(
      `Pick ${MIN_AGENTS} to ${MAX_AGENTS} agents to compare (${picked.length} picked): nothing was sent.`,
    );
  }
  // The task's id and name, kept with each worktree: its chats are grouped, and compared, after a reload too.
  const id = randomBytes(4).toString('hex');
  const label = `Task: ${titleText(task, 60)}`;
  const places = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Making ${picked.length} worktrees of ${folder.name}...` },
    async () => {
      const made = [];
      for (const agent of picked) {
        // Bounded as the record holds it: a model's name is the agent's to choose.
        const named = titleText(agent.model ? `${agent.label} (${agent.model.name})` : agent.label, 200);
        const one = await worktrees.make(folder.uri.fsPath, { agentId: agent.id, task: { id, label, agent: named } });
        if (one.ok) await firstLook(one.record.path);
        made.push(one);
      }
      return made;
    },
  );
  const failed = places.find((m) => !m.ok);
  if (failed && !failed.ok) {
    for (const m of places) if (m.ok) await worktrees.discard(m.record);
    return void vscode.window.showErrorMessage(`No agent was asked: a worktree could not be made (${failed.why}).`);
  }
  const attachments = source.composer.attachments.takeAll();
  const asked: Chat[] = [];
  for (const [index, agent] of picked.entries()) {
    const made = places[index]!;
    if (!made.ok) continue;
    const chat = chats.newChatAt(placeOf(made.record), agent.id);
    if (agent.model) chat.controls.pin(agent.model.change);
    addAttachments(
      chat.composer.attachments,
      attachments.map((a) => ({ source: a.source, look: a.look })),
    );
    void chat.composer.send(task);
    asked.push(chat);
  }
  return { id, chats: asked };
}
