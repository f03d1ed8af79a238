/**
 * The Node host's checkpoints: WorkspaceCheckpoints over the trusted local
 * workspace folders, its copies in this workspace's extension storage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CheckpointMark, Checkpoints } from '../src/platform';
import type { FileChange } from '../src/shared/changes';
import { WorkspaceCheckpoints, type CheckpointLimits, type TurnMark } from './checkpoints/workspaceCheckpoints';

const LIMITS: CheckpointLimits = {
  /** A folder with more files than this is checkpointed up to it (and says so). */
  maxFiles: 100_000,
  /** Larger files are listed when changed, never copied (no Undo for them). */
  maxFileBytes: 5 * 1024 * 1024,
  maxStoreBytes: () => {
    const mb = vscode.workspace.getConfiguration('vscode-acp').get<number>('checkpoints.maxStorageMB', 1024);
    return (Number.isSafeInteger(mb) && mb >= 1 ? mb : 1024) * 1024 * 1024;
  },
};

function localFolders(): string[] {
  if (!vscode.workspace.isTrusted) return [];
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class NodeCheckpoints implements Checkpoints {
  private readonly core: WorkspaceCheckpoints;
  private readonly marks = new Map<number, TurnMark>();
  private sweeping = false;

  /** `storage`: this workspace's extension storage folder (a `file:` URI). */
  constructor(storage: vscode.Uri) {
    this.core = new WorkspaceCheckpoints(path.join(storage.fsPath, 'checkpoints'), LIMITS);
  }

  warmUp(): void {
    this.beforeTurn().then((mark) => this.release(mark), () => undefined);
  }

  async beforeTurn(): Promise<CheckpointMark> {
    const mark = await this.core.beforeTurn(localFolders());
    this.marks.set(mark.id, mark);
    return { id: mark.id };
  }

  async afterTurn(mark: CheckpointMark): Promise<FileChange[]> {
    const turn = this.marks.get(mark.id);
    if (!turn) return [];
    this.marks.delete(mark.id);
    return this.core.afterTurn(turn);
  }

  private release(mark: CheckpointMark): void {
    const turn = this.marks.get(mark.id);
    this.marks.delete(mark.id);
    if (turn) this.core.release(turn);
  }

  async copy(hash: string): Promise<Uint8Array> {
    return this.core.copy(hash);
  }

  restore(filePath: string, expected: string | null, target: string | null, dryRun = false): Promise<'restored' | 'already'> {
    // The path must be inside a trusted local workspace folder; the walk checks every step of it.
    if (!vscode.workspace.isTrusted) return Promise.reject(new Error('Files are put back only in a trusted workspace.'));
    return this.core.restore(filePath, expected, target, dryRun, localFolders());
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

  label(filePath: string): string {
    return vscode.workspace.asRelativePath(vscode.Uri.file(filePath), (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }
}
