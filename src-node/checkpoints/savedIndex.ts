/**
 * A folder's index (each file's stamp and the key of its copy) kept in the
 * extension's storage, so that the first pass after a window reload reads
 * only the files that changed meanwhile, not all of them again. A file is
 * taken from it only when its stamp is unchanged and its copy is still kept;
 * anything unreadable is ignored (the pass then reads everything).
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import type { WorkspaceRoot } from '../workspaceFs/workspaceRoot';
import type { BlobStore } from './blobStore';
import type { FileStamp } from './scanFolder';
import { gitIdOf } from './versionKeys';
import type { FileVersion } from '../../src/shared/changes';

export interface IndexEntry {
  readonly stamp: FileStamp;
  readonly version: {
    readonly size: number;
    readonly hash?: string;
    /** Never `unseen` (that is only said of a change, not of a file a pass read). */
    readonly missing?: FileVersion['missing'];
  };
}

type Row = [
  path: string,
  size: number,
  mtimeNs: string,
  ctimeNs: string,
  ino: string,
  hash: string | null,
  missing: string | null,
];
const MISSING = new Set(['too-large', 'no-room', 'unreadable']);

export function writeIndex(file: string, root: WorkspaceRoot, entries: ReadonlyMap<string, IndexEntry>): void {
  const rows: Row[] = [...entries].map(([path, { stamp, version }]) => [
    path,
    stamp.size,
    String(stamp.mtimeNs),
    String(stamp.ctimeNs),
    String(stamp.ino),
    version.hash ?? null,
    version.missing ?? null,
  ]);
  fs.mkdirSync(nodePath.dirname(file), { recursive: true });
  const partial = `${file}.partial`;
  fs.writeFileSync(
    partial,
    JSON.stringify({ version: 1, root: root.path, dev: String(root.dev), ino: String(root.ino), rows }),
    { mode: 0o600 },
  );
  fs.renameSync(partial, file);
}

/** The saved index of `root`, or an empty one (none, another folder's, damaged). */
export function readIndex(file: string, root: WorkspaceRoot, store: BlobStore): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>();
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      version?: unknown;
      root?: unknown;
      dev?: unknown;
      ino?: unknown;
      rows?: unknown;
    };
    if (
      saved.version !== 1 ||
      saved.root !== root.path ||
      saved.dev !== String(root.dev) ||
      saved.ino !== String(root.ino) ||
      !Array.isArray(saved.rows)
    ) {
      return entries;
    }
    for (const row of saved.rows as unknown[]) {
      const entry = entryOf(row, store);
      if (entry) entries.set(entry[0], entry[1]);
    }
  } catch {
    entries.clear();
  }
  return entries;
}

function entryOf(row: unknown, store: BlobStore): [string, IndexEntry] | undefined {
  if (!Array.isArray(row) || row.length !== 7) return undefined;
  const [path, size, mtime, ctime, ino, hash, missing] = row as unknown[];
  if (
    typeof path !== 'string' ||
    path === '' ||
    path.startsWith('/') ||
    path.split('/').some((n) => n === '' || n === '.' || n === '..')
  ) {
    return undefined;
  }
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return undefined;
  if (![mtime, ctime, ino].every((n) => typeof n === 'string' && /^\d{1,30}$/.test(n))) return undefined;
  // A copy must still be kept; Git's objects are asked for when needed (a restore says when one is gone).
  if (hash !== null && (typeof hash !== 'string' || (!gitIdOf(hash) && !store.has(hash)))) return undefined;
  if (missing !== null && (typeof missing !== 'string' || !MISSING.has(missing))) return undefined;
  if ((hash === null) === (missing === null)) return undefined;
  const stamp: FileStamp = {
    size,
    mtimeNs: BigInt(mtime as string),
    ctimeNs: BigInt(ctime as string),
    ino: BigInt(ino as string),
  };
  return [
    path,
    { stamp, version: hash !== null ? { size, hash } : { size, missing: missing as IndexEntry['version']['missing'] } },
  ];
}
