/**
 * A chat's own worktree (issue 49): the user's repository checked out a second time, in a folder outside the
 * workspace, for an agent to work in without touching the user's files. `git worktree add` (detached at HEAD, or on
 * a new branch the user names), its listing and its removal, with the user's `git` as the checkpoints run it
 * (checkpoints/gitProcess.ts: no hook, filter, fsmonitor, pager or transport of the repository's own runs; a file
 * whose filter would change it is checked out as the repository holds it). Each answer says what failed, in words.
 */
import { FolderGit } from '../checkpoints/gitProcess';

/** Where a new worktree starts: detached at HEAD, or on `branch`, a new branch at HEAD. */
export interface WorktreeStart {
  readonly branch?: string;
}

export type WorktreeAdded = { readonly ok: true; readonly head: string } | { readonly ok: false; readonly why: string };

/** One worktree of a repository, as `git worktree list` has it. */
export interface Worktree {
  readonly folder: string;
  readonly head?: string;
  /** Its branch (`refs/heads/` left out); none when detached. */
  readonly branch?: string;
}

/** The repository of `folder` (a folder in its work tree), through `git` (the user's program); undefined without. */
export async function repositoryGit(git: string, folder: string): Promise<FolderGit | undefined> {
  const opened = await FolderGit.open(git, folder);
  const top = await opened?.run('rev-parse', ['--show-toplevel']);
  return top === undefined ? undefined : FolderGit.open(git, top.toString('utf8').trim());
}

/** Adds a worktree of `repo` in `folder` (which must not exist yet). */
export async function addWorktree(repo: FolderGit, folder: string, start: WorktreeStart = {}): Promise<WorktreeAdded> {
  const head = (await repo.run('rev-parse', ['--verify', '--quiet', 'HEAD^{commit}']))?.toString('utf8').trim();
  if (!head) return { ok: false, why: 'the repository has no commit to start from' };
  let branch: string[] = ['--detach'];
  if (start.branch !== undefined) {
    const valid = start.branch.startsWith('-')
      ? undefined
      : await repo.run('check-ref-format', ['--branch', start.branch]);
    if (valid === undefined) return { ok: false, why: `"${start.branch.slice(0, 100)}" is not a valid branch name` };
    const taken = await repo.run('rev-parse', ['--verify', '--quiet', `refs/heads/${start.branch}`]);
    if (taken !== undefined) return { ok: false, why: `a branch named "${start.branch}" exists already` };
    branch = ['-b', start.branch];
  }
  const added = await repo.run('worktree', ['add', '--quiet', ...branch, '--', folder, head]);
  if (added === undefined) {
    // What it left half made (a folder, its entry) goes: nothing of a failed add stays behind.
    await removeWorktree(repo, folder);
    return { ok: false, why: 'git could not check the repository out there' };
  }
  return { ok: true, head };
}

/** The repository's worktrees (its own work tree first). */
export async function listWorktrees(repo: FolderGit): Promise<Worktree[]> {
  const out = await repo.run('worktree', ['list', '--porcelain', '-z']);
  if (out === undefined) return [];
  const found: Worktree[] = [];
  let current: { folder?: string; head?: string; branch?: string } = {};
  for (const line of out.toString('utf8').split('\0')) {
    if (line === '') {
      if (current.folder) found.push(current as Worktree);
      current = {};
    } else if (line.startsWith('worktree ')) current.folder = line.slice('worktree '.length);
    else if (line.startsWith('HEAD ')) current.head = line.slice('HEAD '.length);
    else if (line.startsWith('branch refs/heads/')) current.branch = line.slice('branch refs/heads/'.length);
  }
  if (current.folder) found.push(current as Worktree);
  return found;
}

/** Removes the worktree in `folder`, its files included, whatever they hold; true when none is left there. */
export async function removeWorktree(repo: FolderGit, folder: string): Promise<boolean> {
  await repo.run('worktree', ['remove', '--force', '--force', '--', folder]);
  await repo.run('worktree', ['prune']);
  return !(await listWorktrees(repo)).some((w) => w.folder === folder);
}
