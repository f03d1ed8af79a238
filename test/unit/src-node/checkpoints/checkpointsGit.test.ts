/**
 * Checkpoints in a Git repository (the user's git, docs/design/checkpoints-git.md): a file as the index has it is
 * not copied, its version is Git's object, and Undo puts those bytes back exactly; a file that differs from the
 * index, or that Git converts, is copied as before; without git nothing changes; a file put back to the index's
 * bytes is the same version as before (no change that changes nothing).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceCheckpoints } from '../../../../src-node/checkpoints/workspaceCheckpoints';

const GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
const LIMITS = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxStoreBytes: 64 * 1024 * 1024 };

function workspace(files: Record<string, string | Buffer>, config: string[][] = []) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-git-')));
  const root = path.join(base, 'ws');
  const git = (...args: string[]) =>
    execFileSync(GIT, ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });
  fs.mkdirSync(root);
  git('init', '-q');
  for (const [key, value] of config) git('config', key!, value!);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), content);
  }
  git('add', '-A');
  git('commit', '-qm', 'x');
  const file = (name: string) => path.join(root, name);
  return {
    base,
    root,
    file,
    store: path.join(base, 'store'),
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

describe('checkpoints in a Git repository', function () {
  this.timeout(20_000);
  const withGit = { ...LIMITS, git: async () => GIT };
  let ws: ReturnType<typeof workspace> | undefined;
  afterEach(() => ws?.cleanup());

  it("copies nothing of a clean checkout; the version before an edit is Git's, and Undo puts it back byte for byte", async () => {
    const bytes = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0x0a]);
    ws = workspace({ 'a.ts': 'export const a = 1;\n', 'bin.dat': bytes, 'src/b.ts': 'b\n' });
    const cp = new WorkspaceCheckpoints(ws.store, withGit);
    const mark = await cp.beforeTurn([ws.root]);
    assert.equal(cp.store.bytes, 0, 'no copy of a clean checkout');
    fs.writeFileSync(ws.file('a.ts'), 'export const a = 2;\n');
    fs.writeFileSync(ws.file('bin.dat'), 'text now');
    const changes = await cp.afterTurn(mark);
    assert.deepEqual(
      changes.map((c) => c.before?.hash?.slice(0, 4)),
      ['git:', 'git:'],
    );
    assert.equal(
      cp.store.bytes,
      'export const a = 2;\n'.length + 'text now'.length,
      'only the new versions are copied',
    );
    for (const change of changes) await cp.restore(change.path, change.after!.hash!, change.before!.hash!);
    assert.equal(fs.readFileSync(ws.file('a.ts'), 'utf8'), 'export const a = 1;\n');
    assert.deepEqual(fs.readFileSync(ws.file('bin.dat')), bytes);
    const edit = changes.find((c) => c.path === ws!.file('a.ts'))!;
    assert.equal((await cp.copy(edit.before!.hash!)).toString(), 'export const a = 1;\n');
    // A window reloaded since (no pass over any folder yet): Git's version is read in the folders it is given (the
    // Changes bar's line counts of a reopened chat).
    const next = new WorkspaceCheckpoints(ws.store, withGit);
    await assert.rejects(next.copy(edit.before!.hash!), /not in Git any more/);
    assert.equal((await next.copy(edit.before!.hash!, [ws.root])).toString(), 'export const a = 1;\n');
  });

  it('a file that differs from the index, and one Git converts, are copied; without git everything is', async () => {
    ws = workspace({ 'a.txt': 'a\n', 'b.txt': 'b\n' }, [['core.autocrlf', 'true']]);
    fs.writeFileSync(ws.file('a.txt'), 'a, edited\n');
    const cp = new WorkspaceCheckpoints(ws.store, withGit);
    const mark = await cp.beforeTurn([ws.root]);
    fs.writeFileSync(ws.file('a.txt'), 'agent\n');
    fs.writeFileSync(ws.file('b.txt'), 'agent\n');
    const changes = await cp.afterTurn(mark);
    assert.ok(
      changes.every((c) => /^[0-9a-f]{64}$/.test(c.before!.hash!)),
      JSON.stringify(changes),
    );

    const plain = workspace({ 'c.txt': 'c\n' });
    try {
      const none = new WorkspaceCheckpoints(plain.store, { ...LIMITS, git: async () => undefined });
      none.release(await none.beforeTurn([plain.root]));
      assert.equal(none.store.bytes, 2, 'no git: copied as before');
    } finally {
      plain.cleanup();
    }
  });

  it("an edit put back to the index's bytes is no change; the next window keeps Git's versions from its index", async () => {
    ws = workspace({ 'a.ts': 'one\n', 'b.ts': 'two\n' });
    const cp = new WorkspaceCheckpoints(ws.store, withGit);
    const mark = await cp.beforeTurn([ws.root]);
    fs.writeFileSync(ws.file('a.ts'), 'changed\n');
    cp.release(await cp.beforeTurn([ws.root]));
    fs.writeFileSync(ws.file('a.ts'), 'one\n');
    assert.deepEqual(await cp.afterTurn(mark), [], 'a.ts is as it was');
    const next = new WorkspaceCheckpoints(ws.store, withGit);
    const turn = await next.beforeTurn([ws.root]);
    fs.writeFileSync(ws.file('b.ts'), 'agent\n');
    const [change] = await next.afterTurn(turn);
    assert.equal((await next.copy(change!.before!.hash!)).toString(), 'two\n');
  });
});
