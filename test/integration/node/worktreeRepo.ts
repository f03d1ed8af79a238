/**
 * What the Node host's worktree suites share (worktrees.test.ts, askSeveral.test.ts): the workspace folder made a Git
 * repository with one committed file (`wt/colour.txt`, "green"), New Chat in a Worktree as the user picks it, the
 * chats opened (closed after), and waits.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { withQuickPick } from '../shared/dialogs';
import { acpApi } from '../shared/chatWaits';

export type OpenChat = Awaited<ReturnType<typeof acpApi>>['chats']['shown'];

/**
 * Session ids unique across processes (`--sessions`), as real agents make them: each worktree's chat has a process of
 * its own, and a counter would give both chats "sess-1" (the history keys sessions by agent and id).
 */
export const sessions = () => ['--sessions', fs.mkdtempSync(path.join(os.tmpdir(), 'acp-worktree-sessions-'))];

/** The repository, made before the suite's tests and removed after them (call in a `describe`). */
export function worktreeRepo() {
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const userFile = path.join(folder, 'wt', 'colour.txt');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
      cwd: folder,
      encoding: 'utf8',
    });
  const opened: OpenChat[] = [];

  before(() => {
    git('init', '-q');
    fs.mkdirSync(path.join(folder, 'wt'), { recursive: true });
    fs.writeFileSync(userFile, 'green\nsame\nsame\n');
    git('add', 'wt/colour.txt');
    git('commit', '-q', '-m', 'first');
  });
  after(async () => {
    const api = await acpApi();
    for (const chat of opened) await api.chats.close(chat.id);
    git('worktree', 'prune');
    fs.rmSync(path.join(folder, '.git'), { recursive: true, force: true });
    fs.rmSync(path.join(folder, 'wt'), { recursive: true, force: true });
    fs.rmSync(path.join(folder, '.vscode', 'tasks.json'), { force: true });
  });

  return {
    folder,
    userFile,
    git,
    opened,
    worktreeList: () => git('worktree', 'list', '--porcelain'),
    /** The files a chat's Changes bar lists (absolute paths). */
    listed: (chat: OpenChat) => chat.changes?.status.files.map((f) => f.path) ?? [],
    /** "New Chat in a Worktree", detached, the user's uncommitted files left behind; the chat it opened. */
    async chatInWorktree(): Promise<OpenChat> {
      const api = await acpApi();
      const before = api.chats.shown;
      await withQuickPick(
        (items) =>
          items.find((i) => i.label.startsWith('Detached') || i.label.startsWith('Start from the last commit')),
        () => Promise.resolve(vscode.commands.executeCommand('vscode-acp.newChatInWorktree')),
      );
      const chat = api.chats.shown;
      assert.ok(chat !== before, 'a new chat is shown');
      opened.push(chat);
      return chat;
    },
  };
}

export async function waitUntilAsync(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function waitUntil(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function waitForSaved(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the chat was not saved in the history within 15 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export function lastNotice(chat: OpenChat): string {
  const notices = chat.thread.entries.filter((e) => e.kind === 'notice');
  return (notices.at(-1) as { text: string } | undefined)?.text ?? '(no notice)';
}
