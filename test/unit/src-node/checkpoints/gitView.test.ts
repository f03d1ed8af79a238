/**
 * What the user's `git` says of a folder (gitView.ts), on real repositories made with it: blob ids of tracked
 * files, what differs from the index, what is untracked, what Git converts, what is left out (links, sparse
 * entries), a folder inside a repository, and every case where Git cannot say (no repository, no `git`, a corrupt
 * index, our own GIT_DIR): undefined, never a wrong answer. Blobs read back byte for byte.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { blobId, catBatch, readBlobs, readGitView } from '../../../../src-node/checkpoints/gitView';
import { FolderGit } from '../../../../src-node/checkpoints/gitProcess';
import { GIT, plainGit } from './hostileRepo';

function repo(): { dir: string; git: (...args: string[]) => string; write: (p: string, c: string | Buffer) => void } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-git-view-')));
  const git = (...args: string[]) => plainGit(dir, args);
  const write = (p: string, c: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), c);
  };
  git('init', '-q');
  return { dir, git, write };
}

describe("checkpoints: what Git says of a folder (the user's git)", function () {
  this.timeout(20_000);
  const made: string[] = [];
  const fresh = () => {
    const r = repo();
    made.push(r.dir);
    return r;
  };
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  /** A repository with `files` committed. */
  const committed = (files: Record<string, string>) => {
    const r = fresh();
    for (const [p, c] of Object.entries(files)) r.write(p, c);
    r.git('add', '-A');
    r.git('commit', '-qm', 'x');
    return r;
  };

  it('tracked files by blob id; modified, deleted and staged; untracked but not ignored; nothing converted', async () => {
    const { dir, git, write } = fresh();
    write('.gitignore', 'build/\n');
    write('a.ts', 'one\n');
    write('src/b.ts', 'two\n');
    write('c.ts', 'three\n');
    git('add', '-A');
    git('commit', '-qm', 'x');
    write('a.ts', 'one, edited\n');
    fs.rmSync(path.join(dir, 'c.ts'));
    write('src/b.ts', 'two, staged\n');
    git('add', 'src/b.ts');
    write('new.ts', 'new\n');
    write('build/out.js', 'ignored\n');
    const view = await readGitView(GIT, dir);
    assert.ok(view);
    assert.equal(view.objectFormat, 'sha1');
    assert.equal(view.tracked.get('a.ts'), blobId(Buffer.from('one\n'), 'sha1'), 'the index has the committed a.ts');
    assert.equal(view.tracked.get('src/b.ts'), blobId(Buffer.from('two, staged\n'), 'sha1'), 'and the staged b.ts');
    assert.deepEqual([...view.dirty].sort(), ['a.ts', 'c.ts']);
    assert.deepEqual([...view.untracked], ['new.ts']);
    assert.deepEqual([...view.converted], []);
    assert.equal(view.tracked.get('a.ts'), git('rev-parse', ':a.ts').trim(), 'the id is what git says');
  });

  it('line-ending conversion or attributes: the files Git converts are named', async () => {
    const crlf = committed({ 'a.txt': 'x\n' });
    crlf.git('config', 'core.autocrlf', 'true');
    assert.deepEqual([...(await readGitView(GIT, crlf.dir))!.converted], ['a.txt']);

    const attrs = committed({
      '.gitattributes': '*.txt text eol=crlf\n*.bin -text\n*.f filter=mine\n',
      'a.txt': 'x\n',
      'b.bin': 'y\n',
      'c.f': 'z\n',
      'd.md': 'w\n',
    });
    const view = await readGitView(GIT, attrs.dir);
    assert.deepEqual([...view!.converted].sort(), ['a.txt', 'c.f']);
  });

  it('autocrlf as Git reads it ("yes", "on", "1", no value: true; "false", "off": not) and attributes above the folder', async () => {
    for (const [value, converts] of [
      ['yes', true],
      ['on', true],
      ['1', true],
      ['input', true],
      ['off', false],
      ['false', false],
    ] as const) {
      const r = committed({ 'a.txt': 'x\n' });
      r.git('config', 'core.autocrlf', value);
      assert.deepEqual([...(await readGitView(GIT, r.dir))!.converted], converts ? ['a.txt'] : [], value);
    }
    const bare = committed({ 'a.txt': 'x\n' });
    fs.appendFileSync(path.join(bare.dir, '.git', 'config'), '[core]\n\tautocrlf\n');
    assert.deepEqual([...(await readGitView(GIT, bare.dir))!.converted], ['a.txt'], 'a key without a value is true');

    // The workspace folder is a subfolder; the attributes are at the repository's top.
    const top = committed({ '.gitattributes': '* text=auto eol=crlf\n', 'sub/a.txt': 'x\n', 'sub/b.bin': 'y\0\n' });
    assert.deepEqual([...(await readGitView(GIT, path.join(top.dir, 'sub')))!.converted].sort(), ['a.txt', 'b.bin']);
  });

  it('links and sparse-checkout entries are not files here; a folder inside a repository sees its own paths', async () => {
    const { dir, git, write } = fresh();
    write('keep/a.ts', 'a\n');
    write('skip/b.ts', 'b\n');
    fs.symlinkSync('keep/a.ts', path.join(dir, 'link.ts'));
    git('add', '-A');
    git('commit', '-qm', 'x');
    git('sparse-checkout', 'set', '--no-cone', '/keep/', '/link.ts');
    const view = await readGitView(GIT, dir);
    assert.deepEqual([...view!.tracked.keys()], ['keep/a.ts']);
    assert.deepEqual([...view!.dirty], []);
    write('keep/a.ts', 'a, edited\n');
    write('keep/new.ts', 'n\n');
    const inner = await readGitView(GIT, path.join(dir, 'keep'));
    assert.deepEqual([...inner!.tracked.keys()], ['a.ts']);
    assert.deepEqual([...inner!.dirty], ['a.ts']);
    assert.deepEqual([...inner!.untracked], ['new.ts']);
  });

  it('a shallow clone is read like any other', async () => {
    const { dir, git, write } = fresh();
    write('a.ts', 'a\n');
    git('add', '-A');
    git('commit', '-qm', 'one');
    write('a.ts', 'a2\n');
    git('commit', '-qam', 'two');
    const clone = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-git-shallow-')));
    made.push(clone);
    execFileSync(GIT, ['clone', '-q', '--depth', '1', `file://${dir}`, clone], { stdio: 'ignore' });
    const view = await readGitView(GIT, clone);
    assert.equal(view!.tracked.get('a.ts'), blobId(Buffer.from('a2\n'), 'sha1'));
  });

  it('no answer where Git cannot say: no repository, no git, a corrupt index; our own GIT_DIR is not followed', async () => {
    const plain = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-git-none-')));
    made.push(plain);
    assert.equal(await readGitView(GIT, plain), undefined, 'not a repository');
    const { dir, git, write } = fresh();
    write('a.ts', 'a\n');
    git('add', '-A');
    git('commit', '-qm', 'x');
    assert.equal(await readGitView(path.join(dir, 'no-such-git'), dir), undefined, 'no git');
    const other = fresh();
    process.env.GIT_DIR = path.join(other.dir, '.git');
    try {
      assert.ok((await readGitView(GIT, dir))?.tracked.has('a.ts'), 'GIT_DIR of our own environment is not used');
    } finally {
      delete process.env.GIT_DIR;
    }
    fs.writeFileSync(path.join(dir, '.git', 'index'), Buffer.from('DIRC garbage'));
    assert.equal(await readGitView(GIT, dir), undefined, 'a corrupt index');
  });

  it('reads blobs back byte for byte, each checked against its id; one Git does not have is left out', async () => {
    const { dir, git, write } = fresh();
    const bytes = Buffer.from([0, 1, 2, 0x0a, 0xff, 0x0d, 0x0a]);
    write('bin.dat', bytes);
    write('t.txt', 'text\n');
    git('add', '-A');
    git('commit', '-qm', 'x');
    const ids = [blobId(bytes, 'sha1'), blobId(Buffer.from('text\n'), 'sha1'), 'f'.repeat(40)];
    const found = await readBlobs(GIT, dir, ids, 'sha1');
    assert.deepEqual(found.get(ids[0]!), bytes);
    assert.equal(found.get(ids[1]!)?.toString(), 'text\n');
    assert.equal(found.has(ids[2]!), false);
  });

  it('reads files at a commit in one batch, by position: a name with spaces, one missing, a folder (no blob)', async () => {
    const r = committed({ 'a b.txt': 'spaced\n', 'dir/c.txt': 'c\n' });
    const git = (await FolderGit.open(GIT, r.dir))!;
    const answers = await catBatch(git, ['HEAD:a b.txt', 'HEAD:nope.txt', 'HEAD:dir', 'HEAD:dir/c.txt']);
    assert.deepEqual(
      answers.map((a) => a?.toString()),
      ['spaced\n', undefined, undefined, 'c\n'],
    );
  });
});
