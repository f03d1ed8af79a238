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
import { COMPARE_COMMANDS, compareHtml, type ComparedAgent } from './compareHtml';
import type { WorktreeRecords } from './worktreeRecords';
import { chatWorkingIn, worktreeLabel } from './worktreeRecords';

/** One agent of a task: its worktree's record id (its chat: the one open in that worktree), and a task run's outcome. */
interface Asked {
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
      vscode.commands.registerCommand('vscode-acp.compareShowChat', (id: unknown) => this.showChat(id)),
      vscode.commands.registerCommand('vscode-acp.compareApply', (key: unknown, id: unknown) => this.apply(key, id)),
      vscode.commands.registerCommand('vscode-acp.compareVersions', (key: unknown, label: unknown) =>
        this.versions(key, label),
      ),
      vscode.commands.registerCommand('vscode-acp.compareRunTask', (key: unknown) => this.runTask(key)),
      vscode.commands.registerCommand('vscode-acp.compareTask', (id?: unknown) => this.pickAndShow(id)),
    ];
  }

  /**
   * Opens (or brings to the front) the compare view of the task `id` (Ask Several Agents): the worktrees made for it
   * that are still kept, in the order the agents were picked; its key, undefined when none is left.
   */
  show(id: string): string | undefined {
    const shown = this.open.get(id);
    if (shown) {
      shown.panel.reveal();
      return id;
    }
    const records = this.records
      .all()
      .filter((r) => r.task?.id === id)
      .reverse();
    const title = records[0]?.task?.label;
    if (title === undefined) return undefined;
    const panel = vscode.window.createWebviewPanel(
      'vscode-acp.compare',
      `Compare: ${title.slice(0, 40)}`,
      vscode.ViewColumn.Active,
      {
        enableCommandUris: [...COMPARE_COMMANDS],
        enableScripts: false,
      },
    );
    const asked = records.map((r) => ({ agent: r.task?.agent ?? 'An agent', worktreeId: r.id }));
    const compare: Compare = { key: id, title, panel, asked };
    this.open.set(id, compare);
    panel.onDidDispose(() => this.open.delete(id));
    this.render(compare);
    return id;
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
    const chat = chatWorkingIn(this.chats, record.path);
    return [
      {
        id: record.id,
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

  /**
   * Compare the Agents of a Task...: the task `id`, or the one the user picks of those whose worktrees are kept (after a
   * window reload, or once its view was closed). Its key, undefined when nothing was shown.
   */
  private async pickAndShow(id?: unknown): Promise<string | undefined> {
    if (typeof id === 'string') return this.show(id);
    const tasks = new Map<string, { label: string; agents: string[]; created: number }>();
    for (const r of this.records.all()) {
      if (!r.task) continue;
      const task = tasks.get(r.task.id) ?? { label: r.task.label, agents: [], created: r.created };
      task.agents.unshift(r.task.agent);
      tasks.set(r.task.id, task);
    }
    if (tasks.size === 0) {
      return void vscode.window.showInformationMessage(
        'No task given to several agents has worktrees left: Ask Several Agents... gives one.',
      );
    }
    const picked = await vscode.window.showQuickPick(
      [...tasks].map(([key, t]) => ({
        label: t.label,
        description: t.agents.join(', '),
        detail: new Date(t.created).toLocaleString(),
        key,
      })),
      { title: 'Compare the Agents of a Task', placeHolder: 'Which task?' },
    );
    return picked && this.show(picked.key);
  }

  private changed(chat: Chat): void {
    const task = chat.place && this.records.containing(chat.place.path)?.task;
    const compare = task && this.open.get(task.id);
    if (compare) this.render(compare);
  }

  /** The chat of the worktree `id`: the open one, else its saved one reopened, else a new one there. */
  private async showChat(id: unknown): Promise<void> {
    if (typeof id !== 'string') return;
    await vscode.commands.executeCommand('vscode-acp.openWorktreeChat', id);
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
