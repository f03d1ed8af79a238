/**
 * How an agent's hunk is shown in an editor and named by what is shown: Keep and Undo above it (CodeLens), the
 * lines it replaced on hover, and the hunk found again from a lens or hover clicked after the review was looked at
 * again (another hunk kept or undone meanwhile).
 */
import * as vscode from 'vscode';
import type { ChatChanges } from '../changes/chatChanges';
import type { FileReview } from '../changes/hunkActions';
import { linesOf, type Hunk } from '../changes/hunks';
import { fenceFor } from '../shared/text/codeFence';

/** Lines of the replaced text a hover shows. */
const MAX_HOVER_LINES = 40;

/** A file's review as an editor shows it. */
export interface Shown {
  readonly changes: ChatChanges;
  readonly review: FileReview;
  /** The document version the review is of. */
  readonly version: number;
}

/** What a lens or hover names a hunk by: its file, its name, and where it was (in the list, the file, both versions). */
export interface HunkAt {
  readonly path: string;
  readonly key: string;
  readonly index: number;
  readonly line: number;
  /** Where its lines start in the version before the agent's change, and in the agent's. */
  readonly before: number;
  readonly after: number;
}

function hunkAt(path: string, shown: Shown, index: number): HunkAt {
  const hunk = shown.review.hunks[index]!;
  const { start: line } = placeOf(hunk);
  return { path, key: hunk.key, index, line, before: hunk.before.start, after: hunk.after.start };
}

/** Keep and Undo above each hunk (CodeLens), naming it as a HunkAt. */
export function lensesOf(shown: Shown, document: vscode.TextDocument): vscode.CodeLens[] {
  const path = document.uri.fsPath;
  const hunks = shown.review.hunks;
  const lenses: vscode.CodeLens[] = [];
  hunks.forEach((hunk, index) => {
    const line = Math.min(placeOf(hunk).start, Math.max(0, document.lineCount - 1));
    const range = new vscode.Range(line, 0, line, 0);
    const at = hunkAt(path, shown, index);
    lenses.push(
      new vscode.CodeLens(range, {
        title: '$(check) Keep',
        command: 'vscode-acp.keepChange',
        arguments: [at],
        tooltip: 'Keep this change (Ctrl+Shift+Enter)',
      }),
    );
    lenses.push(
      hunk.now
        ? new vscode.CodeLens(range, {
            title: '$(discard) Undo',
            command: 'vscode-acp.undoChange',
            arguments: [at],
            tooltip: 'Put these lines back as they were (Ctrl+Shift+Backspace)',
          })
        : new vscode.CodeLens(range, {
            title: 'You changed these lines since: no Undo here',
            command: 'vscode-acp.openFileChanges',
            arguments: [path],
            tooltip: "Compare the file with the version before the agent's change",
          }),
    );
  });
  return lenses;
}

/** On a hunk's lines: the lines it replaced, with Keep and Undo. */
export function hoverOf(shown: Shown, document: vscode.TextDocument, line: number): vscode.Hover | undefined {
  const index = shown.review.hunks.findIndex((h) => contains(h, line));
  if (index < 0) return undefined;
  const hunk = shown.review.hunks[index]!;
  const old = linesOf(shown.review.before).slice(hunk.before.start, hunk.before.start + hunk.before.count);
  const text = old
    .slice(0, MAX_HOVER_LINES)
    .join('')
    .replace(/\r?\n$/, '');
  const fence = fenceFor(text);
  const at = hunkAt(document.uri.fsPath, shown, index);
  const args = encodeURIComponent(JSON.stringify([at]));
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['vscode-acp.keepChange', 'vscode-acp.undoChange'] };
  md.appendMarkdown(
    old.length === 0
      ? '**Added by the agent.**\n\n'
      : `**The agent replaced ${old.length === 1 ? 'this line' : `${old.length} lines`}:**\n\n`,
  );
  if (old.length > 0) {
    md.appendMarkdown(
      `${fence}\n${text}\n${fence}\n\n${old.length > MAX_HOVER_LINES ? `…and ${old.length - MAX_HOVER_LINES} more lines\n\n` : ''}`,
    );
  }
  md.appendMarkdown(`[$(check) Keep](command:vscode-acp.keepChange?${args})`);
  if (hunk.now) md.appendMarkdown(` · [$(discard) Undo](command:vscode-acp.undoChange?${args})`);
  return new vscode.Hover(md);
}

/**
 * The hunk a lens or hover named: of those with its name, one that starts where it did in either version (a Keep of
 * another hunk moves only the places in the version before, an Undo only those in the agent's), else the nearest to
 * where it was in the file (then in the list): of two alike changes, the one clicked. Without a name, the hunk at its
 * place in the list.
 */
export function named(shown: Shown, at: Partial<HunkAt>): Hunk | undefined {
  const { hunks } = shown.review;
  const index = typeof at.index === 'number' ? at.index : -1;
  if (typeof at.key !== 'string') return hunks[index];
  const line = typeof at.line === 'number' ? at.line : 0;
  const alike = hunks.flatMap((h, i) => (h.key === at.key ? [i] : []));
  const stayed = alike.filter((i) => hunks[i]!.before.start === at.before || hunks[i]!.after.start === at.after);
  // Lines away first, places in the list next (never more than the list is long).
  const score = (i: number) => Math.abs(placeOf(hunks[i]!).start - line) * (hunks.length + 1) + Math.abs(i - index);
  let best: number | undefined;
  for (const i of stayed.length > 0 ? stayed : alike) if (best === undefined || score(i) < score(best)) best = i;
  return best === undefined ? undefined : hunks[best];
}

/** Where a hunk is shown: its lines now, or where they would be (one the user changed since). */
export function placeOf(hunk: Hunk): { start: number; count: number } {
  return hunk.now ?? hunk.near;
}

/** Whether `line` is in the hunk (a removal: the line below where its lines were, or the one above). */
export function contains(hunk: Hunk, line: number): boolean {
  const { start, count } = placeOf(hunk);
  return count > 0 ? line >= start && line < start + count : line === start || line === start - 1;
}
