/** The lines each file of a Changes bar added and removed, worked out once per pair of versions. */
import { diffLines } from 'diff';
import type { FileChange, FileVersion } from '../shared/changes';
import type { Checkpoints } from '../platform';

/** Line counts are worked out for text up to this size (each side). */
const MAX_COUNTED_BYTES = 1024 * 1024;

/** A side's text ('' for no file); undefined when it has no copy, is large, or is not text (`failed`: it was not read). */
export async function keptText(
  checkpoints: Checkpoints,
  version: FileVersion | undefined,
  failed: (error: unknown) => void,
): Promise<string | undefined> {
  if (!version) return '';
  if (!version.hash || version.size > MAX_COUNTED_BYTES) return undefined;
  try {
    const bytes = await checkpoints.copy(version.hash);
    return bytes.includes(0) ? undefined : new TextDecoder().decode(bytes);
  } catch (error) {
    failed(error);
    return undefined;
  }
}

export class LineCounts {
  /** `before:after` keys -> [added, removed] lines. */
  private readonly counts = new Map<string, readonly [number, number]>();

  /** `text`: a version's text ('' for no file), undefined when it is not text that was kept. */
  constructor(private readonly text: (version: FileVersion | undefined) => Promise<string | undefined>) {}

  /** [added, removed], when counted. */
  of(change: FileChange): readonly [number, number] | undefined {
    return this.counts.get(key(change));
  }

  /** Counts the lines of each of `changes` not counted yet whose sides are text that was kept. */
  async count(changes: readonly FileChange[]): Promise<void> {
    for (const change of changes) {
      const k = key(change);
      if (this.counts.has(k)) continue;
      const before = await this.text(change.before);
      const after = await this.text(change.after);
      if (before === undefined || after === undefined) continue;
      this.counts.set(k, countLines(before, after));
    }
  }
}

/** Past this many changed lines, or this long, the count gives up: every line of both is counted as changed. */
const MAX_EDIT_LENGTH = 2000;
const MAX_DIFF_MS = 100;

/**
 * [added, removed] lines from `before` to `after`. Bounded: a diff's time grows with the lines times the changes,
 * so an agent that rewrote 8,000 lines held the extension host for 11 s, and a file of 100,000 for hours.
 */
export function countLines(before: string, after: string): readonly [number, number] {
  const parts = diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH, timeout: MAX_DIFF_MS });
  if (!parts) return [lineCount(after), lineCount(before)];
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += part.count ?? 0;
    else if (part.removed) removed += part.count ?? 0;
  }
  return [added, removed];
}

/** Lines as diffLines counts them: a last line without its newline is one. */
function lineCount(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text === '' || text.endsWith('\n') ? lines : lines + 1;
}

function key(change: FileChange): string {
  return `${change.before?.hash ?? '-'}:${change.after?.hash ?? '-'}`;
}
