/**
 * What an Apply did, said to the user (a message, and a line in the worktree's chat), and its conflicts opened in VS
 * Code's merge editor: the version at the worktree's start as the base, the user's and the agent's as the two sides,
 * the user's file as the result (nothing is written to it until the user completes the merge and saves).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AppliedFile } from './applyWorktree';
import { worktreeLabel, type WorktreeRecord } from './worktreeRecords';

/** Merge editors opened at once; more conflicts are listed, with a button for each next one. */
const MAX_OPENED = 5;

type Conflict = Extract<AppliedFile, { outcome: 'conflict' }>;

/** Says what `files` (an Apply's outcome) came to, opens the conflicts' merge editors; the chat's line to add. */
export async function reportApplied(
  files: readonly AppliedFile[],
  record: WorktreeRecord,
  mergeFolder: string,
): Promise<{ level: 'info' | 'warning'; text: string }> {
  const count = (outcome: AppliedFile['outcome']) => files.filter((f) => f.outcome === outcome);
  const applied = count('applied').length + count('merged').length;
  const conflicts = count('conflict') as Conflict[];
  const failed = count('failed') as Extract<AppliedFile, { outcome: 'failed' }>[];
  const parts = [
    files.length === 0
      ? 'The agent changed no files in its worktree'
      : `${files.length} ${plural(files.length, 'file')} changed in the worktree`,
    ...(applied > 0
      ? [
          `${applied} applied to your workspace as unstaged changes${count('merged').length > 0 ? ` (${count('merged').length} merged with yours)` : ''}`,
        ]
      : []),
    ...(count('same').length > 0
      ? [`${count('same').length} already as the agent has ${count('same').length === 1 ? 'it' : 'them'}`]
      : []),
    ...(conflicts.length > 0
      ? [`${conflicts.length} in conflict with your changes, opened in the merge editor: ${names(conflicts)}`]
      : []),
    ...(failed.length > 0
      ? [
          `${failed.length} not applied: ${failed
            .slice(0, 5)
            .map((f) => (f.path ? `${f.path} (${f.why})` : f.why))
            .join('; ')}`,
        ]
      : []),
  ];
  const text = `Apply (${worktreeLabel(record)}): ${parts.join('; ')}.`;
  const level = conflicts.length + failed.length > 0 ? 'warning' : 'info';
  void (level === 'warning' ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text));
  for (const conflict of conflicts.slice(0, MAX_OPENED)) {
    await openMerge(conflict, record, mergeFolder).catch((error: unknown) =>
      vscode.window.showErrorMessage(`The merge editor did not open for ${conflict.path}: ${String(error)}`),
    );
  }
  return { level, text };
}

/** Writes a conflict's base and the user's version beside the worktree, and opens the merge editor on the user's file. */
async function openMerge(conflict: Conflict, record: WorktreeRecord, mergeFolder: string): Promise<void> {
  const folder = path.join(mergeFolder, String(Date.now()));
  fs.mkdirSync(folder, { recursive: true });
  const name = path.basename(conflict.path);
  const write = (which: string, bytes: Uint8Array | null) => {
    const file = path.join(folder, `${which}-${name}`);
    fs.writeFileSync(file, bytes ?? new Uint8Array());
    return vscode.Uri.file(file);
  };
  const base = write('start', conflict.versions.start);
  const yours = write('yours', conflict.versions.yours);
  const agents = vscode.Uri.file(path.join(record.top, ...conflict.path.split('/')));
  await vscode.commands.executeCommand('_open.mergeEditor', {
    base,
    input1: { uri: yours, title: 'Yours', description: 'your workspace' },
    input2: { uri: agents, title: "The agent's", description: worktreeLabel(record) },
    output: vscode.Uri.file(path.join(record.repo, ...conflict.path.split('/'))),
  });
}

function names(files: readonly AppliedFile[]): string {
  const shown = files.slice(0, 5).map((f) => f.path);
  return files.length > 5 ? `${shown.join(', ')} and ${files.length - 5} more` : shown.join(', ');
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
