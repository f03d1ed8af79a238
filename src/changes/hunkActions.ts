/**
 * Keep and Undo of one hunk of a file in a chat's Changes bar (hunks.ts does the lines). Keep makes the hunk part of
 * the baseline: a new `before`, kept as a copy. Undo puts the hunk's lines back in the file: through the descriptor
 * walk (Checkpoints.restore, refused when the file is not what was read) for a file without unsaved changes, as an
 * edit of the editor's text for one with them (saved when the user saves); the agent's version loses the hunk too,
 * so what the user changed elsewhere stays the user's. Refused, with the reason, where the user changed the hunk's
 * lines since.
 */
import * as vscode from 'vscode';
import type { Checkpoints } from '../platform';
import { sameVersion, type FileChange, type FileVersion } from '../shared/changes';
import { hunksOf, keptBefore, linesOf, undoneAfter, undoneAll, undoneNow, type Hunk } from './hunks';

/** A chat's Changes bar as Keep and Undo of a hunk use it (chatChanges.ts is one). */
export interface ChangeBar {
  change(path: string): FileChange | undefined;
  replace(
    path: string,
    before: FileVersion | undefined,
    after: FileVersion | undefined,
    wrote?: FileVersion,
  ): Promise<void>;
  readonly busyFollowing: boolean;
}

/** Texts are reviewed hunk by hunk up to this size (each side); a larger file is kept or undone whole. */
const MAX_REVIEWED_BYTES = 1024 * 1024;

/** Why nothing is put back while a turn is followed (its end would take what Undo wrote for the agent's change). */
export const UNDO_WAITS = 'The agent is still at work: undo its changes once its turn has ended, or Stop it first.';

/** One file of a Changes bar, hunk by hunk, as it is in `document` (or on disk when it has none). */
export interface FileReview {
  readonly path: string;
  readonly change: FileChange;
  readonly before: string;
  readonly after: string;
  readonly now: string;
  /** The text is the editor's, with unsaved changes. */
  readonly unsaved: boolean;
  readonly hunks: readonly Hunk[];
}

/** The review of `path`'s change in `changes`; undefined where it is not reviewed by hunk (not text, too large, deleted). */
export async function reviewOf(
  changes: ChangeBar,
  checkpoints: Checkpoints,
  path: string,
  document: vscode.TextDocument | undefined,
  /** Texts of kept versions already read, by key (a key's bytes never change): not read again at each look. */
  texts?: Map<string, string | undefined>,
): Promise<FileReview | undefined> {
  const change = changes.change(path);
  if (!change?.after) return undefined;
  const before = await textOf(checkpoints, change.before, texts);
  const after = await textOf(checkpoints, change.after, texts);
  const unsaved = document?.isDirty === true;
  const now = unsaved ? document!.getText() : await diskText(path);
  if (before === undefined || after === undefined || now === undefined) return undefined;
  return { path, change, before, after, now, unsaved, hunks: hunksOf(before, after, now) };
}

/** Keep: the hunk is part of the baseline from now on. */
export async function keepHunk(
  changes: ChangeBar,
  checkpoints: Checkpoints,
  review: FileReview,
  hunk: Hunk,
): Promise<void> {
  stillCurrent(changes, review);
  const text = keptBefore(review.before, review.after, hunk);
  const before = text === review.after ? review.change.after : await kept(checkpoints, text);
  await changes.replace(review.path, before, review.change.after);
}

/** Undo: the hunk's lines as they were, in the file (or its editor) and in the agent's version. */
export async function undoHunk(
  changes: ChangeBar,
  checkpoints: Checkpoints,
  review: FileReview,
  hunk: Hunk,
  document: vscode.TextDocument | undefined,
): Promise<void> {
  if (changes.busyFollowing) throw new Error(UNDO_WAITS);
  stillCurrent(changes, review);
  const now = undoneNow(review.before, review.now, hunk);
  if (now === undefined || !hunk.now) {
    throw new Error('You changed these lines since the agent did: Undo leaves them as you have them.');
  }
  // The file as this Undo writes it (not in an editor with unsaved text: saved, that is the user's edit too).
  let wrote: FileVersion | undefined;
  if (review.unsaved) {
    if (!document || document.getText() !== review.now) throw new Error('The file changed meanwhile: try again.');
    const edit = new vscode.WorkspaceEdit();
    const lines = linesOf(review.now);
    const start = new vscode.Position(hunk.now.start, 0);
    const end = positionAfter(lines, hunk.now.start + hunk.now.count);
    const b = linesOf(review.before)
      .slice(hunk.before.start, hunk.before.start + hunk.before.count)
      .join('');
    edit.replace(document.uri, new vscode.Range(start, end), b);
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The editor did not take the change.');
  } else {
    const expected = await kept(checkpoints, review.now);
    wrote = await kept(checkpoints, now);
    await checkpoints.restore(review.path, expected!.hash!, wrote!.hash!);
  }
  const after = undoneAfter(review.before, review.after, hunk);
  await changes.replace(
    review.path,
    review.change.before,
    after === review.before ? review.change.before : await kept(checkpoints, after),
    wrote,
  );
}

/**
 * The baseline of a file whose change (`change`: before to after) was followed by changes outside the agent's turns
 * (to `now`: the user's edits, an agent writing after Stop): `now` with each of the change's hunks still there as the
 * agent left it undone. What changed outside the turns is the baseline's, so the agent's next turn does not take it
 * for its own; a hunk changed outside them is no longer the agent's. Undefined where the texts are not reviewed by
 * hunk (not text, too large, no copy): the caller keeps the change whole and says so.
 */
export async function rebasedBefore(
  checkpoints: Checkpoints,
  change: FileChange,
  now: FileVersion | undefined,
): Promise<{ before: FileVersion | undefined } | undefined> {
  const [before, after, text] = await Promise.all(
    [change.before, change.after, now].map((version) => textOf(checkpoints, version)),
  );
  if (before === undefined || after === undefined || text === undefined) return undefined;
  const rebased = undoneAll(before, after, text);
  if (rebased === text) return { before: now };
  if (rebased === before) return { before: change.before };
  return { before: await kept(checkpoints, rebased) };
}

/** Where line `index` starts, or the end of the text past its last line. */
function positionAfter(lines: readonly string[], index: number): vscode.Position {
  if (index < lines.length) return new vscode.Position(index, 0);
  const last = lines.at(-1) ?? '';
  return last.endsWith('\n')
    ? new vscode.Position(lines.length, 0)
    : new vscode.Position(Math.max(0, lines.length - 1), last.length);
}

/** The review was of the bar's entry as it still is. */
function stillCurrent(changes: ChangeBar, review: FileReview): void {
  const change = changes.change(review.path);
  if (!change || !sameVersion(change.before, review.change.before) || !sameVersion(change.after, review.change.after)) {
    throw new Error('The change was kept or undone meanwhile: try again.');
  }
}

async function kept(checkpoints: Checkpoints, text: string): Promise<FileVersion> {
  const version = await checkpoints.keep(new TextEncoder().encode(text));
  if (!version.hash) {
    throw new Error('No copy could be kept: the storage for copies is full (vscode-acp.checkpoints.maxStorageMB).');
  }
  return version;
}

/** UTF-8 text as it is (a byte order mark kept), or undefined. */
function decoded(bytes: Uint8Array): string | undefined {
  if (bytes.length > MAX_REVIEWED_BYTES || bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

async function textOf(
  checkpoints: Checkpoints,
  version: FileVersion | undefined,
  texts?: Map<string, string | undefined>,
): Promise<string | undefined> {
  if (!version) return '';
  if (!version.hash || version.size > MAX_REVIEWED_BYTES) return undefined;
  if (texts?.has(version.hash)) return texts.get(version.hash);
  let text: string | undefined;
  try {
    text = decoded(await checkpoints.copy(version.hash));
  } catch {
    return undefined; // not kept: a copy that is gone may be read again later (nothing is cached)
  }
  texts?.set(version.hash, text);
  return text;
}

async function diskText(path: string): Promise<string | undefined> {
  try {
    return decoded(await vscode.workspace.fs.readFile(vscode.Uri.file(path)));
  } catch {
    return undefined;
  }
}
