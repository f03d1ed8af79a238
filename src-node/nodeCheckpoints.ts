/**
 * The Node host's checkpoints: WorkspaceCheckpoints over the trusted local
 * workspace folders, its copies in this workspace's extension storage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointMark, Checkpoints } from '../src/platform';
import type { FileChange, FileVersion } from '../src/shared/changes';
import { WorkspaceCheckpoints, type CheckpointLimits, type TurnMark } from './checkpoints/workspaceCheckpoints';
import type { PassReport } from './checkpoints/passReport';
import { localFolders } from './nodeWorkspaceFiles';
import { setting } from '../src/settings/settings';
import { SETTINGS } from '../src/settings/settingsTable';
import { resolveExecutable } from './agents/resolveExecutable';
import { pathInside } from '../src/shared/text/pathInside';

const LIMITS: CheckpointLimits = {
  /** A folder with more files than this is checkpointed up to it (and says so). */
  maxFiles: 100_000,
  /** Larger files are listed when changed, never copied (no Undo for them). */
  maxFileBytes: 5 * 1024 * 1024,
  maxStoreBytes: () => {
    const mb = setting('checkpoints.maxStorageMB');
    return (mb >= 1 ? mb : SETTINGS['checkpoints.maxStorageMB'].default) * 1024 * 1024;
  },
  git: userGit,
  exclude: excludedFolders,
};

/** `checkpoints.exclude`: plain folder names (a malformed value: the default). */
function excludedFolders(): readonly string[] {
  const value: unknown = setting('checkpoints.exclude');
  const names = Array.isArray(value) ? value.slice(0, 100) : undefined;
  const plain = (n: unknown) =>
    typeof n === 'string' && n.length > 0 && n.length <= 255 && !/[/\\]/.test(n) && n !== '.' && n !== '..';
  return names?.every(plain) ? (names as string[]) : SETTINGS['checkpoints.exclude'].default;
}

let gitFound: Promise<string | undefined> | undefined;

/**
 * The user's `git`, looked up once on PATH (never in a workspace folder: a repository must not decide which program
 * reads it); undefined where there is none.
 */
export function userGit(): Promise<string | undefined> {
  gitFound ??= resolveExecutable('git', process.env, { skipInside: localFolderPaths() });
  return gitFound;
}

/** The trusted local workspace folders, as paths: the folders checkpoints cover. */
function localFolderPaths(): string[] {
  return localFolders().map((f) => f.uri.fsPath);
}

export class NodeCheckpoints implements Checkpoints {
  private readonly core: WorkspaceCheckpoints;
  private readonly marks = new Map<number, TurnMark>();
  private sweeping = false;

  /**
   * `storage`: this workspace's extension storage folder (a `file:` URI); `worktrees`: the chats' worktrees kept now
   * (src-node/worktrees/), checkpointed for their chats as workspace folders are.
   */
  constructor(
    storage: vscode.Uri,
    private readonly worktrees: () => readonly string[] = () => [],
  ) {
    this.core = new WorkspaceCheckpoints(path.join(storage.fsPath, 'checkpoints'), LIMITS);
  }

  /** The folders whose files may be checkpointed and put back: the trusted local ones, and the chats' worktrees. */
  private folders(): string[] {
    return vscode.workspace.isTrusted ? [...localFolderPaths(), ...this.worktrees()] : [];
  }

  /** A worktree that is gone (discarded): what the checkpoints knew of it goes too. */
  forget(folder: string): void {
    this.core.forget(folder);
  }

  warmUp(folders?: readonly string[]): void {
    this.mark(false, folders).then(
      (mark) => this.release(mark),
      () => undefined,
    );
  }

  async mark(soon = false, only?: readonly string[]): Promise<CheckpointMark> {
    const folders = only ? this.folders().filter((f) => only.includes(f)) : localFolderPaths();
    const mark = await this.core.beforeTurn(folders, soon);
    this.marks.set(mark.id, mark);
    return { id: mark.id, ...(mark.unseen ? { unseen: true } : {}) };
  }

  between(from: CheckpointMark, to: CheckpointMark): FileChange[] {
    const [a, b] = [this.marks.get(from.id), this.marks.get(to.id)];
    return a && b ? this.core.between(a, b) : [];
  }

  release(mark: CheckpointMark): void {
    const turn = this.marks.get(mark.id);
    this.marks.delete(mark.id);
    if (turn) this.core.release(turn);
  }

  async copy(hash: string): Promise<Uint8Array> {
    return this.core.copy(hash, this.folders());
  }

  async keep(bytes: Uint8Array): Promise<FileVersion> {
    const hash = this.core.store.put(bytes);
    return hash ? { size: bytes.length, hash } : { size: bytes.length, missing: 'no-room' };
  }

  restore(
    filePath: string,
    expected: string | null,
    target: string | null,
    dryRun = false,
  ): Promise<'restored' | 'already'> {
    // The path must be inside a trusted local workspace folder; the walk checks every step of it.
    if (!vscode.workspace.isTrusted) {
      return Promise.reject(new Error('Files are put back only in a trusted workspace.'));
    }
    return this.core.restore(filePath, expected, target, dryRun, this.folders());
  }

  async sweepIfFull(keep: () => Promise<ReadonlySet<string>>): Promise<void> {
    if (this.sweeping || !this.core.nearlyFull) return;
    this.sweeping = true;
    try {
      this.core.sweep(await keep());
    } finally {
      this.sweeping = false;
    }
  }

  report(): string {
    const folders = localFolderPaths();
    if (folders.length === 0) return 'Checkpoints are kept only for the local folders of a trusted workspace.';
    return folders.map((folder) => passReport(folder, this.core.lastPass(folder))).join('\n\n');
  }

  label(filePath: string): string {
    // In a chat's worktree: the path in it (the workspace's own names it otherwise).
    const worktree = this.worktrees().find((folder) => pathInside(filePath, folder));
    if (worktree) return path.relative(worktree, filePath).split(path.sep).join('/');
    return vscode.workspace.asRelativePath(
      vscode.Uri.file(filePath),
      (vscode.workspace.workspaceFolders?.length ?? 0) > 1,
    );
  }
}

/** One folder's part of the report. */
function passReport(folder: string, pass: PassReport | undefined): string {
  if (!pass) return `${folder}\n  No pass over it yet: one runs when a chat connects and before each prompt.`;
  const list = (title: string, names: readonly string[], cut: boolean) =>
    names.length === 0
      ? []
      : [`  ${title}${cut && names.length >= 100 ? ' (the first 100)' : ''}:`, ...names.map((n) => `    ${n}`)];
  return [
    folder,
    ...(pass.truncated
      ? [
          `  Only its first ${LIMITS.maxFiles.toLocaleString('en-US')} files are checkpointed; changes to the others are not listed.`,
        ]
      : []),
    ...list(
      'Left out: Git ignores them (and .git), or, outside a Git repository, vscode-acp.checkpoints.exclude names them',
      pass.ignored,
      true,
    ),
    ...list(
      `Listed when changed, but no copy kept (over ${LIMITS.maxFileBytes / 1024 / 1024} MiB): no Undo`,
      pass.tooLarge,
      true,
    ),
    ...list('No copy kept: the storage for copies is full (vscode-acp.checkpoints.maxStorageMB)', pass.noRoom, true),
    ...list('Not read (a name that is not UTF-8, or a folder that could not be listed)', pass.unreadable, true),
    ...(pass.ignored.length + pass.tooLarge.length + pass.noRoom.length + pass.unreadable.length === 0 &&
    !pass.truncated
      ? ['  Nothing left out.']
      : []),
  ].join('\n');
}
