/**
 * A file edit as the rows of a unified diff, with old and new line numbers.
 * Pure (no DOM), so the arithmetic is easy to test and to trust.
 */
import { structuredPatch } from 'diff';
import type { Hunk } from '../../src/shared/thread/fileChanges';
import { MAX_DIFF_CHARS } from '../../src/shared/thread/toolCalls';

export type DiffRow =
  | { kind: 'hunk'; header: string }
  | { kind: 'context'; oldLine: number; newLine: number; text: string }
  | { kind: 'added'; newLine: number; text: string }
  | { kind: 'removed'; oldLine: number; text: string }
  /** jsdiff's "\ No newline at end of file" marker. */
  | { kind: 'note'; text: string };

export type DiffModel =
  | { kind: 'rows'; rows: DiffRow[]; added: number; removed: number; hiddenRows: number }
  /** The edit was too large to diff in the view; only its size is shown. */
  | { kind: 'tooLarge'; oldLines: number; newLines: number };

/** Lines of context around each change, as in `git diff`. */
const CONTEXT_LINES = 3;
/** Rows beyond this are counted, not rendered: a generated file must not freeze the view. */
export const MAX_ROWS = 2_000;
/** jsdiff gives up (returns undefined) past this many edits instead of running for seconds. */
const MAX_EDIT_LENGTH = 2_000;
/** Or after this long: 2,000 edits into 40,000 changed lines still took 0.9 s of the view's main thread. */
const MAX_DIFF_MS = 100;

/** `oldText` null is a new file: every line is added. */
export function diffRows(oldText: string | null, newText: string): DiffModel {
  if (oldText === null) return newFileRows(newText);
  if (oldText.length + newText.length > MAX_DIFF_CHARS) return tooLarge(oldText, newText);
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', {
    context: CONTEXT_LINES,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: MAX_DIFF_MS,
  });
  if (!patch) return tooLarge(oldText, newText);
  return rowsOf(patch.hunks);
}

/** The rows of hunks (jsdiff's, or a change's as the agent gave them, ACP v2), MAX_ROWS at most. */
export function rowsOf(hunks: readonly Hunk[]): DiffModel {
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    rows.push({ kind: 'hunk', header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const text = line.slice(1);
      switch (line[0]) {
        case '+':
          rows.push({ kind: 'added', newLine: newLine++, text });
          added++;
          break;
        case '-':
          rows.push({ kind: 'removed', oldLine: oldLine++, text });
          removed++;
          break;
        case '\\':
          rows.push({ kind: 'note', text: text.trim() });
          break;
        default:
          rows.push({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text });
      }
    }
  }
  return capped(rows, added, removed);
}

function newFileRows(newText: string): DiffModel {
  const lines = splitLines(newText);
  const rows: DiffRow[] = lines.slice(0, MAX_ROWS).map((text, i) => ({ kind: 'added', newLine: i + 1, text }));
  return { kind: 'rows', rows, added: lines.length, removed: 0, hiddenRows: Math.max(0, lines.length - MAX_ROWS) };
}

function capped(rows: DiffRow[], added: number, removed: number): DiffModel {
  return {
    kind: 'rows',
    rows: rows.slice(0, MAX_ROWS),
    added,
    removed,
    hiddenRows: Math.max(0, rows.length - MAX_ROWS),
  };
}

function tooLarge(oldText: string, newText: string): DiffModel {
  return { kind: 'tooLarge', oldLines: splitLines(oldText).length, newLines: splitLines(newText).length };
}

/** A file's lines; a final newline ends the last line rather than starting an empty one. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
