/**
 * The chats' worktrees (issue 49) on the Node host: made for a new chat (`git worktree add` outside the workspace,
 * detached or on a new branch, the user's uncommitted changes carried only when asked), applied to the user's tree
 * (applyWorktree.ts), discarded. Git runs as the checkpoints run it (gitProcess.ts): the user's program, nothing of the
 * repository's own. Only in a trusted workspace, for a local folder in a Git repository; each refusal says why.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashOf } from '../checkpoints/blobStore';
import { FolderGit } from '../checkpoints/gitProcess';
import { openWorkspaceRoot } from '../workspaceFs/workspaceRoot';
import { readFileBytes } from '../workspaceFs/readTextFile';
import { applyWorktree, changedInWorktree, type AppliedFile, type ApplyLimits } from './applyWorktree';
import { addWorktree, repositoryGit, removeWorktree } from './worktreeGit';
import type { WorktreeRecord, WorktreeRecords } from './worktreeRecords';

export const APPLY_LIMITS: ApplyLimits = { maxFileBytes: 5 * 1024 * 1024, maxFiles: 10_000 };

/** What the host needs to know to make worktrees: the user's `git` and where worktrees go. */
export interface WorktreeSetup {
  /** The user's `git` (never one of a workspace folder's); undefined where there is none. */
  readonly git: () => Promise<string | undefined>;
  /** The folder worktrees are made in (the setting, else the extension's global storage). */
  readonly location: () => string;
}

/** A worktree made, or why not. */
export type Made =
  | { readonly ok: true; readonly record: WorktreeRecord; readonly carried: number }
  | { readonly ok: false; readonly why: string };

/** What an Apply did: each changed file's outcome. */
export interface Applied {
  readonly files: readonly AppliedFile[];
}

export class ChatWorktrees {
  constructor(
    readonly records: WorktreeRecords,
    private readonly setup: WorktreeSetup,
  ) {}

  /** The repository of the workspace folder at `folder`, or why there is none to make a worktree of. */
  async repository(folder: string): Promise<{ git: FolderGit } | { why: string }> {
    const program = await this.setup.git();
    if (!program) return { why: 'Git was not found on PATH' };
    const git = await repositoryGit(program, folder);
    return git ? { git } : { why: `${path.basename(folder)} is not in a Git repository Git can read` };
  }

  /** The files the user changed since HEAD (what "carry my changes" would take): undefined when Git could not say. */
  async uncommitted(folder: string): Promise<string[] | undefined> {
    const repo = await this.repository(folder);
    if (!('git' in repo)) return undefined;
    const head = (await repo.git.run('rev-parse', ['--verify', '--quiet', 'HEAD^{commit}']))?.toString('utf8').trim();
    return head ? changedInWorktree(repo.git, head) : undefined;
  }

  /** Makes a worktree of the workspace folder at `folder`: detached at HEAD, or on a new `branch`; `carry`: the user's uncommitted changes too. */
  async make(
    folder: string,
    options: { branch?: string; carry?: boolean; agentId?: string; task?: WorktreeRecord['task'] },
  ): Promise<Made> {
    const repo = await this.repository(folder);
    if (!('git' in repo)) return { ok: false, why: repo.why };
    const location = this.setup.location();
    const id = randomBytes(4).toString('hex');
    const top = path.join(
      location,
      `${path
        .basename(repo.git.folder)
        .replace(/[^\w.-]/g, '_')
        .slice(0, 40)}-${id}`,
    );
    try {
      fs.mkdirSync(location, { recursive: true });
    } catch (error) {
      return { ok: false, why: `the folder for worktrees (${location}) could not be made: ${String(error)}` };
    }
    const added = await addWorktree(repo.git, top, options.branch ? { branch: options.branch } : {});
    if (!added.ok) return added;
    const inRepo = path.relative(repo.git.folder, folder);
    const record: WorktreeRecord = {
      id,
      top,
      path: inRepo ? path.join(top, inRepo) : top,
      folder,
      repo: repo.git.folder,
      start: added.head,
      ...(options.branch ? { branch: options.branch } : {}),
      created: Date.now(),
      ...(options.agentId ? { agentId: options.agentId } : {}),
      ...(options.task ? { task: options.task } : {}),
    };
    let carried = 0;
    if (options.carry) {
      const paths = (await changedInWorktree(repo.git, added.head)) ?? [];
      const user = { git: repo.git, root: await openWorkspaceRoot(repo.git.folder) };
      const done = await applyWorktree(user, added.head, await openWorkspaceRoot(top), paths, APPLY_LIMITS);
      carried = done.filter((f) => f.outcome === 'applied').length;
    }
    await this.records.put(record);
    return { ok: true, record, carried };
  }

  /** Brings the worktree's changes into the user's tree (applyWorktree.ts); what was applied as the agent had it is noted. */
  async apply(record: WorktreeRecord): Promise<Applied> {
    const [user, worktree] = await Promise.all([this.repository(record.repo), this.repository(record.top)]);
    if (!('git' in user)) return failed(user.why);
    if (!('git' in worktree)) return failed(`the worktree at ${record.top} is gone or not readable by Git`);
    const paths = await changedInWorktree(worktree.git, record.start);
    if (paths === undefined) return failed('Git could not list what changed in the worktree');
    const [userRoot, worktreeRoot] = await Promise.all([openWorkspaceRoot(record.repo), openWorkspaceRoot(record.top)]);
    const files = await applyWorktree(
      { git: worktree.git, root: worktreeRoot },
      record.start,
      userRoot,
      paths,
      APPLY_LIMITS,
      record.applied,
    );
    const applied = { ...record.applied };
    for (const file of files) {
      if (file.outcome !== 'applied' && file.outcome !== 'same') continue;
      const bytes = await readFileBytes(
        worktreeRoot,
        `${worktreeRoot.path}/${file.path}`,
        APPLY_LIMITS.maxFileBytes,
      ).catch(() => undefined);
      if (bytes) applied[file.path] = hashOf(bytes);
    }
    await this.records.put({ ...record, applied, appliedAt: Date.now() });
    return { files };
  }

  /** Removes the worktree and its record; a branch it was on stays (the user named it). False when Git left it there. */
  async discard(record: WorktreeRecord): Promise<boolean> {
    const repo = await this.repository(record.repo);
    const gone = 'git' in repo ? await removeWorktree(repo.git, record.top) : !fs.existsSync(record.top);
    if (gone) await this.records.remove(record.id);
    return gone;
  }
}

function failed(why: string): Applied {
  return { files: [{ path: '', outcome: 'failed', why }] };
}
