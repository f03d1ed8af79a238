/**
 * The pass a prompt waits for, in a Git repository (docs/design/checkpoints-git.md): the files that may have changed
 * since the last pass, from what Git says differs from its index now and said last time, instead of a stat of every
 * file. A tracked file that Git finds as its index has it, now and at the last pass, against an index that did not
 * change, has the same bytes (the index's) both times: only the others are looked at. When the index changed (a
 * commit, a checkout, a stage), the entries whose blob changed are looked at too.
 *
 * Not for a repository with what this Git does not see: a submodule or a repository inside (their files), or many
 * files whose changes `git diff-files` does not report or that Git converts (those are looked at every time).
 */
import { readGitChanges, readGitView, type GitView } from './gitView';
import { sameStamp, stampOf } from './scanFolder';

/** Files looked at every pass (converted, assume-unchanged, skip-worktree) past which the full pass is as quick. */
const MAX_UNWATCHED = 500;

export class GitWatch {
  private constructor(
    private view: GitView,
    private dirty: ReadonlySet<string>,
    private untracked: ReadonlySet<string>,
  ) {}

  /** A watch from what Git said at a pass, or undefined when the repository is not one to watch. */
  static from(view: GitView): GitWatch | undefined {
    return watchable(view) ? new GitWatch(view, view.dirty, view.untracked) : undefined;
  }

  /**
   * The paths that may have changed since the last pass (relative to the folder), and what Git knows now; undefined
   * when Git cannot say, or the repository is no longer one to watch: a full pass then. Updates the watch.
   */
  async next(git: string, folder: string): Promise<{ paths: Set<string>; view: GitView } | undefined> {
    const indexNow = stampOf(this.view.index);
    if (!indexNow) return undefined;
    const paths = new Set<string>();
    let view = this.view;
    if (!sameStamp(indexNow, view.indexStamp)) {
      const fresh = await readGitView(git, folder);
      if (!fresh || !watchable(fresh)) return undefined;
      for (const path of new Set([...view.tracked.keys(), ...fresh.tracked.keys()])) {
        if (view.tracked.get(path) !== fresh.tracked.get(path)) paths.add(path);
      }
      for (const path of [...view.converted, ...view.hidden]) paths.add(path);
      view = fresh;
    }
    const changes = view === this.view ? await readGitChanges(git, folder) : view;
    if (!changes || changes.nested) return undefined;
    // The index changed while Git was asked: what it said may be of either index.
    const indexAfter = stampOf(view.index);
    if (!indexAfter || !sameStamp(indexAfter, view.indexStamp)) return undefined;
    for (const set of [this.dirty, changes.dirty, this.untracked, changes.untracked, view.converted, view.hidden]) {
      for (const path of set) paths.add(path);
    }
    this.view = view;
    this.dirty = changes.dirty;
    this.untracked = changes.untracked;
    return { paths, view };
  }
}

function watchable(view: GitView): boolean {
  return !view.nested && view.converted.size + view.hidden.size <= MAX_UNWATCHED;
}
