/**
 * ACP v2's structured file change (`{type: "diff", changes: [{operation, path, oldPath?}], patch?: {format:
 * "git_patch", text}}`) as v1 `diff` items, one per file: v1 needs old and new text, which v2 does not send, so
 * each item carries what happened to its file and that file's hunks from the patch in its `_meta`
 * (shared/fileChanges.ts). `changes` is what counts; a patch that does not parse only loses the hunks.
 */
import { parsePatch } from 'diff';
import { FILE_CHANGE_KEY, MAX_HUNK_CHARS, MAX_OPERATION_CHARS, type Hunk } from '../../shared/thread/fileChanges';
import { defined, isRecord } from './handshake';

type Json = Record<string, unknown>;

/** Files one change item lists that are kept (a change of thousands of files shows its first ones). */
const MAX_FILES = 100;

export function diffItems(item: Json): Json[] {
  const changes = Array.isArray(item.changes) ? item.changes.filter(isRecord).slice(0, MAX_FILES) : [];
  const files = patchFiles(item.patch);
  return changes
    .filter((c): c is Json & { path: string } => typeof c.path === 'string' && c.path !== '')
    .map((c) => {
      // An operation not named, or not as one names it, is still a change of the file (shown as changed).
      const named = typeof c.operation === 'string' && c.operation !== '' && c.operation.length <= MAX_OPERATION_CHARS;
      const operation = named ? (c.operation as string) : 'other';
      const hunks = hunksOf(files, c.path) ?? (typeof c.oldPath === 'string' ? hunksOf(files, c.oldPath) : undefined);
      const change = defined({ operation, oldPath: typeof c.oldPath === 'string' ? c.oldPath : undefined, hunks });
      return {
        type: 'diff',
        path: c.path,
        oldText: operation === 'add' ? null : '',
        newText: '',
        _meta: { [FILE_CHANGE_KEY]: change },
      };
    });
}

/** The hunks of `path`: named so in the patch, or relative to it (`a/src/f.ts` for `/work/src/f.ts`). */
function hunksOf(files: Map<string, Hunk[]>, path: string): Hunk[] | undefined {
  const named = files.get(path);
  if (named !== undefined) return named;
  for (const [name, hunks] of files) if (!name.startsWith('/') && path.endsWith(`/${name}`)) return hunks;
  return undefined;
}

/** Each file's hunks, by path (old and new): none for a patch too long or not a patch. */
function patchFiles(patch: unknown): Map<string, Hunk[]> {
  const files = new Map<string, Hunk[]>();
  if (!isRecord(patch) || typeof patch.text !== 'string' || patch.text.length > MAX_HUNK_CHARS) return files;
  let parsed: ReturnType<typeof parsePatch>;
  try {
    parsed = parsePatch(patch.text);
  } catch {
    return files;
  }
  for (const file of parsed) {
    if (file.hunks.length === 0) continue;
    const hunks = file.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
      oldStart,
      oldLines,
      newStart,
      newLines,
      lines,
    }));
    for (const name of [file.newFileName, file.oldFileName]) {
      const path = name?.replace(/^[ab]\//, '');
      if (path && path !== '/dev/null' && !files.has(path)) files.set(path, hunks);
    }
  }
  return files;
}
