/**
 * Putting files back (Undo in the Changes bar, "Restore files to here"):
 * each file only while it is still what the agent left and has no unsaved
 * changes in an editor. A restore first shows what it would do (a dry run of
 * the same checks) and asks.
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import { changedBetween, type FileChange, type FileVersion } from '../shared/changes';
import { errorMessage } from '../errorText';

/** One file to put back: from `now` (what the agent left) to `back`. */
export interface PutBack {
  readonly path: string;
  readonly now: FileVersion | undefined;
  readonly back: FileVersion | undefined;
  /** It changed outside the agent's turns between two of the turns put back: that goes too (a restore says so). */
  readonly between?: true;
}

export interface PutBackOutcome {
  readonly done: PutBack[];
  /** Why each file left alone was, as sentences. */
  readonly refused: string[];
  /** The user said no to the preview: nothing was tried. */
  readonly cancelled?: true;
}

/**
 * What "Restore files to here" puts back for `turns` (oldest first): each file they changed, back to before the first
 * of them that changed it.
 */
export function restorePlan(turns: ReadonlyArray<{ readonly files: ReadonlyMap<string, FileChange> }>): PutBack[] {
  const plan = new Map<string, PutBack>();
  for (const turn of turns) {
    for (const change of turn.files.values()) {
      const earlier = plan.get(change.path);
      // The file changed outside the agent's turns between two of them: that goes too, and the preview says so.
      const between = earlier && (earlier.between || changedBetween(earlier.now, change.before));
      plan.set(change.path, {
        path: change.path,
        back: earlier ? earlier.back : change.before,
        now: change.after,
        ...(between ? { between: true } : {}),
      });
    }
  }
  return [...plan.values()];
}

/** Lines a preview lists of each kind before "and N more". */
const PREVIEW_LINES = 15;

export async function putBack(
  checkpoints: Checkpoints,
  files: readonly PutBack[],
  what: 'Undo' | 'Restore',
  preview: boolean,
): Promise<PutBackOutcome> {
  if (preview && !(await confirm(checkpoints, files))) return { done: [], refused: [], cancelled: true };
  const done: PutBack[] = [];
  const refused: string[] = [];
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Window,
      title: `${what}: ${files.length} ${files.length === 1 ? 'file' : 'files'}`,
    },
    async () => {
      for (const file of files) {
        const why = await attempt(checkpoints, file, false);
        if (why === undefined) done.push(file);
        else refused.push(why);
      }
    },
  );
  return { done, refused };
}

/** Undefined when the file is (or would be) back, or already was; else why not. */
async function attempt(checkpoints: Checkpoints, file: PutBack, dryRun: boolean): Promise<string | undefined> {
  const label = checkpoints.label(file.path);
  const missing = file.back?.missing ?? file.now?.missing;
  if (missing) return `${label}: ${noCopyText(missing, 'clause')}`;
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file.path);
  if (open?.isDirty) return `${label} has unsaved changes in the editor: save or revert them first.`;
  try {
    await checkpoints.restore(file.path, file.now?.hash ?? null, file.back?.hash ?? null, dryRun);
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}

/** Why a version has no copy to go back to: what is missing, and why. */
const MISSING: Record<NonNullable<FileVersion['missing']>, readonly [string, string]> = {
  'too-large': ['No copy from before', 'the file is over 5 MiB'],
  'no-room': ['No copy from before', 'the storage for copies is full'],
  unreadable: ['No copy from before', 'the file could not be read safely'],
  unseen: ['Not checkpointed yet', 'it changed before the first look at the folder had read it'],
};

/** Why a file cannot be put back: a sentence of its own (the bar's tooltip), or a clause after the file's name. */
export function noCopyText(missing: NonNullable<FileVersion['missing']>, form: 'sentence' | 'clause'): string {
  const [what, why] = MISSING[missing];
  return form === 'sentence' ? `${what}: ${why}.` : `${what.toLowerCase()} (${why}).`;
}

/** The preview: what would be put back and what would be left alone (and why); true when the user goes ahead. */
async function confirm(checkpoints: Checkpoints, files: readonly PutBack[]): Promise<boolean> {
  const back: string[] = [];
  const left: string[] = [];
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Checking ${files.length} files` },
    async () => {
      for (const file of files) {
        const why = await attempt(checkpoints, file, true);
        if (why !== undefined) left.push(`${checkpoints.label(file.path)}: ${why}`);
        else {
          back.push(
            `${checkpoints.label(file.path)} (${!file.back ? 'removed: the agent created it' : !file.now ? 'comes back: the agent deleted it' : 'as it was'}${file.between ? "; what changed in it between the agent's turns goes too" : ''})`,
          );
        }
      }
    },
  );
  const detail = [
    back.length > 0 ? `Put back as before this prompt:\n${list(back)}` : 'Nothing to put back.',
    left.length > 0 ? `Left as they are (changed since the agent's change, or no copy):\n${list(left)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  if (back.length === 0) {
    await vscode.window.showWarningMessage('No file can be restored to how it was before this prompt.', {
      modal: true,
      detail,
    });
    return false;
  }
  const go = `Restore ${back.length} ${back.length === 1 ? 'File' : 'Files'}`;
  return (
    (await vscode.window.showWarningMessage(
      'Restore files to how they were before this prompt?',
      { modal: true, detail },
      go,
    )) === go
  );
}

/** Undo of files the user changed too (saved while the agent worked, or between turns): true to go ahead with them too. */
export async function confirmMixed(labels: readonly string[]): Promise<boolean> {
  const go = 'Undo Them Too';
  const detail = `${list(labels)}\n\nUndo puts back the version from before the agent's change: what you saved while it worked, or changed between its turns, goes too. Without them, the other files are undone.`;
  return (
    (await vscode.window.showWarningMessage(
      'These files were changed by you too (saved while the agent worked on them, or between its turns).',
      { modal: true, detail },
      go,
    )) === go
  );
}

/** `lines` one to a line, the first PREVIEW_LINES of them, then how many more. */
function list(lines: readonly string[]): string {
  return [
    ...lines.slice(0, PREVIEW_LINES),
    ...(lines.length > PREVIEW_LINES ? [`and ${lines.length - PREVIEW_LINES} more`] : []),
  ].join('\n');
}

export function refusalText(what: 'Undo' | 'Restore', refused: readonly string[]): string {
  const more = refused.length > 5 ? ` (and ${refused.length - 5} more)` : '';
  const files = refused.length === 1 ? 'a file as it is' : `${refused.length} files as they are`;
  return `${what} left ${files}: ${refused.slice(0, 5).join(' ')}${more} Open a file in the Changes bar to compare.`;
}
