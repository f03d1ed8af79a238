/**
 * A file change as an agent reports what happened to the file (ACP v2's structured change: added, deleted,
 * modified, moved, copied), with its hunks where it gave a patch. It travels on a v1 `diff`
 * item's `_meta` (connection/v2/fileChanges.ts) and is kept on the thread's diff content (toolCalls.ts); the view
 * shows the hunks, or what happened to the file when there are none.
 */

/** `_meta` key of a `diff` content item that is a structured file change. */
export const FILE_CHANGE_KEY = 'vscode-acp/fileChange';

export interface FileChange {
  /** `add`, `delete`, `modify`, `move`, `copy`, or another an agent named (shown as changed). */
  readonly operation: string;
  /** Where a moved or copied file came from. */
  readonly oldPath?: string;
}

/** One hunk of a change: where it starts and how many lines it spans in each version, and its lines (` `, `-`, `+`, `\`). */
export interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: string[];
}

/** The longest operation name and path kept (an agent's own operation names are short). */
export const MAX_OPERATION_CHARS = 40;
const MAX_PATH_CHARS = 4096;
/** The most hunk text kept for one file, as for an edit's texts (toolCalls.ts MAX_DIFF_CHARS). */
export const MAX_HUNK_CHARS = 2_000_000;

/** The change a diff item's `_meta` carries, checked (any agent can send one); undefined for a plain diff. */
export function fileChangeOf(meta: unknown): { change: FileChange; hunks?: Hunk[] } | undefined {
  const carried = (meta as Record<string, unknown> | null | undefined)?.[FILE_CHANGE_KEY];
  if (typeof carried !== 'object' || carried === null) return undefined;
  const { operation, oldPath, hunks } = carried as Record<string, unknown>;
  if (typeof operation !== 'string' || operation === '' || operation.length > MAX_OPERATION_CHARS) return undefined;
  const from = typeof oldPath === 'string' && oldPath !== '' && oldPath.length <= MAX_PATH_CHARS ? { oldPath } : {};
  const kept = hunksOf(hunks);
  return { change: { operation, ...from }, ...(kept ? { hunks: kept } : {}) };
}

const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** Well-formed hunks within MAX_HUNK_CHARS, else none (the change is shown without them). */
function hunksOf(value: unknown): Hunk[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  let chars = 0;
  for (const h of value as Partial<Hunk>[]) {
    if (typeof h !== 'object' || h === null || !Array.isArray(h.lines)) return undefined;
    if (![h.oldStart, h.oldLines, h.newStart, h.newLines].every(count)) return undefined;
    for (const line of h.lines) {
      if (typeof line !== 'string') return undefined;
      chars += line.length + 1;
    }
    if (chars > MAX_HUNK_CHARS) return undefined;
  }
  return value as Hunk[];
}

/** What happened to the file, as the diff's summary says it; '' for an edit (its line counts say it). */
export function fileChangeLabel(change: FileChange): string {
  switch (change.operation) {
    case 'add':
      return 'New file';
    case 'delete':
      return 'Deleted';
    case 'modify':
      return '';
    case 'move':
      return change.oldPath ? `Moved from ${change.oldPath}` : 'Moved';
    case 'copy':
      return change.oldPath ? `Copied from ${change.oldPath}` : 'Copied';
    default:
      return 'Changed';
  }
}
