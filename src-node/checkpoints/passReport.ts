/** What a folder's pass left out, for the user: ignored, unreadable, too large or no room to copy. */
import type { FileVersion } from '../../src/shared/changes';
import type { FolderScan } from './scanFolder';

/** What the last pass left out, for the user. */
export interface PassReport {
  readonly ignored: readonly string[];
  readonly unreadable: readonly string[];
  readonly truncated: boolean;
  readonly tooLarge: readonly string[];
  readonly noRoom: readonly string[];
}

/** What the pass left out, and every file it knows without a copy (at most 100 of each). */
export function reportOf(
  scan: FolderScan,
  entries: ReadonlyMap<string, { readonly version: FileVersion }>,
): PassReport {
  return { ignored: scan.ignored, unreadable: scan.unreadable, truncated: scan.truncated, ...missingOf(entries) };
}

export function missingOf(
  entries: ReadonlyMap<string, { readonly version: FileVersion }>,
): Pick<PassReport, 'tooLarge' | 'noRoom'> {
  const tooLarge: string[] = [];
  const noRoom: string[] = [];
  for (const [path, { version }] of entries) {
    if (version.missing === 'too-large') tooLarge.push(path);
    else if (version.missing === 'no-room') noRoom.push(path);
  }
  return { tooLarge: tooLarge.sort().slice(0, 100), noRoom: noRoom.sort().slice(0, 100) };
}

/** Runs `work` on each of `items`, at most `width` at once. */
export async function inParallel<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
