/**
 * One pass over a workspace folder: every regular file that is not ignored,
 * with the stamp (size, times, inode) that says whether it changed since the
 * last pass. Only stamps: contents are read later, through the descriptor
 * walk, and only for what changed.
 *
 * Why a full pass and not a file watcher: VS Code's watcher is late, batches,
 * drops events past its limit and cannot say whether an edit landed before
 * or after a prompt was sent. A missed edit here would make Undo put back
 * bytes older than the user's own. A pass sees every file as it is.
 *
 * The pass uses the synchronous calls (three to five times quicker than one
 * promise per file on a 20,000-file folder) and gives the event loop back
 * every few milliseconds, so the extension host stays responsive.
 *
 * Symbolic links are never followed: a link is not a file here. A folder
 * swapped for a link during the pass could make `readdirSync` list what is
 * behind it; those names are only stamps, and their contents are read
 * through the descriptor walk, which refuses any link on the way.
 */
import * as fs from 'node:fs';
import { IgnoreRules } from './ignoreRules';
import { RESTORE_PREFIX } from './fileVersions';

/** What says a file changed: any difference means "read it again". */
export interface FileStamp {
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly ino: bigint;
}

export interface ScanLimits {
  /** At most this many files; the pass stops there and says so. */
  readonly maxFiles: number;
  /** Folder names left out wherever they are (outside Git: `node_modules` and the like), as if ignored. */
  readonly exclude?: ReadonlySet<string>;
  /** Tests only: called for each folder before it is listed. */
  readonly onFolder?: (relative: string) => void;
}

export interface FolderScan {
  /** Path relative to the folder ('/'-separated) -> stamp. */
  readonly files: Map<string, FileStamp>;
  /** What was left out because Git ignores it (the topmost ignored names only, at most 100), relative paths, folders ending in '/'. */
  readonly ignored: readonly string[];
  /** Names that could not be checkpointed as such: not valid UTF-8, or a folder that could not be listed. */
  readonly unreadable: readonly string[];
  /** The pass stopped at `maxFiles`. */
  readonly truncated: boolean;
}

const MAX_LISTED = 100;
/** A `.gitignore` larger than this is not read (its folder is then checkpointed in full). */
const MAX_GITIGNORE_BYTES = 1024 * 1024;
/** How long the pass runs before it lets other work in. */
const SLICE_MS = 8;

export async function scanFolder(root: string, limits: ScanLimits): Promise<FolderScan> {
  const files = new Map<string, FileStamp>();
  const ignored: string[] = [];
  const unreadable: string[] = [];
  let truncated = false;
  let sliceStart = performance.now();
  const pending: Array<{ relative: string; rules: IgnoreRules }> = [{ relative: '', rules: IgnoreRules.none }];
  while (pending.length > 0 && !truncated) {
    const { relative, rules: parentRules } = pending.pop()!;
    limits.onFolder?.(relative);
    const absolute = relative === '' ? root : `${root}/${relative.slice(0, -1)}`;
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(absolute, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      note(unreadable, relative === '' ? '.' : relative);
      continue;
    }
    const rules = withGitignore(parentRules, absolute, relative, entries);
    for (const entry of entries) {
      const name = entry.name.toString('utf8');
      if (!Buffer.from(name, 'utf8').equals(entry.name)) {
        note(unreadable, relative + name);
        continue;
      }
      const path = relative + name;
      // A restore's new bytes, a moment before they replace the file beside them.
      if (name.startsWith(RESTORE_PREFIX)) continue;
      const folder = entry.isDirectory();
      if (!folder && !entry.isFile()) continue; // links, sockets, FIFOs, devices: not files to keep
      if (rules.ignores(path, folder) || (folder && limits.exclude?.has(name))) {
        note(ignored, folder ? `${path}/` : path);
        continue;
      }
      if (folder) {
        pending.push({ relative: `${path}/`, rules });
        continue;
      }
      const stamp = stampOf(`${absolute}/${name}`);
      if (!stamp) continue; // gone since the listing, or no longer a file
      if (files.size >= limits.maxFiles) {
        truncated = true;
        break;
      }
      files.set(path, stamp);
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    }
  }
  return { files, ignored, unreadable, truncated };
}

function withGitignore(
  rules: IgnoreRules,
  absolute: string,
  relative: string,
  entries: readonly fs.Dirent<Buffer>[],
): IgnoreRules {
  if (!entries.some((e) => e.isFile() && e.name.toString('latin1') === '.gitignore')) return rules;
  return rulesOfFolder(rules, absolute, relative);
}

/** `rules` with the `.gitignore` of the folder `absolute` (`relative` to the root: '' or ending in '/'), if it has one. */
export function rulesOfFolder(rules: IgnoreRules, absolute: string, relative: string): IgnoreRules {
  try {
    const path = `${absolute}/.gitignore`;
    const stat = fs.lstatSync(path);
    if (!stat.isFile() || stat.size > MAX_GITIGNORE_BYTES) return rules;
    return rules.withFile(relative, fs.readFileSync(path, 'utf8'));
  } catch {
    return rules;
  }
}

/**
 * Whether a pass would list `path` (relative to `root`, '/'-separated): a name it takes, in folders (not links) that
 * no `.gitignore` above leaves out, and not ignored itself. `rulesOf` caches each folder's rules for a batch.
 */
export function passWouldList(root: string, path: string, rulesOf: Map<string, IgnoreRules | null>): boolean {
  const names = path.split('/');
  const name = names.at(-1)!;
  // A name Git gave that is not UTF-8 came through as U+FFFD: not one the pass takes.
  if (
    names.some((n) => n === '' || n === '.' || n === '..' || n.includes('\uFFFD')) ||
    name.startsWith(RESTORE_PREFIX)
  ) {
    return false;
  }
  let rules: IgnoreRules = IgnoreRules.none;
  let relative = '';
  for (let i = 0; i < names.length; i++) {
    const known = rulesOf.get(relative);
    if (known === null) return false;
    if (known) rules = known;
    else {
      const absolute = relative === '' ? root : `${root}/${relative.slice(0, -1)}`;
      const isFolder = relative === '' || lstatOf(absolute)?.isDirectory() === true;
      const ok = isFolder && (relative === '' || !rules.ignores(relative.slice(0, -1), true));
      rules = ok ? rulesOfFolder(rules, absolute, relative) : rules;
      rulesOf.set(relative, ok ? rules : null);
      if (!ok) return false;
    }
    if (i < names.length - 1) relative += `${names[i]}/`;
  }
  return !rules.ignores(path, false);
}

function lstatOf(path: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The file's stamp, or undefined when it is gone or is no longer a regular file. */
export function stampOf(path: string): FileStamp | undefined {
  try {
    const s = fs.lstatSync(path, { bigint: true });
    if (!s.isFile()) return undefined;
    return { size: Number(s.size), mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs, ino: s.ino };
  } catch {
    return undefined;
  }
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

function note(list: string[], path: string): void {
  if (list.length < MAX_LISTED) list.push(path);
}
