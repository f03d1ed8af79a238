/**
 * Checkpoints on real files: what a turn changed (created, edited, deleted,
 * binary, huge, ignored), the exact bytes put back, and every refusal that
 * keeps the user's own work: an edit since the agent's, a link swapped in,
 * a hard link, a file that appeared. Nothing outside the folder is touched.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hashOf } from '../../../../src-node/checkpoints/blobStore';
import { WorkspaceCheckpoints } from '../../../../src-node/checkpoints/workspaceCheckpoints';
import type { FileChange } from '../../../../src/shared/changes';
import { isWorkspaceFsError } from '../../../../src-node/workspaceFs';

const LIMITS = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxStoreBytes: 64 * 1024 * 1024 };

interface Sandbox {
  readonly base: string;
  readonly root: string;
  readonly outside: string;
  readonly store: string;
  file(relative: string): string;
  write(relative: string, content: string | Buffer): void;
  cleanup(): void;
}

export function makeCheckpointSandbox(): Sandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  const store = path.join(base, 'store');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  const file = (relative: string) => path.join(root, relative);
  return {
    base,
    root,
    outside,
    store,
    file,
    write: (relative, content) => {
      fs.mkdirSync(path.dirname(file(relative)), { recursive: true });
      fs.writeFileSync(file(relative), content);
    },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** A change as a line: "path: before -> after" with sizes, for exact comparison. */
function shown(changes: readonly FileChange[], root: string): string[] {
  const v = (x: FileChange['before']) => (x ? `${x.size}${x.missing ? ` (${x.missing})` : ''}` : 'none');
  return changes.map((c) => `${path.relative(root, c.path)}: ${v(c.before)} -> ${v(c.after)}`).sort();
}

const isChanged = (e: unknown) => isWorkspaceFsError(e, 'changed');

describe('checkpoints: what a turn changed', function () {
  if (process.platform !== 'linux') return;
  let s: Sandbox;
  let cp: WorkspaceCheckpoints;
  beforeEach(() => {
    s = makeCheckpointSandbox();
    cp = new WorkspaceCheckpoints(s.store, LIMITS);
  });
  afterEach(() => s.cleanup());

  it('lists each file the turn created, edited or deleted, with the exact bytes from before', async () => {
    s.write('src/a.ts', 'export const a = 1;\n');
    s.write('src/gone.ts', 'bye\n');
    s.write('same.txt', 'untouched\n');
    const mark = await cp.beforeTurn([s.root]);
    s.write('src/a.ts', 'export const a = 2;\n');
    s.write('src/new/b.ts', 'new\n');
    fs.rmSync(s.file('src/gone.ts'));
    fs.utimesSync(s.file('same.txt'), new Date(), new Date(2030, 0, 1)); // touched, same bytes: no change
    const changes = await cp.afterTurn(mark);
    assert.deepEqual(shown(changes, s.root), [
      'src/a.ts: 20 -> 20',
      'src/gone.ts: 4 -> none',
      'src/new/b.ts: none -> 4',
    ]);
    const edit = changes.find((c) => c.path === s.file('src/a.ts'))!;
    assert.equal((await cp.copy(edit.before!.hash!)).toString(), 'export const a = 1;\n');
    assert.equal(edit.after!.hash, hashOf(Buffer.from('export const a = 2;\n')));
  });

  it('keeps binary files byte for byte', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 0xc3, 0x28, 10, 13]);
    s.write('img.bin', bytes);
    const mark = await cp.beforeTurn([s.root]);
    s.write('img.bin', Buffer.from([1, 2, 3]));
    const [change] = await cp.afterTurn(mark);
    assert.deepEqual([...(await cp.copy(change.before!.hash!))], [...bytes]);
  });

  it('leaves out what Git ignores (nested rules, re-included names) and .git, and says what it left out', async () => {
    s.write('.gitignore', 'node_modules/\n*.log\nbuild/\n');
    s.write('pkg/.gitignore', '!keep.log\n');
    s.write('.git/HEAD', 'ref: refs/heads/main\n');
    s.write('node_modules/x/index.js', '1');
    s.write('pkg/keep.log', 'kept\n');
    s.write('pkg/drop.log', 'dropped\n');
    const mark = await cp.beforeTurn([s.root]);
    for (const f of [
      '.git/HEAD',
      'node_modules/x/index.js',
      'node_modules/y.js',
      'pkg/keep.log',
      'pkg/drop.log',
      'build/out.js',
    ]) {
      s.write(f, 'changed by the turn\n');
    }
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), ['pkg/keep.log: 5 -> 20']);
    assert.deepEqual([...cp.lastPass(s.root)!.ignored].sort(), ['.git/', 'build/', 'node_modules/', 'pkg/drop.log']);
  });

  it('outside a Git repository, leaves out the folders the setting names, at any depth; in one, only what it ignores', async () => {
    let names = ['node_modules', 'dist'];
    cp = new WorkspaceCheckpoints(s.store, { ...LIMITS, exclude: () => names });
    const files = ['node_modules/x/index.js', 'web/dist/app.js', 'src/dist.ts', 'src/a.ts'];
    for (const f of files) s.write(f, 'before\n');
    let mark = await cp.beforeTurn([s.root]);
    for (const f of files) s.write(f, 'changed by the turn\n');
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), ['src/a.ts: 7 -> 20', 'src/dist.ts: 7 -> 20']);
    assert.deepEqual([...cp.lastPass(s.root)!.ignored].sort(), ['node_modules/', 'web/dist/']);
    // The setting is read at each pass: a name taken out of it is checkpointed from then on.
    names = ['node_modules'];
    mark = await cp.beforeTurn([s.root]);
    s.write('web/dist/app.js', 'again\n');
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), ['web/dist/app.js: 20 -> 6']);
    // Left out again during a turn: its files are not gone, and the turn does not say they were deleted.
    mark = await cp.beforeTurn([s.root]);
    names = ['node_modules', 'dist'];
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), []);
    // In a Git work tree (a .git here or above), a dist the repository keeps is the user's: checkpointed.
    fs.mkdirSync(s.file('.git'));
    mark = await cp.beforeTurn([s.root]);
    s.write('web/dist/app.js', 'in a repository\n');
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), ['web/dist/app.js: 6 -> 16']);
  });

  it('lists a file over the size kept per file without a copy, and says so', async () => {
    cp = new WorkspaceCheckpoints(s.store, { ...LIMITS, maxFileBytes: 1000 });
    s.write('big.bin', Buffer.alloc(5000, 1));
    const mark = await cp.beforeTurn([s.root]);
    s.write('big.bin', Buffer.alloc(6000, 2));
    assert.deepEqual(shown(await cp.afterTurn(mark), s.root), ['big.bin: 5000 (too-large) -> 6000 (too-large)']);
    assert.deepEqual(cp.lastPass(s.root)!.tooLarge, ['big.bin']);
  });

  it('makes no copy past the store size, and says which files have none', async () => {
    cp = new WorkspaceCheckpoints(s.store, { ...LIMITS, maxStoreBytes: 100 });
    s.write('a.txt', 'a'.repeat(80));
    s.write('b.txt', 'b'.repeat(80));
    const mark = await cp.beforeTurn([s.root]);
    assert.equal(cp.lastPass(s.root)!.noRoom.length, 1);
    assert.ok(cp.store.bytes <= 100);
    s.write('a.txt', 'A');
    s.write('b.txt', 'B');
    const missing = (await cp.afterTurn(mark)).filter((c) => c.before?.missing === 'no-room');
    assert.equal(missing.length, 1);
  });

  it('does not follow links: a link to a file or folder outside is not a file of the workspace', async () => {
    fs.writeFileSync(path.join(s.outside, 'secret'), 'secret\n');
    fs.symlinkSync(path.join(s.outside, 'secret'), s.file('link'));
    fs.symlinkSync(s.outside, s.file('dirlink'));
    const mark = await cp.beforeTurn([s.root]);
    fs.writeFileSync(path.join(s.outside, 'secret'), 'changed\n');
    assert.deepEqual(await cp.afterTurn(mark), []);
  });

  it('gives each of two overlapping turns what changed while it ran', async () => {
    s.write('a.txt', 'a');
    const first = await cp.beforeTurn([s.root]);
    s.write('a.txt', 'a1');
    const second = await cp.beforeTurn([s.root]);
    s.write('b.txt', 'b');
    assert.deepEqual(shown(await cp.afterTurn(second), s.root), ['b.txt: none -> 1']);
    assert.deepEqual(shown(await cp.afterTurn(first), s.root), ['a.txt: 1 -> 2', 'b.txt: none -> 1']);
  });

  it('says what changed between two marks without another pass, while neither is released', async () => {
    s.write('a.txt', 'a');
    const start = await cp.beforeTurn([s.root]);
    s.write('a.txt', 'a1');
    const end = await cp.beforeTurn([s.root]);
    s.write('b.txt', 'b');
    const next = await cp.beforeTurn([s.root]);
    cp.release(start);
    assert.deepEqual(shown(cp.between(end, next), s.root), ['b.txt: none -> 1'], 'between turns: only what came after');
    s.write('b.txt', 'bb');
    assert.deepEqual(
      shown(cp.between(end, next), s.root),
      ['b.txt: none -> 1'],
      'no pass: the later change is not seen',
    );
    assert.deepEqual(shown(await cp.afterTurn(next), s.root), ['b.txt: 1 -> 2']);
    cp.release(end);
  });

  it('lists 10,000 files created in one turn', async function () {
    this.timeout(60_000);
    s.write('keep.txt', 'x');
    const mark = await cp.beforeTurn([s.root]);
    for (let i = 0; i < 10_000; i++) s.write(`dist/d${i % 50}/f${i}.js`, `module.exports = ${i};\n`);
    const changes = await cp.afterTurn(mark);
    assert.equal(changes.length, 10_000);
    assert.ok(changes.every((c) => c.before === undefined && c.after?.hash));
    s.cleanup(); // within this test's time: 20,000 files take a while to remove
    s = makeCheckpointSandbox();
  });
});

describe('checkpoints: putting files back', function () {
  if (process.platform !== 'linux') return;
  let s: Sandbox;
  let cp: WorkspaceCheckpoints;
  beforeEach(() => {
    s = makeCheckpointSandbox();
    cp = new WorkspaceCheckpoints(s.store, LIMITS);
  });
  afterEach(() => s.cleanup());

  /** Runs one turn in which `act` changes files; returns its change to `relative`. */
  async function turn(act: () => void, relative: string): Promise<FileChange> {
    const mark = await cp.beforeTurn([s.root]);
    act();
    const change = (await cp.afterTurn(mark)).find((c) => c.path === s.file(relative));
    assert.ok(change, `a change to ${relative}`);
    return change;
  }
  const undo = (c: FileChange) => cp.restore(c.path, c.after?.hash ?? null, c.before?.hash ?? null);

  it('puts back an edited file exactly and whole (new bytes renamed over it), keeping its mode and leaving nothing beside it', async () => {
    s.write('a.txt', 'one\ntwo\n');
    fs.chmodSync(s.file('a.txt'), 0o751);
    const change = await turn(() => s.write('a.txt', 'one\nTWO\nthree\n'), 'a.txt');
    assert.equal(await undo(change), 'restored');
    assert.equal(fs.readFileSync(s.file('a.txt'), 'utf8'), 'one\ntwo\n');
    assert.equal(fs.statSync(s.file('a.txt')).mode & 0o7777, 0o751);
    assert.deepEqual(fs.readdirSync(s.root), ['a.txt'], 'no temporary file left');
    assert.equal(await undo(change), 'already', 'a second undo finds it done');
  });

  it('removes a created file, and brings back a deleted one with its folder', async () => {
    const created = await turn(() => s.write('new.txt', 'new'), 'new.txt');
    assert.equal(await undo(created), 'restored');
    assert.equal(fs.existsSync(s.file('new.txt')), false);
    s.write('deep/er/old.txt', 'old');
    const deleted = await turn(() => fs.rmSync(s.file('deep'), { recursive: true }), 'deep/er/old.txt');
    assert.equal(await undo(deleted), 'restored');
    assert.equal(fs.readFileSync(s.file('deep/er/old.txt'), 'utf8'), 'old');
  });

  it('refuses when the user changed the file since, and leaves it as the user has it', async () => {
    s.write('a.txt', 'before');
    const change = await turn(() => s.write('a.txt', 'agent'), 'a.txt');
    s.write('a.txt', 'user');
    await assert.rejects(
      undo(change),
      (e: Error) =>
        isChanged(e) &&
        e.message === `${JSON.stringify(s.file('a.txt'))} was changed since the agent's change; it was left as it is.`,
    );
    assert.equal(fs.readFileSync(s.file('a.txt'), 'utf8'), 'user');
    const created = await turn(() => s.write('b.txt', 'agent'), 'b.txt');
    s.write('b.txt', 'user');
    await assert.rejects(undo(created), isChanged);
    assert.equal(
      fs.readFileSync(s.file('b.txt'), 'utf8'),
      'user',
      'a created file the user then edited is not removed',
    );
    const deleted = await turn(() => fs.rmSync(s.file('a.txt')), 'a.txt');
    s.write('a.txt', 'user again');
    await assert.rejects(undo(deleted), (e: Error) => isChanged(e) && /was created by someone else/.test(e.message));
    assert.equal(fs.readFileSync(s.file('a.txt'), 'utf8'), 'user again');
  });

  it('never writes through a folder swapped for a link to outside the workspace', async () => {
    s.write('sub/a.txt', 'before');
    const change = await turn(() => s.write('sub/a.txt', 'agent'), 'sub/a.txt');
    fs.writeFileSync(path.join(s.outside, 'a.txt'), 'agent'); // the same bytes the agent left, outside
    fs.rmSync(s.file('sub'), { recursive: true });
    fs.symlinkSync(s.outside, s.file('sub'));
    await assert.rejects(undo(change), (e: Error) => isWorkspaceFsError(e, 'symlink'));
    assert.equal(fs.readFileSync(path.join(s.outside, 'a.txt'), 'utf8'), 'agent');
  });

  it('never writes through a file swapped for a link, nor to a file with another hard link', async () => {
    s.write('a.txt', 'before');
    const change = await turn(() => s.write('a.txt', 'agent'), 'a.txt');
    fs.writeFileSync(path.join(s.outside, 'target'), 'agent');
    fs.rmSync(s.file('a.txt'));
    fs.symlinkSync(path.join(s.outside, 'target'), s.file('a.txt'));
    await assert.rejects(undo(change), (e: Error) => isWorkspaceFsError(e, 'symlink'));
    fs.rmSync(s.file('a.txt'));
    fs.linkSync(path.join(s.outside, 'target'), s.file('a.txt'));
    await assert.rejects(undo(change), (e: Error) => isWorkspaceFsError(e, 'hard-link'));
    assert.equal(fs.readFileSync(path.join(s.outside, 'target'), 'utf8'), 'agent');
  });

  it('refuses paths outside the checkpointed folders', async () => {
    await cp.beforeTurn([s.root]);
    await assert.rejects(
      cp.restore(path.join(s.outside, 'x'), null, null),
      /is not inside a workspace folder with checkpoints/,
    );
    await assert.rejects(
      cp.restore(`${s.root}/../outside/x`, null, null),
      /is not inside a workspace folder with checkpoints|outside/,
    );
  });

  it('refuses a copy that is gone or whose bytes were damaged', async () => {
    s.write('a.txt', 'before');
    const change = await turn(() => s.write('a.txt', 'agent'), 'a.txt');
    const hash = change.before!.hash!;
    await cp.store.flush(); // on disk (a moment after the pass), where it is damaged
    fs.writeFileSync(path.join(s.store, 'blobs', hash.slice(0, 2), hash.slice(2)), 'tampered');
    await assert.rejects(undo(change), /damaged/);
    assert.equal(fs.readFileSync(s.file('a.txt'), 'utf8'), 'agent');
    await assert.rejects(cp.restore(s.file('a.txt'), change.after!.hash!, '../../etc/passwd'), /not kept any more/);
  });

  it('is nearly full at three-quarters of its room, read from a setting each time', async () => {
    let max = 1000;
    cp = new WorkspaceCheckpoints(s.store, { ...LIMITS, maxStoreBytes: () => max });
    s.write('a.txt', 'a'.repeat(700));
    await cp.beforeTurn([s.root]);
    assert.equal(cp.nearlyFull, false);
    max = 900;
    assert.equal(cp.nearlyFull, true);
    s.write('a.txt', 'b'.repeat(700));
    const mark = await cp.beforeTurn([s.root]);
    assert.equal(cp.lastPass(s.root)!.noRoom.length, 1, 'no room for a second copy under 900 bytes');
    cp.release(mark);
    assert.equal(cp.sweep(new Set()), 0, 'the one copy is the file now: kept');
  });

  it('sweeps copies nobody needs, and keeps those a saved chat names', async () => {
    s.write('a.txt', 'v1');
    const change = await turn(() => s.write('a.txt', 'v2'), 'a.txt');
    const v1 = change.before!.hash!;
    assert.equal(cp.sweep(new Set([v1])), 0, 'v1 is kept for the chat, v2 is the file now');
    assert.ok(cp.store.has(v1));
    assert.equal(cp.sweep(new Set()), 2);
    assert.equal(cp.store.has(v1), false);
    assert.ok(cp.store.has(change.after!.hash!));
  });
});

describe('checkpoints: the next window', function () {
  if (process.platform !== 'linux') return;
  let s: Sandbox;
  beforeEach(() => {
    s = makeCheckpointSandbox();
  });
  afterEach(() => s.cleanup());
  const indexFile = () => fs.readdirSync(s.store).find((f) => /^index-[0-9a-f]{16}\.json$/.test(f))!;

  it('takes unchanged files from the index the last window kept, and reads again what changed meanwhile', async () => {
    s.write('a.txt', 'a');
    s.write('b.txt', 'b');
    s.write('c.txt', 'c');
    const last = new WorkspaceCheckpoints(s.store, LIMITS);
    await last.beforeTurn([s.root]);
    await last.store.flush(); // its copies on disk, as when a window closes
    // Proof that the index is used: point a.txt's unchanged stamp at b.txt's copy.
    const file = path.join(s.store, indexFile());
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const row = (name: string) => saved.rows.find((r: unknown[]) => r[0] === name);
    row('a.txt')[5] = row('b.txt')[5];
    fs.writeFileSync(file, JSON.stringify(saved));
    s.write('c.txt', 'c changed while no window was open');
    const next = new WorkspaceCheckpoints(s.store, LIMITS);
    const mark = await next.beforeTurn([s.root]);
    s.write('a.txt', 'agent');
    s.write('c.txt', 'agent');
    const changes = await next.afterTurn(mark);
    const before = async (name: string) =>
      (await next.copy(changes.find((c) => c.path === s.file(name))!.before!.hash!)).toString();
    assert.equal(await before('a.txt'), 'b', 'a.txt was taken from the index');
    assert.equal(await before('c.txt'), 'c changed while no window was open', 'c.txt was read again');
  });

  it('ignores an index that is damaged, of another folder, or names copies that are gone', async () => {
    s.write('a.txt', 'a');
    s.write('b.txt', 'b');
    await new WorkspaceCheckpoints(s.store, LIMITS).beforeTurn([s.root]);
    const file = path.join(s.store, indexFile());
    // Poisoned: a.txt's unchanged stamp names b.txt's copy; any index that is refused leaves a.txt to be read.
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    const row = (name: string) => saved.rows.find((r: unknown[]) => r[0] === name);
    row('a.txt')[5] = row('b.txt')[5];
    const cases = {
      'not JSON': '{',
      'another folder (inode)': JSON.stringify({ ...saved, ino: '1' }),
      'another folder (path)': JSON.stringify({ ...saved, root: '/elsewhere' }),
      'a copy that is gone': JSON.stringify({
        ...saved,
        rows: saved.rows.map((r: unknown[]) => (r[0] === 'a.txt' ? [...r.slice(0, 5), '0'.repeat(64), null] : r)),
      }),
      'a path out of the folder': JSON.stringify({
        ...saved,
        rows: saved.rows.map((r: unknown[]) => (r[0] === 'a.txt' ? ['../a.txt', ...r.slice(1)] : r)),
      }),
    };
    for (const [what, text] of Object.entries(cases)) {
      fs.writeFileSync(file, text);
      const next = new WorkspaceCheckpoints(s.store, LIMITS);
      const mark = await next.beforeTurn([s.root]);
      s.write('a.txt', `changed (${what})`);
      const change = (await next.afterTurn(mark)).find((c) => c.path === s.file('a.txt'))!;
      assert.equal((await next.copy(change.before!.hash!)).toString(), 'a', what);
      s.write('a.txt', 'a');
      await new WorkspaceCheckpoints(s.store, LIMITS).beforeTurn([s.root]);
    }
  });
});
