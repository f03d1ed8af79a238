/** The lines each file of a Changes bar added and removed, worked out once per pair of versions. */
import { diffLines } from 'diff';
import type { FileChange, FileVersion } from '../shared/changes';

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
      let added = 0;
      let removed = 0;
      for (const part of diffLines(before, after)) {
        if (part.added) added += part.count ?? 0;
        else if (part.removed) removed += part.count ?? 0;
      }
      this.counts.set(k, [added, removed]);
    }
  }
}

function key(change: FileChange): string {
  return `${change.before?.hash ?? '-'}:${change.after?.hash ?? '-'}`;
}
