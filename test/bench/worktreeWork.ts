/**
 * What the worktree figures time (bundled for Node by worktrees.mjs): on a Git repository of `files` committed files
 * (checkpointWork.ts's folder), git's own `worktree add` (the floor), a chat's worktree made ready for its agent
 * (src-node/worktrees/worktreeGit.ts: the repository found, the worktree added), and Apply of 100 files the agent
 * changed there into the user's tree (applyWorktree.ts: what changed, each file's three versions, the writes).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderGit } from '../../src-node/checkpoints/gitProcess';
import { applyWorktree, changedInWorktree } from '../../src-node/worktrees/applyWorktree';
import { addWorktree, removeWorktree, repositoryGit } from '../../src-node/worktrees/worktreeGit';
import { openWorkspaceRoot } from '../../src-node/workspaceFs/workspaceRoot';
import { makeWorkspace } from './checkpointWork';
import { WorkspaceCheckpoints } from '../../src-node/checkpoints/workspaceCheckpoints';

export interface WorktreeRun {
  files: number;
  /** `git worktree add --detach` run by hand. */
  floorMs: number;
  readyMs: number;
  apply100Ms: number;
  /** The checkpoints' first pass over the new worktree (its chat's first look) and over the user's folder. */
  firstPassMs: number;
  workspaceFirstPassMs: number;
  /** The pass every prompt waits for, nothing changed since: in the worktree, and in the user's folder. */
  turnStartMs: number;
  workspaceTurnStartMs: number;
}

const LIMITS = { maxFiles: 200_000, maxFileBytes: 5 * 1024 * 1024, maxStoreBytes: 1024 * 1024 * 1024 };

/** The first pass over `folder`, then the pass a prompt waits for (a Git checkout's checkpoints, as a chat's are). */
async function passes(store: string, folder: string, git: string): Promise<[number, number]> {
  const cp = new WorkspaceCheckpoints(store, { ...LIMITS, git: async () => git });
  const first = await time(async () => cp.release(await cp.beforeTurn([folder])));
  const turn = await time(async () => cp.release(await cp.beforeTurn([folder])));
  return [first, turn];
}

const time = async (work: () => Promise<unknown> | unknown) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

/**
 * `readyFirst`: the chat's worktree is made before git's own (the floor) instead of after: the second checkout of a
 * run waits on the first one's writes to disk, so runs alternate which goes first.
 */
export async function worktreeRun(files: number, git: string, readyFirst = false): Promise<WorktreeRun> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-worktree-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  const run = (...args: string[]) =>
    execFileSync(git, ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: root, stdio: 'ignore' });
  try {
    makeWorkspace(root, files);
    run('init', '-q');
    run('add', '-A');
    run('commit', '-qm', 'bench');
    const floor = path.join(base, 'floor');
    // Each checkout timed with the disk written out before it: else it waits on the last one's writes (8-16 s here).
    const settle = () => execFileSync('sync');
    const gitAlone = async () => {
      settle();
      const ms = await time(() => run('worktree', 'add', '--quiet', '--detach', floor, 'HEAD'));
      run('worktree', 'remove', '--force', floor);
      return ms;
    };
    const folder = path.join(base, 'chat');
    let start = '';
    const ready = () => {
      settle();
      return time(async () => {
        const repo = await repositoryGit(git, root);
        const added = repo && (await addWorktree(repo, folder));
        if (!added?.ok) throw new Error(`no worktree: ${JSON.stringify(added)}`);
        start = added.head;
      });
    };
    const readyMs = readyFirst ? await ready() : 0;
    const floorMs = await gitAlone();
    const readyAfterMs = readyFirst ? readyMs : await ready();
    // The checkpoints' passes there, and in the user's folder (the workspace figures of the same run).
    const [firstPassMs, turnStartMs] = await passes(path.join(base, 'store-chat'), folder, git);
    const [workspaceFirstPassMs, workspaceTurnStartMs] = await passes(path.join(base, 'store-ws'), root, git);
    // The agent edits 100 files in its worktree.
    for (let i = 0; i < 100; i++) {
      const file = path.join(folder, `pkg${i % 20}`, `mod${i % 200}`, `file${i}.ts`);
      fs.appendFileSync(file, `export const agent${i} = true;\n`);
    }
    const apply100Ms = await time(async () => {
      const worktree = { git: (await FolderGit.open(git, folder))!, root: await openWorkspaceRoot(folder) };
      const paths = await changedInWorktree(worktree.git, start);
      const applied = await applyWorktree(worktree, start, await openWorkspaceRoot(root), paths ?? [], {
        maxFileBytes: 5 * 1024 * 1024,
        maxFiles: 1_000,
      });
      const ok = applied.filter((a) => a.outcome === 'applied').length;
      if (ok !== 100) throw new Error(`applied ${ok} of 100: ${JSON.stringify(applied.slice(0, 3))}`);
    });
    await removeWorktree((await FolderGit.open(git, root))!, folder);
    return {
      files,
      floorMs,
      readyMs: readyAfterMs,
      apply100Ms,
      firstPassMs,
      workspaceFirstPassMs,
      turnStartMs,
      workspaceTurnStartMs,
    };
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
}
