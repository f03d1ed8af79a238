/**
 * The workspace file system at its edges: the exact limits, a workspace at
 * "/", '.' in the root's own spelling, the steps an open takes, files that
 * appear or folders that go while a write creates, a file that grows while it
 * is read, deeper paths through the identity check and folders swapped there,
 * a root that went away, and the host probe.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  WorkspaceFsError,
  isWorkspaceFsError,
  openWorkspaceRoot,
  readFileBytes,
  readTextFile,
  writeTextFile,
  type WalkStep,
} from '../../../../src-node/workspaceFs';
import { probeDescriptorWalk } from '../../../../src-node/workspaceFs/walk/descriptorWalk';
import { readAtMost } from '../../../../src-node/workspaceFs/readTextFile';
import { sameFile } from '../../../../src-node/workspaceFs/workspaceRoot';
import { makeSandbox, openDescriptorCount, said, type Sandbox } from './workspaceFsCanary.test';

describe('workspace fs: edges', function () {
  if (process.platform !== 'linux') return;
  let s: Sandbox;
  const file = (...names: string[]) => path.join(s.rootDir, ...names);
  const q = (...names: string[]) => JSON.stringify(file(...names));
  beforeEach(async () => {
    s = await makeSandbox();
  });
  afterEach(() => s.cleanup());

  it('takes a name of exactly 255 bytes and a path of exactly 4095 bytes', async () => {
    const name = `${'é'.repeat(127)}x`; // 255 bytes
    fs.writeFileSync(file(name), 'long name\n');
    assert.equal(await readTextFile(s.root, file(name)), 'long name\n');
    const pad = 4095 - Buffer.byteLength(`${s.rootDir}/`);
    const exact = `${s.rootDir}/${'d/'.repeat(Math.floor((pad - 1) / 2))}${'f'.repeat(pad - 2 * Math.floor((pad - 1) / 2))}`;
    assert.equal(Buffer.byteLength(exact), 4095);
    assert.match(await said(readTextFile(s.root, exact)), /^not-found: /, 'looked up, not refused for its length');
    assert.match(await said(readTextFile(s.root, `${exact}f`)), /^invalid-path: .* is longer than 4095 bytes\.$/);
  });

  it('refuses the workspace folder itself, in every spelling', async () => {
    for (const spelling of [s.rootDir, `${s.base}/./root`, `${s.base}//root`]) {
      assert.equal(
        await said(readTextFile(s.root, spelling)),
        `not-a-file: ${JSON.stringify(spelling)} is the workspace folder itself, not a file.`,
      );
    }
  });

  it('drops "." in the spelling of the root too', async () => {
    assert.equal(await readTextFile(s.root, `${s.base}/./root/a.txt`), 'inside a\n');
    assert.equal(await readTextFile(s.root, `${s.base}//root/./sub//b.txt`), 'inside b\n');
  });

  it('works with "/" as the workspace folder, naming paths as they are', async () => {
    const root = await openWorkspaceRoot('/');
    assert.equal(await readTextFile(root, file('a.txt')), 'inside a\n');
    assert.equal(await said(readTextFile(root, file('missing.txt'))), `no-file: ${q('missing.txt')} does not exist.`);
    assert.equal(
      await said(readTextFile(root, file('missing.txt'), { strategy: 'identity' })),
      `no-file: ${q('missing.txt')} does not exist.`,
    );
  });

  it('tells its hook each step: every lookup, then the open of the file', async () => {
    const steps: WalkStep[] = [];
    const onStep = (step: WalkStep) => void steps.push(step);
    await readTextFile(s.root, file('sub', 'b.txt'), { onStep });
    await writeTextFile(s.root, file('sub', 'b.txt'), 'rewritten\n', { onStep });
    await writeTextFile(s.root, file('sub', 'new.txt'), 'new\n', { onStep });
    await readTextFile(s.root, file('sub', 'b.txt'), { onStep, strategy: 'identity' });
    const walk = (name: string) => [
      { phase: 'lookup', index: 0, name: 'sub' },
      { phase: 'lookup', index: 1, name },
      { phase: 'open', index: 1, name },
    ];
    assert.deepEqual(steps, [...walk('b.txt'), ...walk('b.txt'), ...walk('new.txt'), ...walk('b.txt')]);
  });

  it('says what happened when a new file appears, or its folder goes, while it is created', async () => {
    const appear = (step: WalkStep) =>
      void (step.phase === 'open' && fs.writeFileSync(file('sub', 'new.txt'), 'theirs\n'));
    assert.equal(
      await said(writeTextFile(s.root, file('sub', 'new.txt'), 'ours\n', { onStep: appear })),
      `changed: ${q('sub', 'new.txt')} was created by something else while it was being written; nothing was written.`,
    );
    assert.equal(fs.readFileSync(file('sub', 'new.txt'), 'utf8'), 'theirs\n');
    fs.mkdirSync(file('gone'));
    const remove = (step: WalkStep) => void (step.phase === 'open' && fs.rmdirSync(file('gone')));
    assert.equal(
      await said(writeTextFile(s.root, file('gone', 'new.txt'), 'ours\n', { onStep: remove })),
      `not-found: ${q('gone', 'new.txt')} does not exist. Folders are not created.`,
    );
  });

  it('closes every descriptor it opens, reads of bytes included', async () => {
    const before = openDescriptorCount();
    for (let i = 0; i < 20; i++) await readFileBytes(s.root, file('a.txt'), 1024);
    assert.equal(openDescriptorCount(), before);
    for (let i = 0; i < 5; i++) probeDescriptorWalk();
    assert.equal(openDescriptorCount(), before, 'the host probe too');
  });

  it('finds the descriptor walk on this host (Linux with /proc)', () => {
    assert.equal(probeDescriptorWalk(), fs.existsSync('/proc/self/fd'));
  });

  it('reads deeper paths through the identity check, and refuses a folder on the way swapped after the check', async () => {
    fs.mkdirSync(file('sub', 'deeper'));
    fs.writeFileSync(file('sub', 'deeper', 'c.txt'), 'deep\n');
    assert.equal(await readTextFile(s.root, file('sub', 'deeper', 'c.txt'), { strategy: 'identity' }), 'deep\n');
    const swap = (make: () => void) => (step: WalkStep) => void (step.phase === 'open' && make());
    const expected = `changed: ${q('sub', 'deeper')} changed while it was being opened; nothing was read.`;
    // For a symlink to where it went: the same file is reached, the folder on the way is not the one checked.
    const toLink = () => {
      fs.renameSync(file('sub', 'deeper'), file('sub', 'moved'));
      fs.symlinkSync(file('sub', 'moved'), file('sub', 'deeper'));
    };
    assert.equal(
      await said(readTextFile(s.root, file('sub', 'deeper', 'c.txt'), { strategy: 'identity', onStep: swap(toLink) })),
      expected,
    );
    // For another folder holding the same file (a hard link): no link anywhere, and still not the folder checked.
    fs.rmSync(file('sub', 'deeper'));
    fs.renameSync(file('sub', 'moved'), file('sub', 'deeper'));
    const toOther = () => {
      fs.mkdirSync(file('sub', 'other'));
      fs.linkSync(file('sub', 'deeper', 'c.txt'), file('sub', 'other', 'c.txt'));
      fs.renameSync(file('sub', 'deeper'), file('sub', 'old'));
      fs.renameSync(file('sub', 'other'), file('sub', 'deeper'));
    };
    assert.equal(
      await said(readTextFile(s.root, file('sub', 'deeper', 'c.txt'), { strategy: 'identity', onStep: swap(toOther) })),
      expected,
    );
  });

  it('says a folder became a file when that happens before the last name is looked up (identity)', async () => {
    const toFile = (step: WalkStep) =>
      void (
        step.phase === 'lookup' &&
        step.index === 1 &&
        (fs.renameSync(file('sub'), file('sub.old')), fs.writeFileSync(file('sub'), 'x'))
      );
    assert.equal(
      await said(readTextFile(s.root, file('sub', 'b.txt'), { strategy: 'identity', onStep: toFile })),
      `not-found: ${q('sub', 'b.txt')} does not exist: a folder on its path is a file.`,
    );
  });

  for (const strategy of ['walk', 'identity'] as const) {
    it(`refuses every request once the workspace folder was moved away or replaced (${strategy})`, async () => {
      const expected = `changed: The workspace folder ${JSON.stringify(s.rootDir)} was moved, removed or replaced; reopen it.`;
      fs.renameSync(s.rootDir, `${s.rootDir}.moved`);
      assert.equal(await said(readTextFile(s.root, file('a.txt'), { strategy })), expected);
      fs.mkdirSync(s.rootDir);
      fs.writeFileSync(file('a.txt'), 'impostor\n');
      assert.equal(await said(readTextFile(s.root, file('a.txt'), { strategy })), expected);
      fs.rmSync(s.rootDir, { recursive: true });
      fs.renameSync(`${s.rootDir}.moved`, s.rootDir);
    });
  }
});

describe('workspace fs: reading a file that changes size', () => {
  /** A file handle whose stat says `size` and whose reads give `content` in pieces of at most 7 bytes. */
  function handle(size: number, content: Buffer) {
    let at = 0;
    return {
      stat: async () => ({ size }),
      read: async (buffer: Buffer, offset: number, length: number) => {
        const n = Math.min(length, 7, content.length - at);
        content.copy(buffer, offset, at, at + n);
        at += n;
        return { bytesRead: n, buffer };
      },
    } as never;
  }
  const text = (n: number) => Buffer.from('x'.repeat(n));

  it('reads what is there when the size said less (0, as for /proc files) or more', async () => {
    assert.equal((await readAtMost(handle(0, text(50)), '"f"', 100)).length, 50);
    assert.equal((await readAtMost(handle(10, text(95)), '"f"', 100)).length, 95);
    assert.equal((await readAtMost(handle(100, text(100)), '"f"', 100)).length, 100);
    assert.equal((await readAtMost(handle(60, text(20)), '"f"', 100)).length, 20);
  });

  it('refuses, with the size, a file over the cap, and says one grew past it while read', async () => {
    const MiB = 1024 * 1024;
    await assert.rejects(
      readAtMost(handle(3 * MiB, text(0)), '"f"', 2 * MiB),
      (e: unknown) =>
        e instanceof WorkspaceFsError &&
        e.code === 'too-large' &&
        e.message === '"f" is 3.0 MiB; files over 2.0 MiB are not read.',
    );
    await assert.rejects(
      readAtMost(handle(0, text(101)), '"f"', 100),
      (e: unknown) => e instanceof WorkspaceFsError && e.message === '"f" grew; files over 0.0 MiB are not read.',
    );
    await assert.rejects(
      readAtMost(handle(100, text(101)), '"f"', 100),
      (e: unknown) => e instanceof WorkspaceFsError && e.code === 'too-large',
    );
  });
});

describe('workspace fs: identities and error checks', () => {
  it('takes two files as the same only with both device and inode equal', () => {
    assert.equal(sameFile({ dev: 1n, ino: 5n }, { dev: 1n, ino: 5n }), true);
    assert.equal(sameFile({ dev: 1n, ino: 5n }, { dev: 2n, ino: 5n }), false);
    assert.equal(sameFile({ dev: 1n, ino: 5n }, { dev: 1n, ino: 6n }), false);
  });

  it('tells its own errors apart, by code when asked', () => {
    const e = new WorkspaceFsError('io', 'x');
    assert.equal(isWorkspaceFsError(e), true);
    assert.equal(isWorkspaceFsError(e, 'io'), true);
    assert.equal(isWorkspaceFsError(e, 'outside'), false);
    assert.equal(isWorkspaceFsError(new Error('x')), false);
    assert.equal(isWorkspaceFsError(Object.assign(new Error('x'), { code: 'io' }), 'io'), false);
  });
});
