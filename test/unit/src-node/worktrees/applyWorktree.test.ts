/**
 * Apply to my workspace (src-node/worktrees/applyWorktree.ts) with real repositories and worktrees: the agent's
 * changes since the worktree began land in the user's tree as unstaged changes (edits, a new file, a deletion); a
 * file the user changed elsewhere is merged, one changed on the same lines is a conflict left untouched with its
 * three versions; a link the agent made to a file outside is not followed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FolderGit } from '../../../../src-node/checkpoints/gitProcess';
import { applyWorktree, changedInWorktree } from '../../../../src-node/worktrees/applyWorktree';
import { addWorktree } from '../../../../src-node/worktrees/worktreeGit';
import { openWorkspaceRoot } from '../../../../src-node/workspaceFs/workspaceRoot';
import { GIT, plainGit } from '../checkpoints/hostileRepo';

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;
const LIMITS = { maxFileBytes: 1024 * 1024, maxFiles: 100 };

async function setUp() {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-apply-')));
  const root = path.join(base, 'ws');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  const git = (...args: string[]) => plainGit(root, args);
  git('init', '-q');
  fs.writeFileSync(path.join(root, 'a.txt'), text(LINES));
  fs.writeFileSync(path.join(root, 'src', 'b.ts'), 'export const b = 1;\n');
  fs.writeFileSync(path.join(root, 'c.txt'), 'c\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  const repo = (await FolderGit.open(GIT, root))!;
  const folder = path.join(base, 'wt');
  const added = await addWorktree(repo, folder);
  assert.ok(added.ok);
  const apply = async () => {
    const worktree = { git: (await FolderGit.open(GIT, folder))!, root: await openWorkspaceRoot(folder) };
    const paths = await changedInWorktree(worktree.git, added.head);
    assert.ok(paths);
    return applyWorktree(worktree, added.head, await openWorkspaceRoot(root), paths, LIMITS);
  };
  return { base, root, folder, git, apply };
}

describe('Apply to my workspace (a worktree’s changes into the user’s tree)', function () {
  this.timeout(30_000);
  let base = '';
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('edits, a new file and a deletion land as unstaged changes; the index is not touched', async () => {
    const t = await setUp();
    base = t.base;
    const edited = LINES.map((l, i) => (i === 5 ? 'line 6, by the agent' : l));
    fs.writeFileSync(path.join(t.folder, 'a.txt'), text(edited));
    fs.writeFileSync(path.join(t.folder, 'src', 'new.ts'), 'export const n = 2;\n');
    fs.rmSync(path.join(t.folder, 'src', 'b.ts'));
    const applied = await t.apply();
    assert.deepEqual(
      applied.map((a) => [a.path, a.outcome]),
      [
        ['a.txt', 'applied'],
        ['src/b.ts', 'applied'],
        ['src/new.ts', 'applied'],
      ],
    );
    assert.equal(fs.readFileSync(path.join(t.root, 'a.txt'), 'utf8'), text(edited));
    assert.equal(fs.existsSync(path.join(t.root, 'src', 'b.ts')), false);
    assert.equal(fs.readFileSync(path.join(t.root, 'src', 'new.ts'), 'utf8'), 'export const n = 2;\n');
    assert.equal(t.git('status', '--porcelain').trimEnd(), ' M a.txt\n D src/b.ts\n?? src/new.ts');
    // Applied again: nothing left to do.
    assert.deepEqual(
      (await t.apply()).map((a) => a.outcome),
      ['same', 'same', 'same'],
    );
  });

  it("the user's own change elsewhere in the file is kept beside the agent's; the same lines are a conflict", async () => {
    const t = await setUp();
    base = t.base;
    fs.writeFileSync(path.join(t.folder, 'a.txt'), text(LINES.map((l, i) => (i === 1 ? 'line 2, agent' : l))));
    fs.writeFileSync(path.join(t.folder, 'c.txt'), 'c, agent\n');
    fs.writeFileSync(path.join(t.root, 'a.txt'), text(LINES.map((l, i) => (i === 10 ? 'line 11, user' : l))));
    fs.writeFileSync(path.join(t.root, 'c.txt'), 'c, user\n');
    const applied = await t.apply();
    assert.deepEqual(
      applied.map((a) => [a.path, a.outcome, 'why' in a ? a.why : '']),
      [
        ['a.txt', 'merged', ''],
        ['c.txt', 'conflict', 'you and the agent changed the same lines'],
      ],
    );
    assert.equal(
      fs.readFileSync(path.join(t.root, 'a.txt'), 'utf8'),
      text(LINES.map((l, i) => (i === 1 ? 'line 2, agent' : i === 10 ? 'line 11, user' : l))),
    );
    assert.equal(fs.readFileSync(path.join(t.root, 'c.txt'), 'utf8'), 'c, user\n', "the user's is left as it is");
    const conflict = applied[1]!;
    assert.ok(conflict.outcome === 'conflict');
    assert.deepEqual(
      [conflict.versions.start, conflict.versions.yours, conflict.versions.agents].map((b) =>
        b === null ? null : Buffer.from(b).toString('utf8'),
      ),
      ['c\n', 'c, user\n', 'c, agent\n'],
    );
  });

  it("carries the user's uncommitted changes into a new worktree when asked (the same step, the other way)", async () => {
    const t = await setUp();
    base = t.base;
    fs.writeFileSync(path.join(t.root, 'c.txt'), 'c, unsaved work\n');
    fs.writeFileSync(path.join(t.root, 'notes.md'), 'mine\n');
    const user = { git: (await FolderGit.open(GIT, t.root))!, root: await openWorkspaceRoot(t.root) };
    const head = t.git('rev-parse', 'HEAD').trim();
    const paths = await changedInWorktree(user.git, head);
    assert.deepEqual(paths, ['c.txt', 'notes.md']);
    const carried = await applyWorktree(user, head, await openWorkspaceRoot(t.folder), paths!, LIMITS);
    assert.deepEqual(
      carried.map((a) => [a.path, a.outcome]),
      [
        ['c.txt', 'applied'],
        ['notes.md', 'applied'],
      ],
    );
    assert.equal(fs.readFileSync(path.join(t.folder, 'c.txt'), 'utf8'), 'c, unsaved work\n');
    assert.equal(fs.readFileSync(path.join(t.folder, 'notes.md'), 'utf8'), 'mine\n');
    assert.equal(fs.readFileSync(path.join(t.root, 'c.txt'), 'utf8'), 'c, unsaved work\n', "the user's stays");
  });

  it('a link the agent made to a file outside is not followed: that file fails, the others apply', async () => {
    const t = await setUp();
    base = t.base;
    fs.writeFileSync(path.join(t.base, 'secret.txt'), 'not the workspace’s\n');
    fs.symlinkSync(path.join(t.base, 'secret.txt'), path.join(t.folder, 'leak.txt'));
    fs.writeFileSync(path.join(t.folder, 'c.txt'), 'c, agent\n');
    const applied = await t.apply();
    assert.deepEqual(
      applied.map((a) => [a.path, a.outcome]),
      [
        ['c.txt', 'applied'],
        ['leak.txt', 'failed'],
      ],
    );
    assert.equal(fs.existsSync(path.join(t.root, 'leak.txt')), false);
  });
});
