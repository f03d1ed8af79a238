/**
 * Which files checkpoints leave out: what Git would ignore (every
 * `.gitignore` from the folder down, each relative to its own folder, a
 * deeper one able to re-include with `!`), and `.git` itself. The rules are
 * the `ignore` package's, which ESLint and Prettier use for the same job.
 */
import ignore, { type Ignore } from 'ignore';

/** One folder's `.gitignore`, applied to paths relative to that folder. */
interface Level {
  /** The folder's path relative to the root, '' for the root, else ending in '/'. */
  readonly dir: string;
  readonly rules: Ignore;
}

/** The rules in force in one folder: its own `.gitignore` on top of its parents'. */
export class IgnoreRules {
  private constructor(private readonly levels: readonly Level[]) {}

  static readonly none = new IgnoreRules([]);

  /** These rules with `text` (a `.gitignore` found in `dir`, relative to the root, '' or ending in '/') added. */
  withFile(dir: string, text: string): IgnoreRules {
    return new IgnoreRules([...this.levels, { dir, rules: ignore({ allowRelativePaths: false }).add(text) }]);
  }

  /** Whether `path` (relative to the root, '/'-separated) is ignored; `folder` for a folder. */
  ignores(path: string, folder: boolean): boolean {
    if (path === '.git' || path.endsWith('/.git')) return true;
    let ignored = false;
    // As Git does: the deepest file that says anything about the path decides.
    for (const level of this.levels) {
      const relative = path.slice(level.dir.length) + (folder ? '/' : '');
      let verdict;
      try {
        verdict = level.rules.test(relative);
      } catch {
        continue; // a name the rules cannot take: kept (a checkpoint too many, never one too few)
      }
      if (verdict.ignored) ignored = true;
      else if (verdict.unignored) ignored = false;
    }
    return ignored;
  }
}
