/**
 * What one workspace folder holds, file by file, with a copy of each file's
 * bytes (BlobStore), brought up to date by a pass (`refresh`). What a pass
 * finds changed goes into a numbered log: a turn notes the number before
 * its prompt and after its end, and what changed in between is the turn's.
 * Passes run one at a time; several chats' turns share the folder's log.
 * Its changes name files by their path relative to the folder.
 */
import { sameVersion, type FileChange, type FileVersion } from '../../src/shared/changes';
import { isWorkspaceFsError } from '../workspaceFs/errors';
import type { WorkspaceRoot } from '../workspaceFs/workspaceRoot';
import { hashOf, type BlobStore } from './blobStore';
import { readNow } from './fileVersions';
import { readIndex, writeIndex } from './savedIndex';
import { passWouldList, sameStamp, scanFolder, stampOf, type FileStamp } from './scanFolder';
import { blobId, cleanInGit, inGitWorkTree, readGitView, type GitView } from './gitView';
import { inParallel, missingOf, reportOf, type PassReport } from './passReport';
import { GitWatch } from './gitWatch';
import type { IgnoreRules } from './ignoreRules';
import { gitIdOf, gitKey } from './versionKeys';

export interface FolderLimits {
  readonly maxFiles: number;
  /** Files over this many bytes are listed, never copied. */
  readonly maxFileBytes: number;
  /** Folder names left out of a folder that is not in a Git work tree (read at each pass; a setting). */
  readonly exclude?: () => readonly string[];
}

interface Entry {
  readonly stamp: FileStamp;
  readonly version: FileVersion;
  /** The key of the file's bytes in the Git index, when Git last said (its bytes back to those are that version). */
  readonly indexed?: string;
}

/** Reads at once in one pass: enough to keep the disk busy, few enough to stay light. */
const PARALLEL_READS = 8;
/** Files to read from which asking Git (tens of milliseconds) is worth it: each it vouches for is not read. */
const GIT_WORTH = 500;
/** In a repository Git watches, one pass in this many still looks at every file (what Git cannot see). */
const FULL_PASS_EVERY = 10;
/** How long a prompt waits for a window's first pass (or for its scan, when that takes longer): the goal, 100 ms. */
const FIRST_PASS_WAIT_MS = 80;
/** How long after a pass Git watched its index is saved (the next window's first pass starts from it). */
const SAVE_AFTER_MS = 3000;

export class FolderState {
  private readonly entries = new Map<string, Entry>();
  private readonly log: Array<{ readonly seq: number; readonly change: FileChange }> = [];
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private report: PassReport = { ignored: [], unreadable: [], truncated: false, tooLarge: [], noRoom: [] };
  /** Git's watch of the folder since the last full pass, how many passes it has served, whether the last one had one. */
  private watch?: GitWatch;
  private watchedPasses = 0;
  private watched = false;
  /**
   * The window's first pass, until it is done: its scan done, and whether a prompt's mark was taken before it read
   * every file (from then on, a file it reads that changed since the scan has no known version from before).
   */
  private first: FirstPass | undefined = firstPass();
  private saveTimer: NodeJS.Timeout | undefined;

  /**
   * `indexFile`: where the folder's index is kept between windows (none:
   * only in memory). Read at the first pass, written after each pass that
   * changed something.
   */
  constructor(
    readonly root: WorkspaceRoot,
    private readonly store: BlobStore,
    private readonly limits: FolderLimits,
    private readonly indexFile?: string,
    /** The user's `git`, where there is one: a file as its repository's index has it needs no copy (gitView.ts). */
    private readonly git?: () => Promise<string | undefined>,
  ) {}

  /** What the last pass left out. */
  get lastPass(): PassReport {
    return this.report;
  }

  /**
   * A pass over the folder, after any pass already running. Resolves with
   * the log's number after it: changes found by this pass are numbered up
   * to it. The first pass only learns the folder (it logs nothing).
   * `soon`: a prompt waits for it, so a window's first pass still reading
   * files is waited for only FIRST_PASS_WAIT_MS (or until its scan is done,
   * if later); the number then is where it stands, and a file the first pass
   * reads after that and finds changed since its scan is logged as changed
   * from a version not known (`missing: 'unseen'`).
   */
  refresh(soon = false): Promise<number> {
    const run = this.queue.then(() => this.nextPass());
    this.queue = run.catch(() => undefined);
    const first = this.first;
    if (!soon || !first) return run;
    const deadline = Date.now() + FIRST_PASS_WAIT_MS;
    const early = first.scanned
      .then(() => new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))))
      .then(() => {
        if (this.first !== first) return run;
        first.marked = true;
        return this.seq;
      });
    return Promise.race([run, early]);
  }

  /** The window's first pass is still reading files, and a prompt's mark did not wait for it. */
  get unseen(): boolean {
    return this.first?.marked === true;
  }

  /** Each file changed by the passes numbered after `from` up to `to`, from its first `before` to its last `after`; unchanged round trips left out. */
  changesBetween(from: number, to: number): FileChange[] {
    const merged = new Map<string, FileChange>();
    for (const { seq, change } of this.log) {
      if (seq <= from || seq > to) continue;
      const earlier = merged.get(change.path);
      merged.set(change.path, earlier ? { path: change.path, before: earlier.before, after: change.after } : change);
    }
    return [...merged.values()].filter((c) => !sameVersion(c.before, c.after));
  }

  /** Drops the log up to `seq` (no turn will ask for it again). */
  forgetUpTo(seq: number): void {
    while (this.log.length > 0 && this.log[0].seq <= seq) this.log.shift();
  }

  /** The copies this folder still needs: what its files hold now and what its log holds. */
  references(into: Set<string>): void {
    for (const { version } of this.entries.values()) if (version.hash) into.add(version.hash);
    for (const { change } of this.log) {
      if (change.before?.hash) into.add(change.before.hash);
      if (change.after?.hash) into.add(change.after.hash);
    }
  }

  /** The version of `path` as the last pass saw it (undefined: no such file). */
  versionOf(path: string): FileVersion | undefined {
    return this.entries.get(path)?.version;
  }

  /** The next pass: the window's first (it learns the folder: `first` says how far it is) or a later one. */
  private async nextPass(): Promise<number> {
    const first = this.first;
    if (!first) return this.pass();
    try {
      return await this.pass(first);
    } finally {
      first.done();
      // One that failed is tried again by the next pass.
      this.first = this.seq > 0 ? undefined : firstPass();
    }
  }

  /** A pass; `first` for the window's first. */
  private async pass(first?: FirstPass): Promise<number> {
    const logging = first === undefined;
    // The first pass of a window starts from the index an earlier window kept: only what changed since is read.
    if (!logging && this.indexFile) {
      for (const [path, entry] of readIndex(this.indexFile, this.root, this.store)) this.entries.set(path, entry);
    }
    // In a repository, Git says what may have changed; every FULL_PASS_EVERY-th pass still looks at every file.
    if (this.watch && ++this.watchedPasses < FULL_PASS_EVERY) {
      const git = await this.git?.();
      const look = git ? await this.watch.next(git, this.root.path) : undefined;
      const seq = look && (await this.passOver(look.paths, look.view));
      if (seq !== undefined) return seq;
    }
    this.watch = undefined;
    this.watchedPasses = 0;
    const exclude = this.limits.exclude && !inGitWorkTree(this.root.path) ? new Set(this.limits.exclude()) : undefined;
    const scan = await scanFolder(this.root.path, { maxFiles: this.limits.maxFiles, exclude });
    first?.done();
    const seq = this.seq + 1;
    const changed = [...scan.files].filter(([path, stamp]) => {
      const known = this.entries.get(path);
      return !known || !sameStamp(known.stamp, stamp);
    });
    // Git is asked (after the scan: a file changed in between is one it finds changed) only where it saves work:
    // the folder's first pass, or many files to read. A few are read; one back to its Git version keeps its key.
    const worth = !logging || changed.length >= GIT_WORTH || this.watched;
    const git = worth ? await this.git?.() : undefined;
    const view = git ? await readGitView(git, this.root.path) : undefined;
    this.watch = view && !scan.truncated ? GitWatch.from(view) : undefined;
    this.watched = this.watch !== undefined;
    const gone = new Set<string>();
    await inParallel(changed, PARALLEL_READS, async ([path, stamp]) => {
      const clean = view && cleanInGit(view, path);
      // A prompt's mark was taken before this read: a file changed since the scan may be its turn's change.
      const unseen = first?.marked ? { size: stamp.size, missing: 'unseen' as const } : undefined;
      const entry = clean
        ? { stamp, version: { size: stamp.size, hash: gitKey(clean) }, indexed: gitKey(clean) }
        : await this.read(path, stamp, view);
      if (!entry) {
        gone.add(path); // removed between the listing and the read
        if (unseen) this.log.push({ seq, change: { path, before: unseen } });
        return;
      }
      const before = this.entries.get(path)?.version;
      this.entries.set(path, entry);
      if (logging && !sameVersion(before, entry.version)) {
        this.log.push({ seq, change: { path, before, after: entry.version } });
      } else if (unseen && !sameStamp(stamp, entry.stamp)) {
        this.log.push({ seq, change: { path, before: unseen, after: entry.version } });
      }
    });
    for (const [path, { version }] of this.entries) {
      // Past the file limit a file is not gone, only not looked at.
      if (!gone.has(path) && (scan.files.has(path) || scan.truncated)) continue;
      this.entries.delete(path);
      // One that is still there is left out now (a .gitignore, the setting): not looked at, not deleted.
      const deleted = gone.has(path) || !stampOf(`${this.root.path}/${path}`);
      if (logging && deleted) this.log.push({ seq, change: { path, before: version } });
    }
    this.report = reportOf(scan, this.entries);
    if (this.indexFile && (changed.length > 0 || gone.size > 0 || !logging || this.log.some((l) => l.seq === seq))) {
      this.saveIndex();
    }
    this.seq = seq;
    return seq;
  }

  /**
   * A pass over `paths` only (what Git says may have changed, gitWatch.ts), for a folder whose every other file is
   * as the last pass found it; undefined when a full pass is needed instead (a `.gitignore` changed: what is left
   * out may have; or more files than a pass takes).
   */
  private async passOver(paths: ReadonlySet<string>, view: GitView): Promise<number | undefined> {
    if (paths.size > this.limits.maxFiles) return undefined;
    const rules = new Map<string, IgnoreRules | null>();
    const look: Array<[string, FileStamp | undefined]> = [];
    for (const path of paths) {
      const known = this.entries.get(path);
      if (!known && !passWouldList(this.root.path, path, rules)) continue;
      const stamp = stampOf(`${this.root.path}/${path}`);
      if (known && stamp && sameStamp(known.stamp, stamp)) continue;
      if (path === '.gitignore' || path.endsWith('/.gitignore')) return undefined;
      look.push([path, stamp]);
    }
    if (this.entries.size + look.length > this.limits.maxFiles) return undefined;
    const seq = this.seq + 1;
    await inParallel(look, PARALLEL_READS, async ([path, stamp]) => {
      const entry = stamp && (await this.read(path, stamp, view));
      const before = this.entries.get(path)?.version;
      if (entry) this.entries.set(path, entry);
      else this.entries.delete(path);
      if (!sameVersion(before, entry?.version)) this.log.push({ seq, change: { path, before, after: entry?.version } });
    });
    if (look.length > 0) {
      this.report = { ...this.report, ...missingOf(this.entries) };
      this.saveSoon();
    }
    this.seq = seq;
    return seq;
  }

  /**
   * Saves the index a little later: not while a prompt waits for the pass (20,000 files: 30 ms). A window closed
   * before then leaves the index of an earlier pass: the next window's first pass reads what changed since it.
   */
  private saveSoon(): void {
    if (this.saveTimer || !this.indexFile) return;
    this.saveTimer = setTimeout(() => this.saveIndex(), SAVE_AFTER_MS);
    this.saveTimer.unref();
  }

  private saveIndex(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    try {
      writeIndex(this.indexFile!, this.root, this.entries);
    } catch {
      // Only the next window's first pass is slower.
    }
  }

  /** Reads the file through the descriptor walk and keeps a copy, unless its bytes are its Git index entry's. */
  private async read(path: string, stamp: FileStamp, view: GitView | undefined): Promise<Entry | undefined> {
    if (stamp.size > this.limits.maxFileBytes) return { stamp, version: { size: stamp.size, missing: 'too-large' } };
    try {
      const now = await readNow(this.root, path.split('/'), this.limits.maxFileBytes);
      if (!now) return undefined;
      const read: FileStamp = {
        size: Number(now.stat.size),
        mtimeNs: now.stat.mtimeNs,
        ctimeNs: now.stat.ctimeNs,
        ino: now.stat.ino,
      };
      const id = view && !view.converted.has(path) ? view.tracked.get(path) : undefined;
      const indexed = id ? gitKey(id) : view ? undefined : this.entries.get(path)?.indexed;
      const git = indexed ? gitIdOf(indexed) : undefined;
      if (git && blobId(now.bytes, git.format) === git.id) {
        return { stamp: read, version: { size: now.bytes.length, hash: indexed }, indexed };
      }
      const hash = this.store.put(now.bytes, hashOf(now.bytes));
      return {
        stamp: read,
        version: hash ? { size: now.bytes.length, hash } : { size: now.bytes.length, missing: 'no-room' },
        ...(indexed ? { indexed } : {}),
      };
    } catch (e) {
      if (isWorkspaceFsError(e, 'too-large')) return { stamp, version: { size: stamp.size, missing: 'too-large' } };
      return { stamp, version: { size: stamp.size, missing: 'unreadable' } };
    }
  }
}

interface FirstPass {
  /** Its scan is done (what is on disk is listed with stamps: only reading is left). */
  readonly scanned: Promise<void>;
  /** Says the scan is done. */
  readonly done: () => void;
  marked: boolean;
}

function firstPass(): FirstPass {
  let done = () => {};
  const scanned = new Promise<void>((resolve) => (done = resolve));
  return { scanned, done, marked: false };
}
