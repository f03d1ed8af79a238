/**
 * A repository whose config names a program of its own wherever Git will run one (for
 * checkpointsGitRunsNothing.test.ts): each program, when run, leaves a marker file named after it. Made with the
 * user's `git` in a temporary folder, as a partial clone (`--filter=blob:none`) of a bare repository served over
 * "ssh" by `core.sshCommand`, one of whose index entries is a blob the clone does not have: reading it makes Git
 * fetch it lazily.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** Every hook name in githooks(5) of Git 2.39. */
const HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
];

export interface HostileRepo {
  /** The work tree. */
  readonly root: string;
  readonly base: string;
  /** The tracked file whose index entry is a blob only the remote has (its bytes are `missingBytes`). */
  readonly missing: string;
  /** The user's Git in the work tree (fetching nothing), as a test's step: what its own run leaves is not counted. */
  git(...args: string[]): string;
  /** The markers left since the last call (then removed). */
  takeMarkers(): string[];
  /**
   * The index dated before its entries, as when Git writes it in the same second as the files it lists: every
   * entry whose stat matches is then "racily clean", and Git re-reads (and filters) its file to know.
   */
  makeRacy(): void;
  cleanup(): void;
}

/** `git` with no config of the machine's or the user's, in `cwd` (a test's own steps: what it prints, as text). */
export function plainGit(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync(GIT, ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', ...env },
  });
}

/** Writes `bin/<name>`: leaves its marker, then `then` (by default: passes its input on, as a filter does). */
function program(base: string, name: string, then = 'exec cat'): string {
  const file = path.join(base, 'bin', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n: > '${path.join(base, 'markers', name)}'\n${then}\n`, { mode: 0o755 });
  return file;
}

/** Serves an "ssh" command locally (its last argument, `git-upload-pack '<path>'`). */
const SERVE = 'for a; do last=$a; done; exec sh -c "$last"';

/** The bare repository the clone is made from: `old.txt` changed by a second commit, so its first blob is left out. */
function origin(base: string): { url: string; oldId: string } {
  const src = path.join(base, 'src');
  fs.mkdirSync(src);
  plainGit(src, ['init', '-q']);
  const files = {
    '.gitattributes': '*.f filter=evil diff=evil\n*.p filter=proc\n*.i filter=inc\n*.e filter=dot.ted\n',
    'a.f': 'a\n',
    'b.p': 'b\n',
    'c.i': 'c\n',
    'd.txt': 'd\n',
    'e.e': 'e\n',
    'old.txt': 'old\n',
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(src, name), text);
  plainGit(src, ['add', '-A']);
  plainGit(src, ['commit', '-qm', 'first']);
  fs.writeFileSync(path.join(src, 'old.txt'), 'new\n');
  plainGit(src, ['commit', '-qam', 'second']);
  const oldId = plainGit(src, ['rev-parse', 'HEAD~1:old.txt']).trim();
  plainGit(base, ['clone', '-q', '--bare', src, 'origin.git']);
  plainGit(path.join(base, 'origin.git'), ['config', 'uploadpack.allowFilter', 'true']);
  plainGit(path.join(base, 'origin.git'), ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  return { url: `ssh://localhost${path.join(base, 'origin.git')}`, oldId };
}

/** The config of the repository's own: programs everywhere, and an included file that turns them back on. */
function hostileConfig(base: string, root: string): void {
  const set = (key: string, value: string) => plainGit(root, ['config', '--add', key, value]);
  set('core.sshCommand', program(base, 'ssh', SERVE));
  set('ssh.variant', 'simple');
  set('filter.evil.clean', program(base, 'clean'));
  set('filter.evil.smudge', program(base, 'smudge'));
  set('filter.evil.required', 'true');
  // A long-running filter that greets Git back (version 2), then offers no capability: Git uses it for nothing.
  const greeting = `head -c 40 > /dev/null; printf '0016git-filter-server\\n000eversion=2\\n00000000'; exec cat > /dev/null`;
  set('filter.proc.process', program(base, 'process', greeting));
  set('diff.evil.textconv', program(base, 'textconv'));
  set('diff.evil.command', program(base, 'diff-command', 'exit 0'));
  set('diff.external', program(base, 'diff-external', 'exit 0'));
  set('core.pager', program(base, 'pager'));
  for (const command of ['rev-parse', 'ls-files', 'diff-files', 'config', 'check-attr', 'cat-file']) {
    set(`pager.${command}`, program(base, `pager-${command}`));
  }
  set('core.fsmonitor', program(base, 'fsmonitor', 'exit 0'));
  set('core.editor', program(base, 'editor', 'exit 0'));
  set('sequence.editor', program(base, 'sequence-editor', 'exit 0'));
  // Two more promisor remotes, tried when the first fails: a command of the URL's own, and another upload-pack.
  set('remote.ext.url', `ext::${program(base, 'ext-remote', 'exit 1')} %S`);
  set('remote.ext.promisor', 'true');
  set('remote.local.url', path.join(base, 'origin.git'));
  set('remote.local.uploadpack', program(base, 'uploadpack', 'exit 1'));
  set('remote.local.promisor', 'true');
  for (const hook of HOOKS) program(base, `hook-${hook}`, 'exit 0');
  for (const hook of HOOKS) {
    fs.copyFileSync(path.join(base, 'bin', `hook-${hook}`), path.join(root, '.git/hooks', hook));
  }
  const hooksPath = path.join(base, 'hooks');
  fs.mkdirSync(hooksPath);
  for (const hook of HOOKS) {
    fs.writeFileSync(
      path.join(hooksPath, hook),
      `#!/bin/sh\n: > '${path.join(base, 'markers', `hooksPath-${hook}`)}'\n`,
      {
        mode: 0o755,
      },
    );
  }
  const included = path.join(base, 'included.config');
  const lines = [
    '[core]',
    `hooksPath = ${hooksPath}`,
    `fsmonitor = ${program(base, 'fsmonitor-included', 'exit 0')}`,
    `pager = ${program(base, 'pager-included')}`,
    `askPass = ${program(base, 'askpass', 'exit 1')}`,
    `alternateRefsCommand = ${program(base, 'alternate-refs', 'exit 1')}`,
    `gitProxy = ${program(base, 'git-proxy', 'exit 1')}`,
    '[filter "inc"]',
    `clean = ${program(base, 'inc-clean')}`,
    `smudge = ${program(base, 'inc-smudge')}`,
    // A driver whose name has a dot (the attribute says `filter=dot.ted`).
    '[filter "dot.ted"]',
    `clean = ${program(base, 'dotted-clean')}`,
    '[protocol]',
    'allow = always',
    ...['ssh', 'file', 'ext', 'git', 'http', 'https'].flatMap((p) => [`[protocol "${p}"]`, 'allow = always']),
    '[credential]',
    `helper = ${program(base, 'credential', 'exit 1')}`,
    '[uploadpack]',
    `packObjectsHook = ${program(base, 'pack-objects-hook', 'exit 1')}`,
    '[gpg]',
    `program = ${program(base, 'gpg', 'exit 1')}`,
  ];
  fs.writeFileSync(included, `${lines.join('\n')}\n`);
  set(`includeIf.gitdir:${root}/.path`, included);
}

/** A hostile repository, in a new temporary folder. */
export function hostileRepo(): HostileRepo {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-hostile-')));
  const root = path.join(base, 'ws');
  const markers = path.join(base, 'markers');
  fs.mkdirSync(markers);
  const { url, oldId } = origin(base);
  const serve = program(base, 'serve', SERVE);
  plainGit(base, [
    '-c',
    `core.sshCommand=${serve}`,
    '-c',
    'ssh.variant=simple',
    'clone',
    '-q',
    '--filter=blob:none',
    url,
    'ws',
  ]);
  // old.txt as the first commit had it, its index entry the blob the clone left out (no fetch: no protocol allowed).
  const noFetch = { GIT_ALLOW_PROTOCOL: '' };
  fs.writeFileSync(path.join(root, 'old.txt'), 'old\n');
  plainGit(root, ['update-index', '--cacheinfo', `100644,${oldId},old.txt`], noFetch);
  plainGit(root, ['update-index', '--refresh'], noFetch);
  hostileConfig(base, root);
  return handle(base, root, path.join(root, '.git', 'index'), path.join(root, 'old.txt'));
}

/** The repository in `base`/ws as a test uses it (its markers in `base`/markers, taken now). */
function handle(base: string, root: string, index: string, missing: string): HostileRepo {
  const markers = path.join(base, 'markers');
  const takeMarkers = () => {
    const found = fs.readdirSync(markers).sort();
    for (const name of found) fs.rmSync(path.join(markers, name));
    return found;
  };
  takeMarkers();
  return {
    root,
    base,
    missing,
    git: (...args) => {
      // It fetches nothing either: the blob the clone left out stays out.
      const out = plainGit(root, args, { GIT_ALLOW_PROTOCOL: '' });
      takeMarkers();
      return out;
    },
    takeMarkers,
    makeRacy: () => fs.utimesSync(index, 1000, 1000),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/**
 * A repository with a submodule whose own config has a clean filter (for `.f` files) and whose index is racy:
 * `git diff-files` asks a submodule's own `git status` whether it is modified, which re-reads the file through it.
 */
export function hostileSubmodule(): HostileRepo {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-hostile-sub-')));
  const root = path.join(base, 'ws');
  const markers = path.join(base, 'markers');
  const sub = path.join(base, 'sub');
  for (const dir of [markers, sub, root]) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(sub, '.gitattributes'), '*.f filter=evil\n');
  fs.writeFileSync(path.join(sub, 's.f'), 's\n');
  plainGit(sub, ['init', '-q']);
  plainGit(sub, ['add', '-A']);
  plainGit(sub, ['commit', '-qm', 'sub']);
  fs.writeFileSync(path.join(root, 't.txt'), 't\n');
  plainGit(root, ['init', '-q']);
  plainGit(root, ['add', '-A']);
  plainGit(root, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'sub']);
  plainGit(root, ['commit', '-qm', 'with a submodule']);
  plainGit(path.join(root, 'sub'), ['config', 'filter.evil.clean', program(base, 'submodule-clean')]);
  return handle(base, root, path.join(root, '.git', 'modules', 'sub', 'index'), '');
}
