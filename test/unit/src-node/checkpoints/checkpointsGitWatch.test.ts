/**
 * The pass a prompt waits for in a Git repository looks only where Git says something may have changed
 * (gitWatch.ts). Whatever happens between turns, what it finds must be what a pass over every file finds: each
 * step below is done to one folder, checkpointed twice (with the user's git, and without: every file looked at),
 * and both must report the same changes, byte for byte, through more turns than one full pass in ten.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceCheckpoints, type TurnMark } from '../../../../src-node/checkpoints/workspaceCheckpoints';

const GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const LIMITS = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxStoreBytes: 64 * 1024 * 1024 };

describe('checkpoints in a Git repository: the pass a prompt waits for', function () {
  this.timeout(60_000);
  let base: string;
  let root: string;
  const file = (name: string) => path.join(root, name);
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(file(name)), { recursive: true });
    fs.writeFileSync(file(name), text);
  };
  const git = (...args: string[]) =>
    execFileSync(GIT, ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-watch-')));
    root = path.join(base, 'ws');
    fs.mkdirSync(root);
    git('init', '-q', '-b', 'main');
    write('.gitignore', 'out/\n*.log\n');
    for (let i = 0; i < 30; i++) write(`src/f${i}.ts`, `export const f${i} = ${i};\n`);
    write('out/build.js', 'built\n');
    write('docs/readme.md', '# docs\n');
    git('add', '-A');
    git('commit', '-qm', 'first');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  /** What `cp` found changed in the turn since `mark`, as text: path, bytes before and after. */
  async function found(cp: WorkspaceCheckpoints, mark: TurnMark): Promise<string[]> {
    const text = async (hash: string | undefined) => (hash ? JSON.stringify((await cp.copy(hash)).toString()) : '-');
    const changes = await cp.afterTurn(mark);
    const lines = await Promise.all(
      changes.map(
        async (c) => `${path.relative(root, c.path)}: ${await text(c.before?.hash)} -> ${await text(c.after?.hash)}`,
      ),
    );
    return lines.sort();
  }

  it('finds what a pass over every file finds, whatever is done between turns', async () => {
    const watched = new WorkspaceCheckpoints(path.join(base, 'store-git'), { ...LIMITS, git: async () => GIT });
    const plain = new WorkspaceCheckpoints(path.join(base, 'store-plain'), LIMITS);
    const steps: Array<[string, () => void, string[]]> = [
      ['nothing', () => undefined, []],
      [
        'an edit of a tracked file',
        () => write('src/f1.ts', 'one\n'),
        ['src/f1.ts: "export const f1 = 1;\\n" -> "one\\n"'],
      ],
      [
        'a new file, a deleted one',
        () => (write('src/new.ts', 'new\n'), fs.rmSync(file('src/f2.ts'))),
        ['src/f2.ts: "export const f2 = 2;\\n" -> -', 'src/new.ts: - -> "new\\n"'],
      ],
      [
        'an edit put back as the index has it',
        () => git('checkout', '--', 'src/f1.ts'),
        ['src/f1.ts: "one\\n" -> "export const f1 = 1;\\n"'],
      ],
      [
        'an edit staged, then edited again',
        () => (write('src/f3.ts', 'three\n'), git('add', 'src/f3.ts'), write('src/f3.ts', 'THREE\n')),
        ['src/f3.ts: "export const f3 = 3;\\n" -> "THREE\\n"'],
      ],
      [
        'the staged version put back (the index changed, the file is clean)',
        () => git('checkout', '--', 'src/f3.ts'),
        ['src/f3.ts: "THREE\\n" -> "three\\n"'],
      ],
      ['a commit (nothing changes on disk)', () => (git('add', '-A'), git('commit', '-qm', 'second')), []],
      [
        'another branch checked out',
        () => {
          git('checkout', '-q', '-b', 'other');
          write('src/f4.ts', 'four on other\n');
          fs.rmSync(file('src/f5.ts'));
          git('add', '-A');
          git('commit', '-qm', 'other');
          git('checkout', '-q', 'main');
        },
        [],
      ],
      [
        'switched to it',
        () => git('checkout', '-q', 'other'),
        ['src/f4.ts: "export const f4 = 4;\\n" -> "four on other\\n"', 'src/f5.ts: "export const f5 = 5;\\n" -> -'],
      ],
      [
        'an ignored file edited, a tracked file in an ignored folder edited',
        () => (write('debug.log', 'log\n'), write('out/build.js', 'rebuilt\n')),
        [],
      ],
      ['a file only touched', () => fs.utimesSync(file('src/f6.ts'), new Date(), new Date(Date.now() + 5000)), []],
      [
        'a file Git is told not to look at, edited',
        () => (git('update-index', '--assume-unchanged', 'src/f7.ts'), write('src/f7.ts', 'seven\n')),
        ['src/f7.ts: "export const f7 = 7;\\n" -> "seven\\n"'],
      ],
      [
        'that file edited again (the index unchanged)',
        () => write('src/f7.ts', 'SEVEN\n'),
        ['src/f7.ts: "seven\\n" -> "SEVEN\\n"'],
      ],
      [
        'the .gitignore no longer ignores the logs',
        () => write('.gitignore', 'out/\n'),
        ['.gitignore: "out/\\n*.log\\n" -> "out/\\n"', 'debug.log: - -> "log\\n"'],
      ],
      [
        'a file ignored by info/exclude only',
        () => (write('.git/info/exclude', 'local.txt\n'), write('local.txt', 'local\n')),
        ['local.txt: - -> "local\\n"'],
      ],
      [
        'a repository inside the folder, its file edited',
        () => {
          write('inner/a.txt', 'inner\n');
          execFileSync(GIT, ['init', '-q'], { cwd: file('inner') });
        },
        ['inner/a.txt: - -> "inner\\n"'],
      ],
      [
        'the inner file edited again',
        () => write('inner/a.txt', 'inner 2\n'),
        ['inner/a.txt: "inner\\n" -> "inner 2\\n"'],
      ],
      [
        'the inner repository gone',
        () => fs.rmSync(file('inner'), { recursive: true }),
        ['inner/a.txt: "inner 2\\n" -> -'],
      ],
      ...Array.from({ length: 12 }, (_, i): [string, () => void, string[]] => [
        `edit ${i} of a file`,
        () => write('docs/readme.md', `# docs ${i}\n`),
        [
          `docs/readme.md: ${JSON.stringify(i === 0 ? '# docs\n' : `# docs ${i - 1}\n`)} -> ${JSON.stringify(`# docs ${i}\n`)}`,
        ],
      ]),
    ];
    let marks = [await watched.beforeTurn([root]), await plain.beforeTurn([root])] as const;
    for (const [what, step, expected] of steps) {
      step();
      const [withGit, withoutGit] = [await found(watched, marks[0]), await found(plain, marks[1])];
      assert.deepEqual(withoutGit, expected, `${what}: a pass over every file`);
      assert.deepEqual(withGit, expected, `${what}: the pass Git watches`);
      marks = [await watched.beforeTurn([root]), await plain.beforeTurn([root])];
    }
  });
});
