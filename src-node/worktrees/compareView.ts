/**
 * The compare view of one task given to several agents (issue 49): an editor panel (compareHtml.ts) kept up to date
 * as their chats change, and what its links do: show a chat, Apply one agent's changes (then, if the user says so,
 * discard the others' worktrees), open two versions of a file side by side, and run one of the workspace's tasks in
 * each worktree, its exit code shown per agent.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Chat } from '../../src/chat/chat';
import type { Chats } from '../../src/chats/chats';
import type { AskedChat } from './askSeveral';
import { COMPARE_COMMANDS, compareHtml, type ComparedAgent } from './compareHtml';
import type { WorktreeRecords } from './worktreeRecords';
import { worktreeLabel } from './worktreeRecords';

/** One agent of a task: its chat and its worktree's record id. */
interface Asked {
  readonly chatId: string;
  readonly agent: string;
  readonly worktreeId: string;
  task?: ComparedAgent['task'];
}

interface Compare {
  readonly key: string;
  readonly title: string;
  readonly asked: Asked[];
  readonly panel: vscode.WebviewPanel;
}

export class CompareViews implements vscode.Disposable {
  private readonly open = new Map<string, Compare>();
  private next = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly chats: Chats,
    private readonly records: WorktreeRecords,
    /** Discards a worktree without asking (the user said so for all). */
    private readonly discard: (id: string) => Promise<void>,
  ) {
    this.subscriptions = [
      chats.onDidChangeChat((chat) => this.changed(chat)),
      records.onDidChange(() => this.open.forEach((c) => this.render(c))),
      vscode.commands.registerCommand('vscode-acp.compareShowChat', (chatId: unknown) => this.showChat(chatId)),
      vscode.commands.registerCommand('vscode-acp.compareApply', (key: unknown, id: unknown) => this.apply(key, id)),
      vscode.commands.registerCommand('vscode-acp.compareVersions', (key: unknown, label: unknown) =>
        this.versions(key, label),
      ),
      vscode.commands.registerCommand('vscode-acp.compareRunTask', (key: unknown) => this.runTask(key)),
    ];
  }

  /** Opens the compare view of the task `title` given to `chats` (each in a worktree); its key. */
  show(title: string, asked: readonly AskedChat[]): string {
    const key = `t${++this.next}`;
    const panel = vscode.window.createWebviewPanel(
      'vscode-acp.compare',
      `Compare: ${title.slice(0, 40)}`,
      vscode.ViewColumn.Active,
      {
        enableCommandUris: [...COMPARE_COMMANDS],
        enableScripts: false,
      },
    );
    const compare: Compare = {
      key,
      title,
      panel,
      asked: asked.flatMap(({ chat, label }) => {
        const record = chat.place && this.records.containing(chat.place.path);
        return record ? [{ chatId: chat.id, agent: label, worktreeId: record.id }] : [];
      }),
    };
    this.open.set(key, compare);
    panel.onDidDispose(() => this.open.delete(key));
    this.render(compare);
    return key;
  }

  /** What the view of task `key` shows now (a test reads it; the page is made from it). */
  agents(key: string): ComparedAgent[] {
    const compare = this.open.get(key);
    return compare ? compare.asked.flatMap((a) => this.compared(a)) : [];
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.open.forEach((c) => c.panel.dispose());
  }

  private compared(asked: Asked): ComparedAgent[] {
    const record = this.records.get(asked.worktreeId);
    if (!record) return [];
    const chat = this.chats.get(asked.chatId);
    return [
      {
        id: record.id,
        chatId: asked.chatId,
        agent: asked.agent,
        worktree: worktreeLabel(record),
        state: chat ? stateOf(chat) : 'closed',
        files: chat?.changes?.status.files ?? [],
        ...(asked.task ? { task: asked.task } : {}),
        ...(record.appliedAt !== undefined ? { applied: true } : {}),
      },
    ];
  }

  /** Sets the page anew only when what it shows changed: setting it reloads the page (focus, scroll). */
  private render(compare: Compare): void {
    const html = compareHtml(compare.key, compare.title, this.agents(compare.key), compare.panel.webview.cspSource);
    if (compare.panel.webview.html !== html) compare.panel.webview.html = html;
  }

  private changed(chat: Chat): void {
    for (const compare of this.open.values()) if (compare.asked.some((a) => a.chatId === chat.id)) this.render(compare);
  }

  private async showChat(chatId: unknown): Promise<void> {
    const chat = typeof chatId === 'string' ? this.chats.get(chatId) : undefined;
    if (!chat) {
      return void vscode.window.showInformationMessage('That chat is closed: the Sessions view lists its worktree.');
    }
    this.chats.show(chat.id);
    await vscode.commands.executeCommand('vscode-acp.focusChat');
  }

  private async apply(key: unknown, id: unknown): Promise<void> {
    const compare = typeof key === 'string' ? this.open.get(key) : undefined;
    if (!compare || typeof id !== 'string') return;
    await vscode.commands.executeCommand('vscode-acp.applyWorktree', id);
    const others = compare.asked.filter((a) => a.worktreeId !== id && this.records.get(a.worktreeId));
    if (others.length === 0) return;
    const answer = await vscode.window.showWarningMessage(
      `Discard the other ${others.length === 1 ? 'worktree' : `${others.length} worktrees`} of this task (${others.map((a) => a.agent).join(', ')})? What they changed is lost.`,
      { modal: true },
      'Discard Others',
    );
    if (answer !== 'Discard Others') return;
    for (const other of others) await this.discard(other.worktreeId);
  }

  /** Two versions of the file at `label` (the agents', the workspace's) side by side, as the user picks them. */
  private async versions(key: unknown, label: unknown): Promise<void> {
    const compare = typeof key === 'string' ? this.open.get(key) : undefined;
    if (!compare || typeof label !== 'string') return;
    const versions = compare.asked.flatMap((a) => {
      const record = this.records.get(a.worktreeId);
      return record
        ? [{ label: a.agent, description: worktreeLabel(record), uri: vscode.Uri.file(path.join(record.path, label)) }]
        : [];
    });
    const folder = this.records.get(compare.asked[0]?.worktreeId ?? '')?.folder;
    if (folder) {
      versions.push({ label: 'Your workspace', description: folder, uri: vscode.Uri.file(path.join(folder, label)) });
    }
    const picked = await vscode.window.showQuickPick(versions, {
      title: `Compare ${label}`,
      placeHolder: 'Pick two versions',
      canPickMany: true,
    });
    if (!picked || picked.length !== 2) return;
    const [left, right] = picked as [(typeof versions)[0], (typeof versions)[0]];
    await vscode.commands.executeCommand(
      'vscode.diff',
      left.uri,
      right.uri,
      `${label}: ${left.label} ↔ ${right.label}`,
    );
  }

  /** Runs a task of the workspace in each worktree (its folder the worktree's); each agent's card says how it ended. */
  private async runTask(key: unknown): Promise<void> {
    const compare = typeof key === 'string' ? this.open.get(key) : undefined;
    if (!compare) return;
    const runnable = (await vscode.tasks.fetchTasks()).filter(
      (t) => t.execution instanceof vscode.ShellExecution || t.execution instanceof vscode.ProcessExecution,
    );
    if (runnable.length === 0) {
      return void vscode.window.showInformationMessage(
        'This workspace has no task that runs a command (tasks.json, or one an extension offers).',
      );
    }
    const picked = await vscode.window.showQuickPick(
      runnable.map((task) => ({ label: task.name, description: task.source, task })),
      { title: 'Run a Task in Each Worktree', placeHolder: 'Which task (its tests, say)?' },
    );
    if (!picked) return;
    for (const asked of compare.asked) {
      const record = this.records.get(asked.worktreeId);
      const run = record && inFolder(picked.task.execution, record.path);
      if (!run) continue;
      // A definition of its own: one equal to the workspace's task would be run as tasks.json has it, in the folder.
      const task = new vscode.Task(
        { type: 'vscode-acp-worktree', task: picked.task.name, worktree: record.id },
        picked.task.scope ?? vscode.TaskScope.Workspace,
        `${picked.task.name} (${asked.agent})`,
        'ACP worktree',
        run,
        picked.task.problemMatchers,
      );
      asked.task = { name: picked.task.name, state: 'running' };
      this.render(compare);
      // Its name is this agent's own (the task's, the agent's).
      const ended = vscode.tasks.onDidEndTaskProcess((e) => {
        if (e.execution.task.name !== task.name) return;
        ended.dispose();
        asked.task = {
          name: picked.task.name,
          state: e.exitCode === 0 ? 'passed' : 'failed',
          ...(e.exitCode !== undefined ? { code: e.exitCode } : {}),
        };
        this.render(compare);
      });
      await vscode.tasks.executeTask(task);
    }
  }
}

/** A chat's answer, as the compare view says it. */
function stateOf(chat: Chat): ComparedAgent['state'] {
  if (chat.permissions.prompts.length > 0 || chat.elicitations.views.length > 0) return 'asks you';
  if (chat.thread.turn === 'running') return 'working';
  return chat.lastTurnEnd ?? 'not started';
}

/** `execution` run in `folder` instead of where it was set to run; undefined for one that is not a command. */
function inFolder(
  execution: vscode.Task['execution'],
  folder: string,
): vscode.ShellExecution | vscode.ProcessExecution | undefined {
  if (execution instanceof vscode.ProcessExecution) {
    return new vscode.ProcessExecution(execution.process, execution.args, { ...execution.options, cwd: folder });
  }
  if (execution instanceof vscode.ShellExecution) {
    const options = { ...execution.options, cwd: folder };
    return execution.commandLine !== undefined
      ? new vscode.ShellExecution(execution.commandLine, options)
      : new vscode.ShellExecution(execution.command!, execution.args ?? [], options);
  }
  return undefined;
}
