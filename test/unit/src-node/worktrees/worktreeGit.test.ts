/**
 * A chat's own worktree (src-node/worktrees/worktreeGit.ts) against real repositories made with the user's `git`:
 * detached and on a new branch, listed, removed with its files; names refused; a repository without a commit, a
 * shallow clone, a bare one; and repositories whose config names a program wherever Git runs one (hooks, filters,
 * fsmonitor, a partial clone's lazy fetch, a submodule's filter with submodule.recurse): none runs.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addWorktree, listWorktrees, removeWorktree, repositoryGit } from '../../../../src-node/worktrees/worktreeGit';
import { GIT, hostileRepo, hostileSubmodule, plainGit, type HostileRepo } from '../checkpoints/hostileRepo';

function plainRepo(): { base: string; root: string; git(...args: string[]): string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-worktree-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(root);
  const git = (...args: string[]) => plainGit(root, args);
  git('init', '-q');
  fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
  fs.mkdirSync(path.join(root, 'src'));
  fs.writeFileSync(path.join(root, 'src', 'b.ts'), 'export const b = 1;\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  return { base, root, git };
}

describe("a chat's worktree (git worktree, running nothing of the repository's own)", function () {
  this.timeout(30_000);
  const made: string[] = [];
  const cleanup: HostileRepo[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    for (const r of cleanup.splice(0)) r.cleanup();
  });

  it('detached at HEAD: the files checked out, listed, the user’s tree untouched; removed with its files', async () => {
    const r = plainRepo();
    made.push(r.base);
    fs.writeFileSync(path.join(r.root, 'a.txt'), 'the user is editing\n');
    const repo = await repositoryGit(GIT, path.join(r.root, 'src'));
    assert.ok(repo, 'found from a folder inside the work tree');
    const folder = path.join(r.base, 'worktrees', 'chat-1');
    const added = await addWorktree(repo, folder);
    assert.deepEqual(added, { ok: true, head: r.git('rev-parse', 'HEAD').trim() });
    assert.equal(fs.readFileSync(path.join(folder, 'a.txt'), 'utf8'), 'a\n', 'HEAD, not the user’s unsaved work');
    assert.equal(fs.readFileSync(path.join(folder, 'src', 'b.ts'), 'utf8'), 'export const b = 1;\n');
    assert.equal(fs.readFileSync(path.join(r.root, 'a.txt'), 'utf8'), 'the user is editing\n');
    assert.deepEqual(
      (await listWorktrees(repo)).map((w) => [w.folder, w.branch]),
      [
        [r.root, 'main'],
        [folder, undefined],
      ],
    );
    assert.equal(await removeWorktree(repo, folder), true);
    assert.equal(fs.existsSync(folder), false);
    assert.equal(r.git('worktree', 'list').trim().split('\n').length, 1);
  });

  it('on a new branch the user names; a name git refuses, or one taken, is said and nothing is made', async () => {
    const r = plainRepo();
    made.push(r.base);
    const repo = (await repositoryGit(GIT, r.root))!;
    const folder = path.join(r.base, 'wt');
    assert.equal((await addWorktree(repo, folder, { branch: 'agent/fix-total' })).ok, true);
    assert.equal((await listWorktrees(repo)).find((w) => w.folder === folder)?.branch, 'agent/fix-total');
    for (const [branch, why] of [
      ['-f', '"-f" is not a valid branch name'],
      ['a..b', '"a..b" is not a valid branch name'],
      ['main', 'a branch named "main" exists already'],
    ]) {
      const other = path.join(r.base, `wt-${made.length}-${branch.length}`);
      assert.deepEqual(await addWorktree(repo, other, { branch }), { ok: false, why });
      assert.equal(fs.existsSync(other), false);
    }
    // A folder that is there already (the user's) is refused, and left as it was.
    fs.mkdirSync(path.join(r.base, 'mine'));
    fs.writeFileSync(path.join(r.base, 'mine', 'keep.txt'), 'mine\n');
    const taken = await addWorktree(repo, path.join(r.base, 'mine'));
    assert.equal(taken.ok, false);
    assert.equal(fs.readFileSync(path.join(r.base, 'mine', 'keep.txt'), 'utf8'), 'mine\n');
    assert.equal(await removeWorktree(repo, path.join(r.base, 'mine')), true, 'not a worktree: nothing removed');
    assert.equal(fs.readFileSync(path.join(r.base, 'mine', 'keep.txt'), 'utf8'), 'mine\n');
  });

  it('a repository without a commit says so; a shallow clone works; a bare repository or no Git has none', async () => {
    const empty = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-worktree-empty-')));
    made.push(empty);
    execFileSync(GIT, ['init', '-q'], { cwd: empty });
    const repo = (await repositoryGit(GIT, empty))!;
    assert.deepEqual(await addWorktree(repo, path.join(empty, '..', `${path.basename(empty)}-wt`)), {
      ok: false,
      why: 'the repository has no commit to start from',
    });
    const r = plainRepo();
    made.push(r.base);
    fs.writeFileSync(path.join(r.root, 'a.txt'), 'second\n');
    r.git('commit', '-qam', 'second');
    execFileSync(GIT, ['clone', '-q', '--depth=1', `file://${r.root}`, 'shallow'], { cwd: r.base, stdio: 'ignore' });
    const shallow = (await repositoryGit(GIT, path.join(r.base, 'shallow')))!;
    assert.equal((await addWorktree(shallow, path.join(r.base, 'shallow-wt'))).ok, true);
    assert.equal(fs.readFileSync(path.join(r.base, 'shallow-wt', 'a.txt'), 'utf8'), 'second\n');
    execFileSync(GIT, ['clone', '-q', '--bare', r.root, 'bare.git'], { cwd: r.base, stdio: 'ignore' });
    assert.equal(await repositoryGit(GIT, path.join(r.base, 'bare.git')), undefined);
    assert.equal(await repositoryGit(GIT, os.tmpdir()), undefined);
  });

  it('a repository with programs everywhere (hooks, filters, fsmonitor, a lazy fetch): added and removed, none runs', async () => {
    const r = hostileRepo();
    cleanup.push(r);
    r.takeMarkers();
    const repo = (await repositoryGit(GIT, r.root))!;
    const folder = path.join(r.base, 'wt');
    const added = await addWorktree(repo, folder, { branch: 'agent' });
    assert.equal(added.ok, true, JSON.stringify(added));
    // A filtered file as the repository holds it: its smudge did not run.
    assert.equal(fs.readFileSync(path.join(folder, 'a.f'), 'utf8'), 'a\n');
    await listWorktrees(repo);
    assert.equal(await removeWorktree(repo, folder), true);
    assert.deepEqual(r.takeMarkers(), []);
  });

  // Git 2.39's worktree add does not go into submodules at all; submodule.recurse=false (gitProcess.ts) keeps a later
  // Git from it.
  it("a submodule whose own config has a filter, with submodule.recurse on: the submodule's filter does not run", async () => {
    const r = hostileSubmodule();
    cleanup.push(r);
    r.git('config', 'submodule.recurse', 'true');
    // The submodule's own config (in .git/modules/sub) gets a smudge filter too: a checkout into it would run it.
    const smudge = path.join(r.base, 'bin', 'submodule-smudge');
    fs.writeFileSync(smudge, `#!/bin/sh\n: > '${path.join(r.base, 'markers', 'submodule-smudge')}'\nexec cat\n`, {
      mode: 0o755,
    });
    execFileSync(GIT, ['config', 'filter.evil.smudge', smudge], { cwd: path.join(r.root, 'sub') });
    r.takeMarkers();
    const repo = (await repositoryGit(GIT, r.root))!;
    const folder = path.join(r.base, 'wt');
    assert.equal((await addWorktree(repo, folder)).ok, true);
    assert.equal(fs.readFileSync(path.join(folder, 't.txt'), 'utf8'), 't\n');
    assert.equal(await removeWorktree(repo, folder), true);
    assert.deepEqual(r.takeMarkers(), []);
  });
});
