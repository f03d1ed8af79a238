/**
 * Checkpoints for the workspace folders of one extension host: a FolderState
 * per folder over one BlobStore, turns marked before and after, files put
 * back. Plain Node (no `vscode`): nodeCheckpoints.ts gives it the folders and
 * the storage.
 */
import * as fs from 'node:fs';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isWorkspaceFsError } from '../workspaceFs/errors';
import { namesInside } from '../workspaceFs/agentPath';
import { openWorkspaceRoot, type WorkspaceRoot } from '../workspaceFs/workspaceRoot';
import { BlobStore } from './blobStore';
import { restoreFile, type Expected } from './fileVersions';
import type { FileChange } from '../../src/shared/changes';
import { FolderState, type FolderLimits } from './folderState';
import type { PassReport } from './passReport';
import { readBlobs } from './gitView';
import { gitIdOf } from './versionKeys';

export interface CheckpointLimits extends FolderLimits {
  /** The most all copies may take on disk (read at each copy). */
  readonly maxStoreBytes: number | (() => number);
  /** The user's `git` (an absolute path), where there is one: files as a repository's index has them are not copied. */
  readonly git?: () => Promise<string | undefined>;
}

/** Where a turn started: the log number of each folder. */
export interface TurnMark {
  readonly id: number;
  readonly seqs: ReadonlyMap<string, number>;
  /** A folder's first pass was still reading files (`soon`): a file changed before it was read has no known version from before. */
  readonly unseen?: boolean;
}

export class WorkspaceCheckpoints {
  private readonly folders = new Map<string, FolderState>();
  private readonly open = new Map<number, TurnMark>();
  private nextMark = 1;
  readonly store: BlobStore;

  /** `storeDir`: the copies (in `blobs/`) and each folder's index. */
  constructor(
    private readonly storeDir: string,
    private readonly limits: CheckpointLimits,
  ) {
    this.store = new BlobStore(path.join(storeDir, 'blobs'), limits.maxStoreBytes);
  }

  /**
   * Notes where `folders` (absolute paths of trusted local workspace folders)
   * stand now: a pass over each. The first pass of a folder copies every file
   * in it; later ones only what changed since. `soon`: a prompt waits, so a
   * folder's first pass is not waited for to its end (FolderState.refresh).
   */
  async beforeTurn(folders: readonly string[], soon = false): Promise<TurnMark> {
    const seqs = new Map<string, number>();
    let unseen = false;
    for (const folder of folders) {
      const state = await this.stateOf(folder);
      seqs.set(state.root.path, await state.refresh(soon));
      unseen ||= state.unseen;
    }
    const mark = { id: this.nextMark++, seqs, ...(unseen ? { unseen } : {}) };
    this.open.set(mark.id, mark);
    return mark;
  }

  /** What changed in the marked folders since `mark` (a pass over each); the mark is spent. */
  async afterTurn(mark: TurnMark): Promise<FileChange[]> {
    try {
      const seqs = new Map<string, number>();
      for (const folder of mark.seqs.keys()) {
        const state = this.folders.get(folder);
        if (state) seqs.set(folder, await state.refresh());
      }
      return this.between(mark, { id: 0, seqs });
    } finally {
      this.release(mark);
    }
  }

  /** What changed from mark `from` to the later `to` (neither released), in the folders both cover; no pass. */
  between(from: TurnMark, to: TurnMark): FileChange[] {
    const changes: FileChange[] = [];
    for (const [folder, seq] of from.seqs) {
      const state = this.folders.get(folder);
      const end = to.seqs.get(folder);
      if (!state || end === undefined) continue;
      for (const change of state.changesBetween(seq, end)) {
        changes.push({ ...change, path: `${folder === '/' ? '' : folder}/${change.path}` });
      }
    }
    return changes;
  }

  /** Gives up a mark without asking what changed (a turn that could not start). */
  release(mark: TurnMark): void {
    if (!this.open.delete(mark.id)) return;
    for (const [folder, state] of this.folders) {
      const held = [...this.open.values()].map((m) => m.seqs.get(folder)).filter((s): s is number => s !== undefined);
      state.forgetUpTo(held.length > 0 ? Math.min(...held) : Number.MAX_SAFE_INTEGER);
    }
  }

  /** `folder` is gone for good (a chat's worktree, discarded): its state and its saved index go. */
  forget(folder: string): void {
    const state = this.folders.get(folder);
    this.folders.delete(folder);
    if (state) fs.rmSync(this.indexFile(folder), { force: true });
  }

  /** What the last pass over `folder` left out. */
  lastPass(folder: string): PassReport | undefined {
    return this.folders.get(folder)?.lastPass;
  }

  /**
   * The bytes of a version: a kept copy, or Git's object (throws when it is gone or damaged), looked for in the folders
   * passed over and in `folders` (a window reloaded since the change has passed over none yet).
   */
  async copy(key: string, folders: readonly string[] = []): Promise<Buffer> {
    const git = gitIdOf(key);
    if (!git) return this.store.get(key);
    const program = await this.limits.git?.();
    const roots = new Set([...[...this.folders.values()].map((s) => s.root.path), ...folders]);
    for (const root of program ? roots : []) {
      const bytes = (await readBlobs(program!, root, [git.id], git.format)).get(git.id);
      if (bytes) return bytes;
    }
    throw new Error('The version from before is not in Git any more (nor kept here).');
  }

  /**
   * Puts the file at `path` back to the copy `target` (null: no file) when it
   * is now `expected` (a copy's hash, null: no file). Refusals are
   * WorkspaceFsErrors with messages for the user.
   */
  /** `folders`: the workspace folders a path may be in (a window reloaded since the change has passed over none yet). */
  async restore(
    path: string,
    expected: Expected,
    target: string | null,
    dryRun = false,
    folders: readonly string[] = [],
  ): Promise<'restored' | 'already'> {
    const root = await this.rootOf(path, folders);
    const bytes = target === null ? null : await this.copy(target);
    return restoreFile(root, path, expected, bytes, this.limits.maxFileBytes, dryRun);
  }

  /** The copies take three-quarters of their room or more: time to sweep. */
  get nearlyFull(): boolean {
    return this.store.bytes >= 0.75 * this.store.maxBytes;
  }

  /** Removes every copy that neither a folder nor `keep` (saved chats' changes) needs. */
  sweep(keep: ReadonlySet<string>): number {
    const needed = new Set(keep);
    for (const state of this.folders.values()) state.references(needed);
    return this.store.sweep(needed);
  }

  private async stateOf(folder: string): Promise<FolderState> {
    const root = await openWorkspaceRoot(folder);
    const known = this.folders.get(root.path);
    if (known && known.root.ino === root.ino && known.root.dev === root.dev) return known;
    const state = new FolderState(root, this.store, this.limits, this.indexFile(root.path), this.limits.git);
    this.folders.set(root.path, state);
    return state;
  }

  /** Where the pass state of the folder at `root` is saved. */
  private indexFile(root: string): string {
    return path.join(this.storeDir, `index-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`);
  }

  /** The folder `path` is in, among those checkpointed and `folders`. */
  private async rootOf(path: string, folders: readonly string[]): Promise<WorkspaceRoot> {
    const roots = [...[...this.folders.values()].map((s) => s.root)];
    for (const folder of folders) roots.push(await openWorkspaceRoot(folder));
    for (const root of roots) {
      try {
        namesInside(root, path);
        return root;
      } catch (e) {
        if (!isWorkspaceFsError(e, 'outside')) throw e;
      }
    }
    throw new Error(
      `${path.length > 160 ? `${path.slice(0, 160)}…` : path} is not inside a workspace folder with checkpoints.`,
    );
  }
}
