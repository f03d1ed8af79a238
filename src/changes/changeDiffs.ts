/**
 * The diff tabs of a chat's changes: a file before the agent's change (or since the user kept it) against the file
 * now, the before side read from the kept copies (checkpointDocuments.ts).
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import type { ChangedFile, FileChange, FileVersion } from '../shared/changes';

/** The scheme of a kept copy shown in the diff editor: `vscode-acp-checkpoint:/<label>?<hash>` (no hash: an empty side). */
export const CHECKPOINT_SCHEME = 'vscode-acp-checkpoint';

export function kindOf(change: FileChange): ChangedFile['kind'] {
  return !change.before ? 'created' : !change.after ? 'deleted' : 'edited';
}

/** Opens `change` of `path` in the diff editor. */
export async function openChangeDiff(checkpoints: Checkpoints, path: string, change: FileChange): Promise<void> {
  const label = checkpoints.label(path);
  const side = (version: FileVersion | undefined) =>
    vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path: `/${label}`, query: version?.hash ?? '' });
  const now = change.after ? vscode.Uri.file(path) : side(undefined);
  await vscode.commands.executeCommand('vscode.diff', side(change.before), now, diffTitle(label, kindOf(change)), {
    preview: true,
  });
}

/** Closes the diff tabs openChangeDiff showed for `paths` (the change they compared is undone). */
export async function closeChangeDiffs(checkpoints: Checkpoints, paths: readonly string[]): Promise<void> {
  const sides = new Set(paths.map((p) => `/${checkpoints.label(p)}`));
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter(
      (tab) =>
        tab.input instanceof vscode.TabInputTextDiff &&
        tab.input.original.scheme === CHECKPOINT_SCHEME &&
        sides.has(tab.input.original.path),
    );
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

/** The diff tab's title: what its two sides are (VS Code's Git says "(Working Tree)" the same way). */
function diffTitle(label: string, kind: ChangedFile['kind']): string {
  if (kind === 'created') return `${label} (created by the agent)`;
  if (kind === 'deleted') return `${label} (deleted by the agent)`;
  return `${label} (before the agent ↔ now)`;
}
