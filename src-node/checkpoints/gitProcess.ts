/**
 * The user's `git` as the checkpoints start it, every time: read only, and running nothing of the repository's own
 * (its config, hooks, attributes or remotes; a cloned or agent-written repository is not trusted code). Each way Git
 * 2.39 runs a program for these reading commands, and what stops it (checkpointsGitRunsNothing.test.ts sets each):
 *
 * - Filter drivers (`filter.<name>.clean`, `.process`; `.smudge`): `diff-files` re-reads a "racily clean" file (one
 *   changed in the second the index was written) through its filter to compare it. Every driver the config names
 *   (`config --get-regexp`, includes and all: a driver without config runs nothing) is emptied with `-c`, which Git
 *   reads after every config file, and made not required (a required one that does nothing fails the command). A
 *   driver added to the config between that listing and the command it is for is not seen: a window of a few
 *   milliseconds, in a repository whose config is being written at that moment. Git 2.39 has no switch for all
 *   drivers at once (`--attr-source`, `GIT_ATTR_SOURCE` came in 2.40).
 * - Submodules: `diff-files` asks each one's own `git status`, under the submodule's config (its filters): it is
 *   told `--ignore-submodules` (a submodule is not a file the checkpoints take from Git: gitView.ts).
 * - Transports: a partial clone's missing object (`cat-file --batch` of an old blob, an attributes file read from
 *   the index) is fetched by a `git fetch` of the promisor remote: `core.sshCommand`, an `ext::` command, a
 *   remote's `uploadpack`, `core.gitProxy`, a remote helper. `GIT_ALLOW_PROTOCOL` empty allows no protocol, and
 *   wins over every config (`protocol.allow=never` does not: a repository's `protocol.ssh.allow` beats it);
 *   `GIT_NO_LAZY_FETCH` (Git 2.45 on) does not even try. With no transport, no credential helper or askpass is
 *   asked; they are emptied too, in case one ever is.
 * - `core.fsmonitor` (a hook of the config's choosing, run at each index read): false.
 * - Worktrees (src-node/worktrees/): `worktree add` checks files out, through the same emptied filters (a file
 *   whose filter would change it is checked out as the repository holds it), runs `post-checkout` (hooks below)
 *   and, with `submodule.recurse`, goes into submodules: false here.
 * - Hooks (`core.hooksPath`, `.git/hooks`): no reading command runs one, `worktree add` runs `post-checkout`; the
 *   path is /dev/null, for it and should a later Git, or a fetch, want one.
 * - Pagers (`core.pager`, `pager.<command>`, `GIT_PAGER`): `--no-pager`. External diff and textconv
 *   (`diff.external`, `diff.<driver>.command`, `.textconv`): `diff-files --no-ext-diff --no-textconv`.
 * - Our own environment: every `GIT_*` variable is dropped (`GIT_DIR` and the like point Git elsewhere;
 *   `GIT_SSH_COMMAND`, `GIT_ASKPASS`, `GIT_EXTERNAL_DIFF`, `GIT_CONFIG_PARAMETERS` name programs or config).
 * - No shell: `git` is started by its path.
 *
 * Not dropped: the system's config (`GIT_CONFIG_NOSYSTEM`). It is the machine's, not the repository's, and Git for
 * Windows sets `core.autocrlf` there, which gitView.ts must see to know which files Git converts. Not needed: editors
 * (`core.editor`, `sequence.editor`), `gpg.program`, aliases, merge and diff tools; none of these commands uses them.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** The commands the checkpoints run: each one's options against the repository's programs are in one table. */
export type GitCommand =
  | 'rev-parse'
  | 'ls-files'
  | 'diff-files'
  | 'check-attr'
  | 'config'
  | 'cat-file'
  // A chat's own worktree (src-node/worktrees/): the one command here that writes, a name check, what it changed.
  | 'worktree'
  | 'diff'
  | 'check-ref-format';

const COMMAND_OPTIONS: Record<GitCommand, readonly string[]> = {
  'rev-parse': [],
  'ls-files': [],
  'diff-files': ['--no-ext-diff', '--no-textconv', '--ignore-submodules'],
  'check-attr': [],
  config: [],
  'cat-file': [],
  worktree: [],
  diff: ['--no-ext-diff', '--no-textconv', '--ignore-submodules'],
  'check-ref-format': [],
};

/** `-c` settings for every command: Git reads them after every config file, includes too. */
const SETTINGS = [
  'core.fsmonitor=false',
  // As before this list: `ls-files --others` answers from the folders, not from a cache kept in the index.
  'core.untrackedCache=false',
  'core.hooksPath=/dev/null',
  // A checkout (`worktree add`) would go into each submodule, under its own config.
  'submodule.recurse=false',
  // An empty value empties the list of helpers the config files made.
  'credential.helper=',
  'core.askPass=',
];

/** How long one `git` may take, and the most it may print. */
export const GIT_TIMEOUT_MS = 10_000;
/** `worktree add` and `remove` write every file of the repository: 20,000 take 7-10 s on a slow disk. */
const WORKTREE_TIMEOUT_MS = 300_000;
export const MAX_GIT_OUTPUT_BYTES = 256 * 1024 * 1024;

/** The environment `git` runs in: ours without any `GIT_*`, never writing the index, fetching nothing. */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^GIT_/i.test(name)) env[name] = value;
  return {
    ...env,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: '',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_NO_LAZY_FETCH: '1',
    LC_ALL: 'C',
  };
}

/** The options that neutralise `drivers` (filter driver names). */
function driverSettings(drivers: readonly string[]): string[] {
  return drivers.flatMap((name) =>
    ['clean=', 'smudge=', 'process=', 'required=false'].map((setting) => `filter.${name}.${setting}`),
  );
}

/** Runs `git argv` in `folder`: its stdout, or its exit code when it fails (-1: did not start, killed, too much). */
function execGit(
  program: string,
  folder: string,
  argv: readonly string[],
  input?: string,
  timeout = GIT_TIMEOUT_MS,
): Promise<Buffer | number> {
  return new Promise((resolve) => {
    const child = execFile(
      program,
      argv,
      {
        cwd: folder,
        env: gitEnv(),
        encoding: 'buffer',
        maxBuffer: MAX_GIT_OUTPUT_BYTES,
        timeout,
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : stdout),
    );
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** `git` in one folder, for a few commands in a row (the filter drivers are listed once, when it is opened). */
export class FolderGit {
  private constructor(
    private readonly program: string,
    readonly folder: string,
    private readonly settings: readonly string[],
  ) {}

  /**
   * `program` (the user's `git`) in `folder`, its config's filter drivers listed; undefined when Git cannot list
   * them, or one has a name `-c` cannot say (with a `=`): then the checkpoints do without Git.
   */
  static async open(program: string, folder: string): Promise<FolderGit | undefined> {
    const listing = ['config', '-z', '--name-only', '--get-regexp', '^filter\\.'];
    const out = await execGit(program, folder, [...SETTINGS.flatMap((s) => ['-c', s]), '--no-pager', ...listing]);
    // Exit code 1: no such key, no driver.
    if (typeof out === 'number' && out !== 1) return undefined;
    const drivers = new Set<string>();
    for (const key of typeof out === 'number' ? [] : out.toString('utf8').split('\0')) {
      // "filter.<name>.<variable>": the name may itself have dots, the variable has none.
      const name = key.slice('filter.'.length, key.lastIndexOf('.'));
      if (key.startsWith('filter.') && name) drivers.add(name);
    }
    if ([...drivers].some((name) => name.includes('='))) return undefined;
    const settings = [...SETTINGS, ...driverSettings([...drivers])].flatMap((s) => ['-c', s]);
    return new FolderGit(program, folder, [...settings, '--no-pager']);
  }

  /** `git <command> <args>`: its stdout, or undefined when it fails in any way. */
  async run(command: GitCommand, args: readonly string[], input?: string): Promise<Buffer | undefined> {
    const timeout = command === 'worktree' ? WORKTREE_TIMEOUT_MS : GIT_TIMEOUT_MS;
    const out = await execGit(this.program, this.folder, this.argv(command, args), input, timeout);
    return typeof out === 'number' ? undefined : out;
  }

  /** `git <command> <args>` started, its stdin and stdout piped (the caller bounds its time and output). */
  spawn(command: GitCommand, args: readonly string[]): ChildProcessByStdio<Writable, Readable, null> {
    return spawn(this.program, this.argv(command, args), {
      cwd: this.folder,
      env: gitEnv(),
      stdio: ['pipe', 'pipe', 'ignore'],
      windowsHide: true,
    });
  }

  private argv(command: GitCommand, args: readonly string[]): string[] {
    return [...this.settings, command, ...COMMAND_OPTIONS[command], ...args];
  }
}
