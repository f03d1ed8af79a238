/**
 * The worktree commands (issue 49), from the Command Palette and the chat view's menu: New Chat in a Worktree, Ask
 * Several Agents (with its compare view), Apply Worktree to My Workspace, Open Worktree in New Window, Discard Worktree. Each acts on the shown chat's worktree, or
 * asks which one. Restricted Mode, a folder not on this disk and a folder outside Git offer none: each says why.
 */
import * as vscode from 'vscode';
import type { Chat } from '../../src/chat/chat';
import type { Chats } from '../../src/chats/chats';
import { pickSessionFolder } from '../../src/workspaceFolder';
import type { ChatWorktrees } from './chatWorktrees';
import { chatWorkingIn, placeOf, worktreeLabel, type WorktreeRecord } from './worktreeRecords';
import { reportApplied } from './worktreeMerge';
import { changedInWorktree } from './applyWorktree';
import { nodeCapabilities } from '../nodeWorkspaceFiles';
import type { AgentList } from '../../src/agents/agentList';
import { askSeveralAgents } from './askSeveral';
import { CompareViews } from './compareView';

export interface WorktreeCommandDeps {
  readonly chats: Chats;
  readonly agentList: Pick<AgentList, 'agents' | 'name'>;
  readonly worktrees: ChatWorktrees;
  /** The checkpoints' first look at a new worktree, done before its agent gets a prompt (its changes then have Undo). */
  readonly firstLook: (folder: string) => Promise<void>;
  /** Forgets what was kept of a discarded worktree: the checkpoints' state, the merge editor's versions. */
  readonly forget: (record: WorktreeRecord) => void;
  /** Where conflicting files' versions are written for the merge editor. */
  readonly mergeFolder: (record: WorktreeRecord) => string;
}

/** The context key the chat view's menu shows the worktree commands by. */
const CONTEXT_KEY = 'vscode-acp.shownChatInWorktree';

export function registerWorktreeCommands(deps: WorktreeCommandDeps): vscode.Disposable[] {
  const { chats } = deps;
  const shownInWorktree = () =>
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, chats.shown.place !== undefined);
  shownInWorktree();
  // The menus offer these where this entry runs (a Node extension host, local or remote, whatever the window is).
  void vscode.commands.executeCommand('setContext', 'vscode-acp.worktreesOffered', true);
  const compare = new CompareViews(chats, deps.worktrees.records, async (id) => {
    const record = deps.worktrees.records.get(id);
    if (record) await discard(deps, record, false);
  });
  return [
    compare,
    chats.onDidChangeShown(shownInWorktree),
    vscode.commands.registerCommand('vscode-acp.askSeveralAgents', async () => {
      const asked = await askSeveralAgents(chats, deps.agentList, deps.worktrees, unavailable, deps.firstLook);
      if (!asked) return undefined;
      compare.show(asked.id);
      // For another extension or a test: the chats asked, and what the compare view shows now.
      return { key: asked.id, chatIds: asked.chats.map((c) => c.id), compared: () => compare.agents(asked.id) };
    }),
    vscode.commands.registerCommand('vscode-acp.newChatInWorktree', () => newChatInWorktree(deps)),
    vscode.commands.registerCommand('vscode-acp.applyWorktree', async (id?: unknown) => {
      const record = await chosen(deps, id, 'Apply which worktree to your workspace?');
      if (record) await applyToWorkspace(deps, record);
    }),
    vscode.commands.registerCommand('vscode-acp.openWorktree', async (id?: unknown) => {
      const record = await chosen(deps, id, 'Open which worktree?');
      if (record) {
        await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(record.path), {
          forceNewWindow: true,
        });
      }
    }),
    vscode.commands.registerCommand('vscode-acp.discardWorktree', async (id?: unknown) => {
      const record = await chosen(deps, id, 'Discard which worktree?');
      if (record) await discard(deps, record);
    }),
  ];
}

/** Why worktrees are not offered here, or undefined when they are. */
function unavailable(): string | undefined {
  if (!vscode.workspace.isTrusted) {
    return 'Worktrees are made only in a trusted workspace: this folder is in Restricted Mode, and Git would read its configuration.';
  }
  if (!vscode.workspace.workspaceFolders?.some((f) => f.uri.scheme === 'file')) {
    return 'Worktrees are made of a folder on this machine: open a local folder in a Git repository.';
  }
  if (!nodeCapabilities().fileWrite) {
    return "Worktrees are not offered on this system: Apply writes your files through Linux's descriptor walk, which it lacks.";
  }
  return undefined;
}

async function newChatInWorktree(deps: WorktreeCommandDeps): Promise<Chat | undefined> {
  const why = unavailable();
  if (why) return void vscode.window.showWarningMessage(why);
  const folder = await pickSessionFolder();
  if (!folder) return undefined;
  if (folder.uri.scheme !== 'file') {
    return void vscode.window.showWarningMessage(
      `${folder.name} is not on this machine's disk: no worktree can be made of it.`,
    );
  }
  const repo = await deps.worktrees.repository(folder.uri.fsPath);
  if ('why' in repo) return void vscode.window.showWarningMessage(`No worktree can be made: ${repo.why}.`);
  const start = await vscode.window.showQuickPick(
    [
      {
        label: 'Detached at the current commit',
        detail: 'No branch is made: Apply brings its changes into your workspace.',
        branch: false,
      },
      { label: 'On a new branch...', detail: 'A branch you name, starting at the current commit.', branch: true },
    ],
    { title: 'New Chat in a Worktree', placeHolder: 'Where should the worktree start?' },
  );
  if (!start) return undefined;
  let branch: string | undefined;
  if (start.branch) {
    branch = await vscode.window.showInputBox({
      title: 'New Chat in a Worktree',
      prompt: 'The new branch, starting at the current commit',
      validateInput: (value) =>
        /^[^\s~^:?*[\\]+$/.test(value) ? undefined : 'A branch name without spaces or ~^:?*[\\',
    });
    if (!branch) return undefined;
  }
  const changed = (await deps.worktrees.uncommitted(folder.uri.fsPath)) ?? [];
  let carry = false;
  if (changed.length > 0) {
    const picked = await vscode.window.showQuickPick(
      [
        {
          label: 'Start from the last commit',
          detail: 'Your uncommitted changes stay in your workspace only.',
          carry: false,
        },
        {
          label: `Carry my uncommitted changes (${changed.length} ${changed.length === 1 ? 'file' : 'files'})`,
          detail: 'They are copied into the worktree; your workspace keeps them too.',
          carry: true,
        },
      ],
      { title: 'New Chat in a Worktree', placeHolder: 'Your workspace has uncommitted changes' },
    );
    if (!picked) return undefined;
    carry = picked.carry;
  }
  const agentId = deps.chats.shown.agentId;
  const made = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Making a worktree of ${folder.name}...` },
    async () => {
      const options = { ...(branch ? { branch } : {}), carry, ...(agentId ? { agentId } : {}) };
      const result = await deps.worktrees.make(folder.uri.fsPath, options);
      if (result.ok) await deps.firstLook(result.record.path);
      return result;
    },
  );
  if (!made.ok) return void vscode.window.showErrorMessage(`No worktree was made: ${made.why}.`);
  const chat = deps.chats.newChatAt(placeOf(made.record), agentId);
  if (carry) chat.say('info', `${made.carried} of your uncommitted changes were carried into the worktree.`);
  await vscode.commands.executeCommand('vscode-acp.focusChat');
  return chat;
}

/** The worktree named by `id` (a menu's), else the shown chat's, else the one the user picks. */
async function chosen(
  deps: WorktreeCommandDeps,
  id: unknown,
  placeHolder: string,
): Promise<WorktreeRecord | undefined> {
  const { records } = deps.worktrees;
  // A menu's: the Sessions view passes its node (a worktree), a test or another extension the id.
  // A chat page's: the chat's worktree folder.
  const named = typeof id === 'string' ? id : (id as { worktree?: { id?: unknown } } | undefined)?.worktree?.id;
  if (typeof named === 'string') return records.get(named);
  const folder = (id as { path?: unknown } | undefined)?.path;
  if (typeof folder === 'string') return records.containing(folder);
  const place = deps.chats.shown.place;
  const own = place && records.containing(place.path);
  if (own) return own;
  const all = records.all();
  if (all.length === 0) {
    void vscode.window.showInformationMessage('No chat works in a worktree: "ACP: New Chat in a Worktree" makes one.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    all.map((record) => ({ label: worktreeLabel(record), description: record.path, record })),
    { placeHolder },
  );
  return picked?.record;
}

async function applyToWorkspace(deps: WorktreeCommandDeps, record: WorktreeRecord): Promise<void> {
  const applied = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Applying the worktree to your workspace...' },
    () => deps.worktrees.apply(record),
  );
  const said = await reportApplied(applied.files, record, deps.mergeFolder(record));
  chatWorkingIn(deps.chats, record.path)?.say(said.level, said.text);
}

/** Discards `record`'s worktree; `ask`: first, when it holds changes not applied. */
async function discard(deps: WorktreeCommandDeps, record: WorktreeRecord, ask = true): Promise<void> {
  const repo = await deps.worktrees.repository(record.top);
  const changed = ask && 'git' in repo ? ((await changedInWorktree(repo.git, record.start)) ?? []) : [];
  const unapplied = changed.filter((path) => record.applied?.[path] === undefined);
  if (unapplied.length > 0) {
    const answer = await vscode.window.showWarningMessage(
      `Discard the worktree (${worktreeLabel(record)})? It holds ${unapplied.length} changed ${unapplied.length === 1 ? 'file' : 'files'} not applied to your workspace, and they are lost.`,
      { modal: true },
      'Discard',
    );
    if (answer !== 'Discard') return;
  }
  const chat = chatWorkingIn(deps.chats, record.path);
  await chat?.disconnect();
  const gone = await deps.worktrees.discard(record);
  if (!gone) {
    void vscode.window.showErrorMessage(`Git could not remove the worktree at ${record.top}: it is still listed.`);
    return;
  }
  deps.forget(record);
  chat?.say(
    'info',
    `The worktree was discarded${record.branch ? ` (the branch ${record.branch} stays in your repository)` : ''}: this chat's agent has no folder any more.`,
  );
}
