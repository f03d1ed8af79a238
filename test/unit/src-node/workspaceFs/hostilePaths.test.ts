/**
 * Hostile agent paths against the real file system. Every case runs as a
 * read through the descriptor walk, as a read through the identity-check
 * fallback, and as a write, each in a fresh sandbox, and asserts the exact
 * refusal plus that the canaries outside the root were neither read nor
 * written and that no file appeared outside it. Races live in
 * workspaceFsRaces.test.ts.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  MAX_FILE_BYTES,
  openWorkspaceRoot,
  readTextFile,
  writeTextFile,
  type WorkspaceFsErrorCode,
} from '../../../../src-node/workspaceFs';
import { SECRET, makeSandbox, refusal, type Sandbox } from './workspaceFsCanary.test';

interface HostileCase {
  readonly title: string;
  /** The agent's path; may plant links, FIFOs, ... in the sandbox first. */
  readonly path: (s: Sandbox) => string;
  /** The refusal of a read; null when not a read case. */
  readonly read: WorkspaceFsErrorCode | null;
  /**
   * A write of the same path: a refusal code (default: `read`'s), 'inside'
   * when it is allowed and lands inside the root, null when not a write case.
   */
  readonly write?: WorkspaceFsErrorCode | 'inside' | null;
  /** Runs after the attempt, before the canaries are checked: a further check, or undoing a setup. */
  readonly after?: (s: Sandbox) => void;
}

const inRoot = (s: Sandbox, ...names: string[]) => path.join(s.rootDir, ...names);
const link = (s: Sandbox, name: string, target: string) => fs.symlinkSync(target, inRoot(s, name));
/** A file of `size` bytes that takes no disk space (ftruncate leaves a hole). */
function sparseFile(file: string, size: number): string {
  const fd = fs.openSync(file, 'w');
  fs.ftruncateSync(fd, size);
  fs.closeSync(fd);
  return file;
}
/** Descriptors opened by a case, closed after it. */
const held: number[] = [];

const cases: HostileCase[] = [
  // '..' anywhere is refused before anything is touched.
  { title: "'..' right after the root", path: (s) => `${s.rootDir}/../outside/secret.txt`, read: 'invalid-path' },
  {
    title: "'..' after a folder, climbing out",
    path: (s) => `${s.rootDir}/sub/../../outside/secret.txt`,
    read: 'invalid-path',
  },
  { title: "'..' that would stay inside", path: (s) => `${s.rootDir}/sub/../a.txt`, read: 'invalid-path' },
  { title: "'..' as the last component", path: (s) => `${s.rootDir}/sub/..`, read: 'invalid-path' },
  { title: 'the root followed by ..', path: (s) => `${s.rootDir}/..`, read: 'invalid-path' },
  {
    title: "twenty '..' to /etc/passwd",
    path: (s) => `${s.rootDir}/${'../'.repeat(20)}etc/passwd`,
    read: 'invalid-path',
  },
  { title: "relative path with '..'", path: () => '../outside/secret.txt', read: 'invalid-path' },
  // Absolute paths that are simply somewhere else.
  { title: 'absolute path outside', path: (s) => s.secret, read: 'outside' },
  { title: '/etc/passwd', path: () => '/etc/passwd', read: 'outside' },
  { title: 'sibling folder whose name starts like the root', path: (s) => s.sibling, read: 'outside' },
  { title: '/proc/self/root + the outside path', path: (s) => `/proc/self/root${s.secret}`, read: 'outside' },
  { title: '/proc/self/cwd', path: () => '/proc/self/cwd/package.json', read: 'outside' },
  {
    title: '/proc/<pid>/fd/<n> of an open canary',
    path: (s) => {
      held.push(fs.openSync(s.secret, 'r'));
      return `/proc/${process.pid}/fd/${held[held.length - 1]}`;
    },
    read: 'outside',
  },
  {
    title: '/proc/self/fd/<n>/name through a folder descriptor',
    path: (s) => {
      held.push(fs.openSync(s.outside, 'r'));
      return `/proc/self/fd/${held[held.length - 1]}/secret.txt`;
    },
    read: 'outside',
  },
  { title: '/dev/zero', path: () => '/dev/zero', read: 'outside' },
  { title: 'double slash in front of an outside path', path: (s) => `/${s.secret}`, read: 'outside' },
  { title: 'the root itself', path: (s) => s.rootDir, read: 'not-a-file' },
  // Symlinks, in any position, wherever they point.
  {
    title: 'symlinked file pointing out',
    path: (s) => {
      link(s, 'leak.txt', s.secret);
      return inRoot(s, 'leak.txt');
    },
    read: 'symlink',
  },
  {
    title: 'symlinked folder pointing out',
    path: (s) => {
      link(s, 'out', s.outside);
      return inRoot(s, 'out', 'secret.txt');
    },
    read: 'symlink',
  },
  {
    title: 'symlinked folder deep inside pointing out',
    path: (s) => {
      link(s, 'sub/deep', s.outside);
      return inRoot(s, 'sub', 'deep', 'secret.txt');
    },
    read: 'symlink',
  },
  {
    title: "relative symlink climbing out with '..'",
    path: (s) => {
      link(s, 'sub/up', '../../outside/secret.txt');
      return inRoot(s, 'sub', 'up');
    },
    read: 'symlink',
  },
  {
    title: "symlink to the root's parent",
    path: (s) => {
      link(s, 'parent', '..');
      return inRoot(s, 'parent', 'outside', 'secret.txt');
    },
    read: 'symlink',
  },
  {
    title: 'symlink chain inside -> inside -> out',
    path: (s) => {
      link(s, 'l2', s.secret);
      link(s, 'l1', inRoot(s, 'l2'));
      return inRoot(s, 'l1');
    },
    read: 'symlink',
  },
  {
    title: 'symlink to /proc/self/root',
    path: (s) => {
      link(s, 'proc', '/proc/self/root');
      return inRoot(s, 'proc', s.secret.slice(1));
    },
    read: 'symlink',
  },
  {
    title: 'dangling symlink to a new file outside',
    path: (s) => {
      link(s, 'dangling', path.join(s.outside, 'new.txt'));
      return inRoot(s, 'dangling');
    },
    read: 'symlink',
  },
  {
    title: 'symlink pointing inside (policy: refused too)',
    path: (s) => {
      link(s, 'alias.txt', 'a.txt');
      return inRoot(s, 'alias.txt');
    },
    read: 'symlink',
    after: (s) => assert.equal(fs.readFileSync(inRoot(s, 'a.txt'), 'utf8'), 'inside a\n'),
  },
  {
    title: "'.' components around a linked folder",
    path: (s) => {
      link(s, 'out', s.outside);
      return `${s.rootDir}/./out/./secret.txt`;
    },
    read: 'symlink',
  },
  {
    title: 'double slashes around a linked folder',
    path: (s) => {
      link(s, 'out', s.outside);
      return `${s.rootDir}//out//secret.txt`;
    },
    read: 'symlink',
  },
  // Malformed paths.
  { title: 'relative path', path: () => 'a.txt', read: 'invalid-path' },
  { title: 'empty path', path: () => '', read: 'invalid-path' },
  { title: 'NUL byte', path: (s) => `${s.rootDir}/a.txt\0/../../outside/secret.txt`, read: 'invalid-path' },
  { title: 'component of 256 bytes', path: (s) => inRoot(s, 'x'.repeat(256)), read: 'invalid-path' },
  {
    title: 'component of 128 two-byte characters (256 bytes)',
    path: (s) => inRoot(s, 'é'.repeat(128)),
    read: 'invalid-path',
  },
  {
    title: 'path over 4096 bytes',
    path: (s) => inRoot(s, ...Array<string>(2100).fill('d'), 'f'),
    read: 'invalid-path',
  },
  { title: 'lone surrogate (not valid Unicode)', path: (s) => inRoot(s, 'x\uD800.txt'), read: 'invalid-path' },
  { title: 'trailing slash on a file', path: (s) => `${inRoot(s, 'a.txt')}/`, read: 'invalid-path' },
  {
    title: 'trailing slash on a linked folder',
    path: (s) => {
      link(s, 'out', s.outside);
      return `${inRoot(s, 'out')}/`;
    },
    read: 'invalid-path',
  },
  { title: "trailing '/.'", path: (s) => `${inRoot(s, 'a.txt')}/.`, read: 'invalid-path' },
  // Names that only look like traversal are names.
  // 'no-file': a new file in a folder that exists (read as empty by the chat, written inside).
  {
    title: 'backslashes are not separators',
    path: (s) => inRoot(s, 'sub\\..\\..\\outside\\secret.txt'),
    read: 'no-file',
    write: 'inside',
  },
  {
    title: 'percent-encoded dots are a name',
    path: (s) => inRoot(s, '%2e%2e', 'outside', 'secret.txt'),
    read: 'not-found',
  },
  {
    title: 'U+FFFD does not reach a non-UTF-8 name (a link to a canary)',
    path: (s) => {
      fs.symlinkSync(s.secret, Buffer.concat([Buffer.from(inRoot(s, 'bad')), Buffer.from([0xff])]));
      return inRoot(s, 'bad\uFFFD');
    },
    read: 'no-file',
    write: 'inside',
  },
  // Targets that are not regular files.
  { title: 'a file used as a folder', path: (s) => inRoot(s, 'a.txt', 'secret.txt'), read: 'not-found' },
  { title: 'a folder as the target', path: (s) => inRoot(s, 'sub'), read: 'not-a-file' },
  {
    title: 'a FIFO (must not hang)',
    path: (s) => {
      execFileSync('mkfifo', [inRoot(s, 'pipe')]);
      return inRoot(s, 'pipe');
    },
    read: 'not-a-file',
  },
  {
    title: 'a sparse 17 MiB file',
    path: (s) => sparseFile(inRoot(s, 'huge.bin'), MAX_FILE_BYTES + 1024 * 1024),
    read: 'too-large',
    write: null,
  },
  // Writes that must not happen.
  {
    title: 'write into a missing folder',
    path: (s) => inRoot(s, 'newdir', 'x.txt'),
    read: 'not-found',
    after: (s) => assert.equal(fs.existsSync(inRoot(s, 'newdir')), false, 'a folder was created'),
  },
  {
    title: 'write through a hard link to a canary',
    path: (s) => {
      fs.linkSync(s.secret, inRoot(s, 'hard.txt'));
      s.remember();
      return inRoot(s, 'hard.txt');
    },
    read: null /* reading a hard link is allowed: see requireSingleLink */,
    write: 'hard-link',
  },
  {
    title: 'the root replaced by another real folder (the canaries) after it was opened',
    path: (s) => {
      fs.renameSync(s.rootDir, `${s.rootDir}.moved`);
      fs.renameSync(s.outside, s.rootDir);
      return inRoot(s, 'secret.txt');
    },
    read: 'changed',
    after: (s) => {
      fs.renameSync(s.rootDir, s.outside);
      fs.renameSync(`${s.rootDir}.moved`, s.rootDir);
    },
  },
  {
    title: 'the root replaced by a symlink after it was opened',
    path: (s) => {
      fs.renameSync(s.rootDir, `${s.rootDir}.moved`);
      fs.symlinkSync(s.outside, s.rootDir);
      return inRoot(s, 'secret.txt');
    },
    read: 'changed',
  },
];

describe('hostile agent paths: zero escapes', () => {
  let s: Sandbox;
  beforeEach(async () => {
    s = await makeSandbox();
  });
  afterEach(() => {
    for (const fd of held.splice(0)) fs.closeSync(fd);
    s.cleanup();
  });

  for (const c of cases) {
    describe(c.title, () => {
      for (const strategy of ['walk', 'identity'] as const) {
        const code = c.read;
        if (code === null) continue;
        it(`read (${strategy}): ${code}`, async () => {
          const error = await refusal(readTextFile(s.root, c.path(s), { strategy }));
          assert.equal(error.code, code, error.message);
          c.after?.(s);
          s.assertUntouched();
        });
      }
      const write = c.write === undefined ? c.read : c.write;
      if (write === null) return;
      it(`write: ${write}`, async () => {
        const attempt = writeTextFile(s.root, c.path(s), 'AGENT WROTE THIS');
        if (write === 'inside') await attempt;
        else assert.equal((await refusal(attempt)).code, write);
        c.after?.(s);
        s.assertUntouched();
      });
    });
  }

  it('has at least 30 cases', () => assert.ok(cases.length >= 30, String(cases.length)));
});

describe('hostile paths with /dev as the workspace folder', () => {
  it('refuses devices and the /dev links into /proc', async () => {
    const dev = await openWorkspaceRoot('/dev');
    for (const strategy of ['walk', 'identity'] as const) {
      assert.equal((await refusal(readTextFile(dev, '/dev/zero', { strategy }))).code, 'not-a-file');
      assert.equal((await refusal(readTextFile(dev, '/dev/urandom', { strategy }))).code, 'not-a-file');
      assert.equal((await refusal(readTextFile(dev, '/dev/stdin', { strategy }))).code, 'symlink');
      assert.equal((await refusal(readTextFile(dev, '/dev/fd/0', { strategy }))).code, 'symlink');
    }
    assert.equal((await refusal(writeTextFile(dev, '/dev/null', SECRET))).code, 'not-a-file');
    assert.equal((await refusal(writeTextFile(dev, '/dev/fd/1', SECRET))).code, 'symlink');
  });
});
