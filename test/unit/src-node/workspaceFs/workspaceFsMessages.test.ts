/**
 * What the workspace file system says when it refuses: the message is shown
 * to the user and sent back to the agent as is, so each case is checked
 * word for word (its code too), on real files, through both openers.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { openWorkspaceRoot, readFileBytes, readTextFile, writeTextFile } from '../../../../src-node/workspaceFs';
import { fromSystemError, quote } from '../../../../src-node/workspaceFs/errors';
import { describeKind } from '../../../../src-node/workspaceFs/walk/fileKind';
import { selectLines } from '../../../../src-node/workspaceFs/lines';
import { makeSandbox, said, type Sandbox } from './workspaceFsCanary.test';

describe('workspace fs: what each refusal says', function () {
  if (process.platform !== 'linux') return;
  let s: Sandbox;
  let q: (...names: string[]) => string;
  const file = (...names: string[]) => path.join(s.rootDir, ...names);
  beforeEach(async () => {
    s = await makeSandbox();
    q = (...names) => JSON.stringify(file(...names));
  });
  afterEach(() => s.cleanup());

  it('names the path and what is wrong with it, before anything is touched', async () => {
    const read = (p: unknown) => said(readTextFile(s.root, p as string));
    assert.equal(await read(''), 'invalid-path: The path is empty.');
    assert.equal(await read(42), 'invalid-path: The path is empty.');
    assert.equal(
      await read(`${s.rootDir}/a\0b`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/a\0b`)} contains a NUL character.`,
    );
    assert.equal(
      await read(`${s.rootDir}/\ud800`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/\ud800`)} is not valid Unicode (it has a lone surrogate).`,
    );
    assert.equal(await read('a.txt'), 'invalid-path: "a.txt" is relative; paths must be absolute.');
    const long = `${s.rootDir}/${'d/'.repeat(2100)}f`;
    assert.equal(await read(long), `invalid-path: ${quote(long)} is longer than 4095 bytes.`);
    assert.equal(
      await read(`${s.rootDir}/sub/../a.txt`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/sub/../a.txt`)} contains '..'; send the path without it.`,
    );
    assert.equal(
      await read(`${s.rootDir}/${'n'.repeat(256)}`),
      `invalid-path: ${quote(file('n'.repeat(256)))} has a name longer than 255 bytes.`,
    );
    assert.equal(
      await read(`${s.rootDir}/sub/`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/sub/`)} ends with '/' and names a folder; name a file.`,
    );
    assert.equal(
      await read(`${s.rootDir}/sub/.`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/sub/.`)} ends with '/' and names a folder; name a file.`,
    );
    assert.equal(
      await read(s.secret),
      `outside: ${JSON.stringify(s.secret)} is outside the workspace folder ${JSON.stringify(s.rootDir)}.`,
    );
    assert.equal(
      await read(`${s.rootDir}/.`),
      `invalid-path: ${JSON.stringify(`${s.rootDir}/.`)} ends with '/' and names a folder; name a file.`,
    );
    // Empty and '.' names in the middle mean nothing: dropped, not refused.
    assert.equal(await readTextFile(s.root, `${s.rootDir}//sub/./b.txt`), 'inside b\n');
  });

  for (const strategy of ['walk', 'identity'] as const) {
    it(`says what it found instead of a file (${strategy})`, async () => {
      const read = (...names: string[]) => said(readTextFile(s.root, file(...names), { strategy }));
      fs.symlinkSync(file('a.txt'), file('link'));
      fs.symlinkSync(file('sub'), file('folder-link'));
      execFileSync('mkfifo', [file('fifo')]);
      assert.equal(await read('missing.txt'), `no-file: ${q('missing.txt')} does not exist.`);
      assert.equal(await read('missing', 'x.txt'), `not-found: ${q('missing')} does not exist.`);
      assert.equal(await read('a.txt', 'x.txt'), `not-found: ${q('a.txt')} is not a folder (it is a file).`);
      assert.equal(await read('sub'), `not-a-file: ${q('sub')} is a folder, not a regular file.`);
      assert.equal(
        await read('link'),
        `symlink: ${q('link')} is a symbolic link; links are not followed (use the path of the file itself, inside the workspace folder).`,
      );
      assert.equal(
        await read('folder-link', 'b.txt'),
        `symlink: ${q('folder-link')} is a symbolic link; links are not followed (use the path of the file itself, inside the workspace folder).`,
      );
      const server = net.createServer();
      await new Promise<void>((r) => server.listen(file('socket'), r));
      try {
        assert.equal(await read('socket'), `not-a-file: ${q('socket')} is a socket, not a regular file.`);
      } finally {
        server.close();
      }
      assert.equal(await read('fifo'), `not-a-file: ${q('fifo')} is a FIFO (named pipe), not a regular file.`);
    });
  }

  it('says how large a file is when it is too large, and when it grew while read', async () => {
    const big = file('big.bin');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 20 * 1024 * 1024);
    assert.equal(
      await said(readTextFile(s.root, big)),
      `too-large: ${q('big.bin')} is 20.0 MiB; files over 16.0 MiB are not read.`,
    );
    assert.equal(
      await said(readFileBytes(s.root, file('a.txt'), 4)),
      `too-large: ${q('a.txt')} is 0.0 MiB; files over 0.0 MiB are not read.`,
    );
    assert.equal(
      await said(writeTextFile(s.root, file('out.txt'), 'x'.repeat(17 * 1024 * 1024))),
      `too-large: The content for ${q('out.txt')} is 17.0 MiB; at most 16.0 MiB is written.`,
    );
  });

  it('refuses a line or limit with the value it got', async () => {
    for (const [bad, shown] of [
      [-1, '-1'],
      [1.5, '1.5'],
      [Number.NaN, 'null'],
      [2 ** 53, '9007199254740992'],
    ] as const) {
      assert.equal(
        await said(readTextFile(s.root, file('a.txt'), { line: bad })),
        `invalid-range: \`line\` must be a whole number of 0 or more, not ${shown}.`,
      );
      assert.equal(
        await said(readTextFile(s.root, file('a.txt'), { limit: bad })),
        `invalid-range: \`limit\` must be a whole number of 0 or more, not ${shown}.`,
      );
    }
  });

  it('says why a write was refused: a hard link, a missing folder', async () => {
    fs.linkSync(file('a.txt'), file('twin.txt'));
    assert.equal(
      await said(writeTextFile(s.root, file('twin.txt'), 'x')),
      `hard-link: ${q('twin.txt')} has 2 hard links; writing would change the other copies too, so it was not written.`,
    );
    assert.equal(
      await said(writeTextFile(s.root, file('nope', 'x.txt'), 'x')),
      `not-found: ${q('nope')} does not exist. Folders are not created.`,
    );
    assert.equal(
      await said(writeTextFile(s.root, file('a.txt', 'x.txt'), 'x')),
      `not-found: ${q('a.txt')} is not a folder (it is a file). Folders are not created.`,
    );
  });

  it('says what is wrong with a workspace folder', async () => {
    assert.equal(
      await said(openWorkspaceRoot('root')),
      'invalid-path: The workspace folder "root" is not an absolute path.',
    );
    assert.equal(
      await said(openWorkspaceRoot(`${s.rootDir}\0`)),
      `invalid-path: The workspace folder ${JSON.stringify(`${s.rootDir}\0`)} is not an absolute path.`,
    );
    assert.equal(
      await said(openWorkspaceRoot(file('a.txt'))),
      `not-a-file: The workspace folder ${q('a.txt')} is not a folder.`,
    );
    assert.equal(await said(openWorkspaceRoot(file('missing'))), `not-found: ${q('missing')} does not exist.`);
    const odd = Buffer.concat([Buffer.from(`${s.base}/`), Buffer.from([0x80])]);
    fs.mkdirSync(odd);
    fs.symlinkSync(odd, path.join(s.base, 'odd'));
    assert.equal(
      await said(openWorkspaceRoot(path.join(s.base, 'odd'))),
      `invalid-path: The workspace folder ${JSON.stringify(`${s.base}/\ufffd`)} has a name that is not valid UTF-8.`,
    );
  });

  it('keeps the spelling a folder was opened by, without a trailing slash, unless it has ".."', async () => {
    fs.symlinkSync(s.rootDir, path.join(s.base, 'alias'));
    assert.deepEqual((await openWorkspaceRoot(`${s.base}/alias//`)).prefixes, [s.rootDir, `${s.base}/alias`]);
    assert.deepEqual((await openWorkspaceRoot(`${s.base}/alias/../alias`)).prefixes, [s.rootDir]);
    assert.deepEqual((await openWorkspaceRoot(`${s.rootDir}/`)).prefixes, [s.rootDir]);
    assert.deepEqual((await openWorkspaceRoot('/')).prefixes, ['/']);
  });
});

describe('workspace fs: messages for system errors, kinds and long paths', () => {
  it('maps each errno to a code and a message that names only the path', () => {
    const cases: [string | undefined, string][] = [
      ['ENOENT', 'not-found: "/w/f" does not exist.'],
      ['ELOOP', 'symlink: "/w/f" is a symbolic link; links are not followed.'],
      ['ENOTDIR', 'not-found: "/w/f" does not exist: a folder on its path is a file.'],
      ['EISDIR', 'not-a-file: "/w/f" is not a regular file.'],
      ['ENXIO', 'not-a-file: "/w/f" is not a regular file.'],
      ['EACCES', 'denied: Permission denied: "/w/f".'],
      ['EPERM', 'denied: Permission denied: "/w/f".'],
      ['ENAMETOOLONG', 'invalid-path: "/w/f" is too long.'],
      ['EFBIG', 'too-large: "/w/f" is too large.'],
      ['EIO', 'io: Could not access "/w/f" (EIO).'],
      [undefined, 'io: Could not access "/w/f" (unknown).'],
    ];
    for (const [code, expected] of cases) {
      const error = Object.assign(new Error(`secret text of ${code}`), code ? { code } : {});
      const mapped = fromSystemError(error, '"/w/f"');
      assert.equal(`${mapped.code}: ${mapped.message}`, expected);
    }
    assert.equal(fromSystemError(undefined, '"/w/f"').message, 'Could not access "/w/f" (unknown).');
  });

  it('quotes a path with its control characters visible, cut in the middle past 160 characters', () => {
    assert.equal(quote('/w/a\nb\u202e'), '"/w/a\\nb\u202e"');
    const exact = `/${'a'.repeat(159)}`;
    assert.equal(quote(exact), JSON.stringify(exact));
    const long = `/${'a'.repeat(100)}${'b'.repeat(100)}`;
    assert.equal(quote(long), JSON.stringify(`${long.slice(0, 80)}…${long.slice(-70)}`));
    assert.equal(quote(long).length, 80 + 1 + 70 + 2);
  });

  it('names every kind of file it may meet', () => {
    const stat = (kind: string) =>
      ({
        isFile: () => kind === 'file',
        isDirectory: () => kind === 'dir',
        isSymbolicLink: () => kind === 'link',
        isFIFO: () => kind === 'fifo',
        isCharacterDevice: () => kind === 'char',
        isBlockDevice: () => kind === 'block',
        isSocket: () => kind === 'socket',
      }) as unknown as fs.BigIntStats;
    assert.deepEqual(
      ['file', 'dir', 'link', 'fifo', 'char', 'block', 'socket', '?'].map((k) => describeKind(stat(k))),
      [
        'a file',
        'a folder',
        'a symbolic link',
        'a FIFO (named pipe)',
        'a device',
        'a device',
        'a socket',
        'an unknown kind of file',
      ],
    );
  });

  it('cuts lines at \\n only, and a limit past the end reads to the end', () => {
    const bytes = Buffer.from('a\r\nb\n\nc');
    assert.equal(selectLines(bytes, 1, 1), 'a\r\n');
    assert.equal(selectLines(bytes, 3, 1), '\n');
    assert.equal(selectLines(bytes, 3, 5), '\nc');
    assert.equal(selectLines(bytes, 4), 'c');
    assert.equal(selectLines(bytes, 5), '');
    assert.equal(selectLines(Buffer.from('x\n'), 2), '');
    assert.equal(selectLines(Buffer.from('x\n'), 3), '');
  });
});
