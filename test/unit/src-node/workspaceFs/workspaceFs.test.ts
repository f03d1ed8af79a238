/**
 * What the workspace file system does for a well-behaved agent, on real
 * files: roots, reads with line/limit, CRLF and UTF-8, creating and
 * overwriting, size caps, names, and that no descriptor is ever leaked.
 * Hostile paths: hostilePaths.test.ts; races: workspaceFsRaces.test.ts.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  WorkspaceFsError,
  descriptorWalkSupported,
  openWorkspaceRoot,
  readTextFile,
  writeTextFile,
} from '../../../../src-node/workspaceFs';
import { SECRET, makeSandbox, openDescriptorCount, refusal, type Sandbox } from './workspaceFsCanary.test';

/** The limit users are told about, written out: a test that used the code's own constant would follow it anywhere. */
const SIXTEEN_MIB = 16_777_216;

const strategies = ['walk', 'identity'] as const;

describe('workspace fs', () => {
  let s: Sandbox;
  const file = (...names: string[]) => path.join(s.rootDir, ...names);
  beforeEach(async () => {
    s = await makeSandbox();
  });
  afterEach(() => s.cleanup());

  describe('openWorkspaceRoot', () => {
    it('gives the canonical path, and accepts agent paths in the spelling it was opened by', async () => {
      fs.symlinkSync(s.rootDir, path.join(s.base, 'alias'));
      const root = await openWorkspaceRoot(path.join(s.base, 'alias') + '/');
      assert.equal(root.path, s.rootDir);
      assert.equal(await readTextFile(root, path.join(s.base, 'alias', 'a.txt')), 'inside a\n');
      assert.equal(await readTextFile(root, file('a.txt')), 'inside a\n');
    });

    it('refuses a relative, missing or non-folder root', async () => {
      assert.equal((await refusal(openWorkspaceRoot('root'))).code, 'invalid-path');
      assert.equal((await refusal(openWorkspaceRoot(file('missing')))).code, 'not-found');
      assert.equal((await refusal(openWorkspaceRoot(file('a.txt')))).code, 'not-a-file');
    });

    it('refuses a root whose real name is not valid UTF-8 (agent paths could never name it)', async () => {
      const bytes = Buffer.concat([Buffer.from(s.base + '/'), Buffer.from([0x80, 0xfe])]);
      fs.mkdirSync(bytes);
      fs.symlinkSync(bytes, path.join(s.base, 'odd-root'));
      assert.equal((await refusal(openWorkspaceRoot(path.join(s.base, 'odd-root')))).code, 'invalid-path');
    });
  });

  describe('readTextFile', () => {
    for (const strategy of strategies) {
      it(`reads whole files and honours 1-based line and limit (${strategy})`, async () => {
        fs.writeFileSync(file('lines.txt'), 'one\ntwo\nthree\nfour');
        const read = (line?: number | null, limit?: number | null) =>
          readTextFile(s.root, file('lines.txt'), { line, limit, strategy });
        assert.equal(await read(), 'one\ntwo\nthree\nfour');
        assert.equal(await read(2), 'two\nthree\nfour');
        assert.equal(await read(2, 2), 'two\nthree\n');
        assert.equal(await read(undefined, 1), 'one\n');
        assert.equal(await read(4, 10), 'four');
        assert.equal(await read(5), '');
        assert.equal(await read(99, 1), '');
        assert.equal(await read(0, 1), 'one\n', 'line 0 counts as 1 (the schema allows 0)');
        assert.equal(await read(1, 0), '', 'limit 0 is no lines');
        assert.equal(await read(null, null), 'one\ntwo\nthree\nfour');
      });
    }

    it('keeps CRLF, a BOM and multi-byte characters intact, counting lines on \\n', async () => {
      fs.writeFileSync(file('crlf.txt'), '\uFEFFfirst\r\nzweite Zeile: äöü\r\n第三行 🚀\r\n');
      assert.equal(await readTextFile(s.root, file('crlf.txt')), '\uFEFFfirst\r\nzweite Zeile: äöü\r\n第三行 🚀\r\n');
      assert.equal(await readTextFile(s.root, file('crlf.txt'), { line: 2, limit: 1 }), 'zweite Zeile: äöü\r\n');
      assert.equal(await readTextFile(s.root, file('crlf.txt'), { line: 3 }), '第三行 🚀\r\n');
    });

    it('decodes invalid UTF-8 as U+FFFD and reads empty files', async () => {
      fs.writeFileSync(file('bin'), Buffer.from([0x61, 0xff, 0x62, 0x0a]));
      fs.writeFileSync(file('empty'), '');
      assert.equal(await readTextFile(s.root, file('bin')), 'a\uFFFDb\n');
      assert.equal(await readTextFile(s.root, file('empty')), '');
    });

    it('refuses a line or limit that is not a whole number >= 0', async () => {
      for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        assert.equal((await refusal(readTextFile(s.root, file('a.txt'), { line: bad }))).code, 'invalid-range');
        assert.equal((await refusal(readTextFile(s.root, file('a.txt'), { limit: bad }))).code, 'invalid-range');
      }
    });

    it('reads exactly 16 MiB and refuses one byte more, with a message that says so', async () => {
      fs.writeFileSync(file('max.bin'), ''); // sparse from here on: no disk used
      fs.truncateSync(file('max.bin'), SIXTEEN_MIB);
      assert.equal((await readTextFile(s.root, file('max.bin'), { limit: 1 })).length, SIXTEEN_MIB);
      fs.truncateSync(file('max.bin'), SIXTEEN_MIB + 1);
      const error = await refusal(readTextFile(s.root, file('max.bin'), { limit: 1 }));
      assert.equal(error.code, 'too-large');
      assert.match(error.message, /16\.0 MiB; files over 16\.0 MiB are not read/);
    });

    it('reads unicode names in unicode folders', async () => {
      fs.mkdirSync(file('日本語'));
      fs.writeFileSync(file('日本語', 'ファイル 🚀.txt'), 'こんにちは\n');
      for (const strategy of strategies) {
        assert.equal(await readTextFile(s.root, file('日本語', 'ファイル 🚀.txt'), { strategy }), 'こんにちは\n');
      }
    });

    it("drops '.' and empty components in the middle of a path", async () => {
      assert.equal(await readTextFile(s.root, `${s.rootDir}/./sub//b.txt`), 'inside b\n');
    });
  });

  describe('writeTextFile', () => {
    it('creates a missing file, then overwrites (and truncates) it', async () => {
      await writeTextFile(s.root, file('sub', 'new.txt'), 'a longer first version\n');
      assert.equal(fs.readFileSync(file('sub', 'new.txt'), 'utf8'), 'a longer first version\n');
      const inode = fs.statSync(file('sub', 'new.txt')).ino;
      await writeTextFile(s.root, file('sub', 'new.txt'), 'short\r\n');
      assert.equal(fs.readFileSync(file('sub', 'new.txt'), 'utf8'), 'short\r\n');
      assert.equal(fs.statSync(file('sub', 'new.txt')).ino, inode, 'rewritten in place');
      await writeTextFile(s.root, file('sub', 'new.txt'), '');
      assert.equal(fs.readFileSync(file('sub', 'new.txt'), 'utf8'), '');
    });

    it('writes unicode names and content, read back the same', async () => {
      fs.mkdirSync(file('données'));
      const text = 'Grüße, 世界 🚀\r\nzweite\n';
      await writeTextFile(s.root, file('données', 'résumé 📄.md'), text);
      assert.equal(fs.readFileSync(file('données', 'résumé 📄.md'), 'utf8'), text);
      assert.equal(await readTextFile(s.root, file('données', 'résumé 📄.md'), { line: 2 }), 'zweite\n');
    });

    it('maps agent names to UTF-8 bytes: U+FFFD is a new file, not the non-UTF-8 one', async () => {
      const odd = Buffer.concat([Buffer.from(file('odd')), Buffer.from([0xff])]);
      fs.writeFileSync(odd, 'bytes name');
      await writeTextFile(s.root, file('odd\uFFFD'), 'utf-8 name');
      assert.equal(fs.readFileSync(odd, 'utf8'), 'bytes name');
      assert.equal(fs.readFileSync(file('odd\uFFFD'), 'utf8'), 'utf-8 name');
      const names = fs.readdirSync(s.rootDir, { encoding: 'buffer' }).map((n) => n.toString('hex'));
      assert.ok(names.includes(Buffer.from('odd\uFFFD').toString('hex')) && names.includes('6f6464ff'));
    });

    it('writes 16 MiB, and refuses content over 16 MiB in UTF-8 bytes (creating nothing)', async () => {
      await writeTextFile(s.root, file('max.txt'), 'a'.repeat(SIXTEEN_MIB));
      assert.equal(fs.statSync(file('max.txt')).size, SIXTEEN_MIB);
      const twoByte = 'é'.repeat(SIXTEEN_MIB / 2 + 1); // fewer characters than the cap, more bytes
      assert.equal((await refusal(writeTextFile(s.root, file('big.txt'), twoByte))).code, 'too-large');
      assert.equal(fs.existsSync(file('big.txt')), false);
    });

    it('says that folders are not created', async () => {
      const error = await refusal(writeTextFile(s.root, file('no', 'such', 'x.txt'), 'x'));
      assert.equal(error.code, 'not-found');
      assert.match(error.message, /"[^"]*\/root\/no" does not exist\. Folders are not created\./);
    });
  });

  describe('descriptors and support', () => {
    it('detects the descriptor walk on Linux, once', () => {
      assert.equal(descriptorWalkSupported(), process.platform === 'linux');
      assert.equal(descriptorWalkSupported(), descriptorWalkSupported());
    });

    it('leaks no descriptor over 100 rounds of successes and refusals', async function () {
      this.timeout(20000);
      fs.symlinkSync(s.secret, file('leak.txt'));
      fs.symlinkSync(s.outside, file('out'));
      execFileSync('mkfifo', [file('pipe')]);
      await oneRound(s); // warm up: Node opens some descriptors lazily
      const before = openDescriptorCount();
      for (let i = 0; i < 100; i++) await oneRound(s);
      assert.equal(openDescriptorCount(), before);
      s.assertUntouched();
    });
  });

  it('errors are WorkspaceFsError with a short message, even for a 4 KB path', async () => {
    const error = await refusal(readTextFile(s.root, `/${'x'.repeat(4000)}`));
    assert.ok(error instanceof WorkspaceFsError && error.name === 'WorkspaceFsError');
    assert.ok(error.message.length < 400, String(error.message.length));
    assert.ok(!error.message.includes(SECRET));
  });
});

/** One of everything: reads and writes that work, and each kind of refusal on the way. */
async function oneRound(s: Sandbox): Promise<void> {
  const at = (...names: string[]) => path.join(s.rootDir, ...names);
  const settle = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      () => undefined,
    );
  for (const strategy of strategies) {
    await readTextFile(s.root, at('sub', 'b.txt'), { strategy, line: 1, limit: 1 });
    for (const bad of [
      at('leak.txt'),
      at('out', 'secret.txt'),
      at('sub', 'missing'),
      at('sub'),
      at('pipe'),
      at('a.txt', 'x'),
      s.secret,
    ]) {
      await settle(readTextFile(s.root, bad, { strategy }));
    }
  }
  await writeTextFile(s.root, at('sub', 'round.txt'), 'round\n');
  for (const bad of [
    at('leak.txt'),
    at('out', 'x.txt'),
    at('missing', 'x.txt'),
    at('sub'),
    at('pipe'),
    `${s.rootDir}/../x`,
  ]) {
    await settle(writeTextFile(s.root, bad, 'x'));
  }
}
