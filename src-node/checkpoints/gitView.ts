/**
 * What Git knows of a workspace folder's files, from the user's `git` (docs/design/checkpoints-git.md): each
 * tracked file's blob id, which tracked files differ from the index, the untracked files it does not ignore, and
 * which files it converts (their bytes are then not the blob's). Read only, and nothing of the repository's own
 * runs: every `git` is started through gitProcess.ts, which says how. Undefined whenever Git cannot say (no
 * repository, `git` missing or failing, output not as expected): the caller scans as before.
 *
 * Why the program and not a library: it reads every index version (split, sparse), SHA-256 repositories and partial
 * clones, is present wherever a repository is worked on, and adds nothing to the bundle.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { FolderGit, GIT_TIMEOUT_MS, MAX_GIT_OUTPUT_BYTES } from './gitProcess';
import { sameStamp, stampOf, type FileStamp } from './scanFolder';

export type ObjectFormat = 'sha1' | 'sha256';

export interface GitView {
  /** Tracked regular files in the worktree (not links, submodules or skip-worktree entries), by path: blob id. */
  readonly tracked: ReadonlyMap<string, string>;
  /** Tracked files whose content differs from the index's (modified, or deleted). */
  readonly dirty: ReadonlySet<string>;
  /** Files in the folder that Git neither tracks nor ignores. */
  readonly untracked: ReadonlySet<string>;
  /** Tracked files Git converts (line endings, filters, ident, encodings): their bytes may not be the blob's. */
  readonly converted: ReadonlySet<string>;
  /** Index entries whose changes `git diff-files` does not report: assume-unchanged, skip-worktree. */
  readonly hidden: ReadonlySet<string>;
  /** A submodule or a repository inside the folder: files whose changes this repository's Git does not see. */
  readonly nested: boolean;
  /** The index file (absolute), and its stamp before Git read it: when the stamp is the same, so is every entry. */
  readonly index: string;
  readonly indexStamp: FileStamp;
  readonly objectFormat: ObjectFormat;
}

/** What differs from the index now: cheap to ask (the index's stat cache), so asked at every pass of a repository. */
export interface GitChanges {
  readonly dirty: ReadonlySet<string>;
  readonly untracked: ReadonlySet<string>;
  /** An untracked repository inside the folder (listed as a folder). */
  readonly nested: boolean;
}

/** Attributes under which Git's worktree bytes are not the blob's. */
const CONVERTING_ATTRIBUTES = ['text', 'eol', 'filter', 'ident', 'working-tree-encoding'];
/** Modes of regular files in the index (links are 120000, submodules 160000). */
const FILE_MODES = new Set(['100644', '100755']);

/** NUL-separated fields, the last one empty (every field ends with a NUL). */
function fields(output: Buffer): string[] {
  const all = output.toString('utf8').split('\0');
  if (all.at(-1) === '') all.pop();
  return all;
}

/** What Git knows of `folder` (a canonical absolute path), or undefined when it cannot say. */
export async function readGitView(program: string, folder: string): Promise<GitView | undefined> {
  const git = await FolderGit.open(program, folder);
  const head = await git?.run('rev-parse', ['--is-inside-work-tree', '--show-object-format', '--git-path', 'index']);
  const [inside, format, index] = head?.toString('utf8').split('\n') ?? [];
  if (inside !== 'true' || (format !== 'sha1' && format !== 'sha256') || !index) return undefined;
  const indexPath = nodePath.resolve(folder, index);
  const indexStamp = stampOf(indexPath);
  if (!git || !indexStamp) return undefined;
  const [staged, changes, autocrlf] = await Promise.all([
    git.run('ls-files', ['--stage', '-v', '-z']),
    changesOf(git),
    git.run('config', ['--get', 'core.autocrlf']),
  ]);
  // The index written while Git was read (the user staged a file): its ids and "unchanged" may not agree.
  const indexAfter = stampOf(indexPath);
  if (!staged || !changes || !indexAfter || !sameStamp(indexAfter, indexStamp)) return undefined;
  const tracked = new Map<string, string>();
  const hidden = new Set<string>();
  let nested = changes.nested;
  const idLength = format === 'sha1' ? 40 : 64;
  for (const line of fields(staged)) {
    // "<tag> <mode> <id> <stage>\t<path>"; tag H: in the worktree, S: skip-worktree (sparse), lower case:
    // assume-unchanged, others: unmerged etc.
    const tab = line.indexOf('\t');
    const [tag, mode, id, stage] = line.slice(0, tab).split(' ');
    if (tab < 0 || id?.length !== idLength || !/^[0-9a-f]+$/.test(id)) return undefined;
    const path = line.slice(tab + 1);
    if (mode === '160000') nested = true;
    if (tag === 'H' && stage === '0' && FILE_MODES.has(mode ?? '')) tracked.set(path, id);
    else if (tag !== 'H') hidden.add(path);
  }
  // Unset: Git's exit 1 (undefined here). Set: anything Git reads as true ("yes", "on", "1", no value at all) or
  // "input" converts every text file; only a false value ("false", "no", "off", "0") does not.
  const crlf = autocrlf?.toString('utf8').trim();
  const converted =
    crlf !== undefined && !/^(false|no|off|0)$/i.test(crlf)
      ? new Set(tracked.keys())
      : await convertedFiles(git, tracked);
  if (!converted) return undefined;
  return {
    tracked,
    dirty: changes.dirty,
    untracked: changes.untracked,
    converted,
    hidden,
    nested,
    index: indexPath,
    indexStamp,
    objectFormat: format,
  };
}

/**
 * The tracked files that differ from the index (modified, deleted, or only touched since Git last looked) and the
 * untracked files that `.gitignore` files do not ignore (those alone, as the checkpoints' own pass reads them: not
 * `info/exclude` nor the user's global excludes), or undefined when Git cannot say.
 */
export async function readGitChanges(program: string, folder: string): Promise<GitChanges | undefined> {
  const git = await FolderGit.open(program, folder);
  return git && changesOf(git);
}

async function changesOf(git: FolderGit): Promise<GitChanges | undefined> {
  const [changed, others] = await Promise.all([
    git.run('diff-files', ['--relative', '--name-only', '-z']),
    git.run('ls-files', ['--others', '--exclude-per-directory=.gitignore', '-z']),
  ]);
  if (!changed || !others) return undefined;
  const untracked = new Set(fields(others));
  return {
    dirty: new Set(fields(changed)),
    untracked,
    nested: [...untracked].some((p) => p.endsWith('/')),
  };
}

/**
 * The tracked files with a converting attribute, from every place Git reads attributes (each folder's
 * `.gitattributes` up to the repository's top, `info/attributes`, the user's and the system's files): one
 * `git check-attr` over them all (some 20 ms for 20,000 files).
 */
async function convertedFiles(git: FolderGit, tracked: ReadonlyMap<string, string>): Promise<Set<string> | undefined> {
  const output = await git.run(
    'check-attr',
    ['-z', '--stdin', ...CONVERTING_ATTRIBUTES],
    [...tracked.keys()].map((p) => `${p}\0`).join(''),
  );
  if (!output) return undefined;
  const converted = new Set<string>();
  const out = fields(output);
  for (let i = 0; i + 2 < out.length; i += 3) {
    const [path, , value] = [out[i], out[i + 1], out[i + 2]];
    if (path !== undefined && value !== undefined && value !== 'unspecified' && value !== 'unset') converted.add(path);
  }
  return converted;
}

/** The blob id Git gives `bytes` (`git hash-object --no-filters`). */
export function blobId(bytes: Uint8Array, format: ObjectFormat): string {
  return createHash(format === 'sha1' ? 'sha1' : 'sha256')
    .update(`blob ${bytes.length}\0`)
    .update(bytes)
    .digest('hex');
}

/**
 * The bytes of blobs `ids` from `folder`'s repository (one `git cat-file --batch`), each checked against its id;
 * an id Git does not have, or whose bytes are not that id's, is left out.
 */
export async function readBlobs(
  program: string,
  folder: string,
  ids: readonly string[],
  format: ObjectFormat,
): Promise<Map<string, Buffer>> {
  const git = await FolderGit.open(program, folder);
  return git ? catBlobs(git, ids, format) : new Map();
}

async function catBlobs(git: FolderGit, ids: readonly string[], format: ObjectFormat): Promise<Map<string, Buffer>> {
  const answers = await catBatch(git, ids);
  const found = new Map<string, Buffer>();
  ids.forEach((id, i) => {
    const bytes = answers[i];
    if (bytes && blobId(bytes, format) === id) found.set(id, bytes);
  });
  return found;
}

/**
 * The blobs `names` name (object ids, or `<commit>:<path>`), in one `git cat-file --batch`, by position: undefined
 * for one that is missing or not a blob (and for all, when Git fails). A name may not hold a line break.
 */
export function catBatch(git: FolderGit, names: readonly string[]): Promise<Array<Buffer | undefined>> {
  return new Promise((resolve) => {
    const child = git.spawn('cat-file', ['--batch']);
    const timer = setTimeout(() => child.kill('SIGKILL'), GIT_TIMEOUT_MS);
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_GIT_OUTPUT_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', () => undefined);
    child.stdin.on('error', () => undefined);
    child.on('close', () => {
      clearTimeout(timer);
      const out = Buffer.concat(chunks);
      const answers: Array<Buffer | undefined> = [];
      // One answer per name, in order: "<id> <type> <size>\n<bytes>\n", or "<name> missing\n" (the name may hold spaces).
      for (let at = 0; at < out.length && answers.length < names.length;) {
        const end = out.indexOf(0x0a, at);
        if (end < 0) break;
        const header = out.subarray(at, end).toString('latin1');
        at = end + 1;
        const [, type, length] = /^[0-9a-f]+ (\S+) (\d+)$/.exec(header) ?? [];
        if (type === undefined || length === undefined) {
          answers.push(undefined);
          continue;
        }
        const n = Number(length);
        if (!Number.isSafeInteger(n) || at + n > out.length) break;
        answers.push(type === 'blob' ? Buffer.from(out.subarray(at, at + n)) : undefined);
        at += n + 1;
      }
      resolve(names.map((_, i) => answers[i]));
    });
    child.stdin.end(names.map((name) => `${name}\n`).join(''));
  });
}

/**
 * Whether `folder` is in a Git work tree: a `.git` in it or a folder above. In one, what is left out is what its
 * `.gitignore` files say (a tracked `dist` is the user's); outside, build and dependency folders are left out too.
 */
export function inGitWorkTree(folder: string): boolean {
  for (let dir = folder; ; dir = nodePath.dirname(dir)) {
    if (fs.existsSync(nodePath.join(dir, '.git'))) return true;
    if (nodePath.dirname(dir) === dir) return false;
  }
}

/** The blob id of `path` when Git says the file is as its index has it, byte for byte (no conversion). */
export function cleanInGit(view: GitView, path: string): string | undefined {
  if (view.dirty.has(path) || view.converted.has(path)) return undefined;
  return view.tracked.get(path);
}
