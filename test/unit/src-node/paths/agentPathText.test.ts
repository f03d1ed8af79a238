/**
 * An agent's path is judged as text before anything touches the disk (issue 45, finding 7): with Windows
 * semantics (path.win32, on any machine) network, device, NT object and drive-relative paths, DOS device names
 * and alternate data streams are refused; with either, a path outside the folders is refused by its text. The
 * places that take an agent's path (a link or Follow the Agent, a terminal's cwd and command) are spied on:
 * a refused path makes no disk call at all.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { agentPathInside, pathShapeProblem } from '../../../../src-node/paths/agentPathText';
import { findWorkspaceFile, type FileLookup } from '../../../../src-node/paths/findWorkspaceFile';
import { resolveCwd } from '../../../../src-node/terminals/launch/launchPaths';
import { resolveProgram } from '../../../../src-node/terminals/launch/resolveProgram';

const WINDOWS_REFUSED: ReadonlyArray<[string, RegExp]> = [
  ['\\\\server\\share\\x.txt', /network \(UNC\)/],
  ['//server/share/x.txt', /network \(UNC\)/],
  ['\\/server/share', /network \(UNC\)/],
  ['\\\\.\\pipe\\x', /device path/],
  ['\\\\.\\C:\\work\\x', /device path/],
  ['//./C:/work/x', /device path/],
  ['\\\\?\\C:\\work\\x', /device path/],
  ['\\\\?\\UNC\\server\\share\\x', /device path/],
  ['\\??\\C:\\work\\x', /NT object path/],
  ['/??/C:/work/x', /NT object path/],
  ['C:\\work\\CON', /device CON/],
  ['C:\\work\\con.txt', /device CON/],
  ['C:\\work\\nul', /device NUL/],
  ['C:\\work\\sub\\AUX.tar.gz', /device AUX/],
  ['C:\\work\\PRN .txt', /device PRN/],
  ['C:\\work\\COM1', /device COM1/],
  ['C:\\work\\lpt9.log', /device LPT9/],
  ['C:\\work\\COM¹', /device COM¹/],
  ['C:\\work\\CONIN$', /device CONIN\$/],
  ['C:\\work\\NUL\\x.txt', /device NUL/],
  ['C:\\work\\file.txt:stream', /alternate data stream/],
  ['C:\\work\\file.txt::$DATA', /alternate data stream/],
  ['C:foo', /current folder of its drive/],
  ['C:work\\x.txt', /current folder of its drive/],
  ['\\work\\x.txt', /drive letter/],
  ['work\\x.txt', /drive letter/],
  ['x.txt', /drive letter/],
  ['C:\\work\\a<b', /not allow/],
  ['C:\\work\\a?', /not allow/],
  ['C:\\work\\a\tb', /not allow/],
  ['C:\\work\\x.', /dot or a space/],
  ['C:\\work\\x ', /dot or a space/],
  ['C:\\work\\x\0', /NUL/],
  ['', /empty/],
];

const POSIX_REFUSED: ReadonlyArray<[string, RegExp]> = [
  ['', /empty/],
  ['work/x', /not an absolute path/],
  ['./x', /not an absolute path/],
  ['//server/share/x', /network path/],
  ['/work/x\0', /NUL/],
  [`/work/${'x'.repeat(40_000)}`, /longer than/],
];

describe('agent paths as text (issue 45, finding 7)', () => {
  it('refuses every Windows network, device and stream shape, with Windows semantics on any machine', () => {
    for (const [text, why] of WINDOWS_REFUSED) {
      const result = agentPathInside(path.win32, text, ['C:\\work']);
      assert.ok(!result.ok && why.test(result.why), `${JSON.stringify(text)}: ${JSON.stringify(result)}`);
    }
    assert.equal(pathShapeProblem(path.win32, 42), 'it is empty');
  });

  it('refuses relative, network and NUL paths with POSIX semantics', () => {
    for (const [text, why] of POSIX_REFUSED) {
      const result = agentPathInside(path.posix, text, ['/work']);
      assert.ok(!result.ok && why.test(result.why), `${JSON.stringify(text.slice(0, 40))}: ${JSON.stringify(result)}`);
    }
  });

  it('takes an ordinary path inside a folder, normalised (Windows: either separator, any letter case)', () => {
    const folders = ['C:\\work', 'D:\\other\\'];
    for (const [text, normalised] of [
      ['C:\\work\\src\\a.ts', 'C:\\work\\src\\a.ts'],
      ['c:/Work/src/a.ts', 'c:\\Work\\src\\a.ts'],
      ['C:\\work', 'C:\\work'],
      ['C:\\work\\src\\..\\b.ts', 'C:\\work\\b.ts'],
      ['C:\\work\\.\\con-tents.txt', 'C:\\work\\con-tents.txt'],
      ['C:\\work\\COM10', 'C:\\work\\COM10'],
      ['D:\\other\\x.y.z', 'D:\\other\\x.y.z'],
    ]) {
      assert.deepEqual(agentPathInside(path.win32, text, folders), { ok: true, path: normalised }, text);
    }
    for (const [text, normalised] of [
      ['/work/src/a.ts', '/work/src/a.ts'],
      ['/work/./src//a.ts', '/work/src/a.ts'],
      ['///work/a', '/work/a'],
      ['/work/CON', '/work/CON'],
      ['/work/a:b', '/work/a:b'],
    ]) {
      assert.deepEqual(agentPathInside(path.posix, text, ['/work']), { ok: true, path: normalised }, text);
    }
  });

  it('refuses a path of a fine shape outside the folders, by its text', () => {
    for (const text of [
      'C:\\work-evil\\x',
      'C:\\work\\..\\secret.txt',
      'D:\\x',
      'C:\\Windows\\win.ini',
      'E:\\work\\x',
    ]) {
      assert.deepEqual(agentPathInside(path.win32, text, ['C:\\work']), {
        ok: false,
        why: 'it is outside the workspace folders',
      });
    }
    for (const text of ['/work-evil/x', '/work/../etc/passwd', '/etc/passwd', '/Work/x', '/']) {
      assert.deepEqual(agentPathInside(path.posix, text, ['/work']), {
        ok: false,
        why: 'it is outside the workspace folders',
      });
    }
    assert.equal(agentPathInside(path.posix, '/work/x', []).ok, false, 'no folder, nothing inside');
    assert.equal(agentPathInside(path.posix, '/work/x', ['work']).ok, false, 'a relative folder counts for nothing');
  });
});

/** An injected file system that records every call and knows only `files` and `folders` (all canonical). */
function spyLookup(folders: readonly string[], files: readonly string[]): FileLookup & { calls: string[] } {
  const calls: string[] = [];
  const known = new Set([...folders, ...files]);
  const missing = () => Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
  return {
    calls,
    realpath: async (p) => {
      calls.push(`realpath ${p}`);
      if (!known.has(p)) throw missing();
      return p;
    },
    stat: async (p) => {
      calls.push(`stat ${p}`);
      if (!known.has(p)) throw missing();
      return { isFile: () => files.includes(p) };
    },
  };
}

describe('a link or Follow the Agent: the file an agent names (findWorkspaceFile)', () => {
  it('makes no disk call at all for a path refused by its shape (Windows)', async () => {
    for (const [text] of WINDOWS_REFUSED) {
      const io = spyLookup(['C:\\work'], ['C:\\work\\a.txt']);
      assert.equal(await findWorkspaceFile(text, ['C:\\work'], path.win32, io), undefined);
      assert.deepEqual(io.calls, [], JSON.stringify(text));
    }
  });

  it('looks up only the folders for a path outside them, never the path', async () => {
    for (const [flavour, folder, outside] of [
      [path.win32, 'C:\\work', 'C:\\secret\\x.txt'],
      [path.posix, '/work', '/etc/passwd'],
    ] as const) {
      const io = spyLookup([folder], [outside]);
      assert.equal(await findWorkspaceFile(outside, [folder], flavour, io), undefined);
      assert.deepEqual(io.calls, [`realpath ${folder}`]);
    }
  });

  it('opens a file inside: its normalised path is looked up after the text check', async () => {
    const io = spyLookup(['C:\\work'], ['C:\\work\\b.txt']);
    assert.equal(await findWorkspaceFile('C:/work/src/../b.txt', ['C:\\work'], path.win32, io), 'C:\\work\\b.txt');
    assert.deepEqual(io.calls.slice(-3), ['realpath C:\\work', 'realpath C:\\work\\b.txt', 'stat C:\\work\\b.txt']);
  });

  it('on this machine: a file inside, through the folder as given or as it really is; nothing through a link out', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-path-')));
    try {
      const real = path.join(base, 'real');
      fs.mkdirSync(real);
      fs.writeFileSync(path.join(real, 'a.txt'), 'a');
      fs.writeFileSync(path.join(base, 'secret.txt'), 's');
      fs.symlinkSync(real, path.join(base, 'given'));
      fs.symlinkSync(path.join(base, 'secret.txt'), path.join(real, 'out.txt'));
      const folders = [path.join(base, 'given')];
      assert.equal(await findWorkspaceFile(path.join(base, 'given', 'a.txt'), folders), path.join(real, 'a.txt'));
      assert.equal(await findWorkspaceFile(path.join(real, 'a.txt'), folders), path.join(real, 'a.txt'));
      assert.equal(await findWorkspaceFile(path.join(real, 'out.txt'), folders), undefined);
      assert.equal(await findWorkspaceFile(path.join(base, 'secret.txt'), folders), undefined);
      assert.equal(await findWorkspaceFile(real, folders), undefined, 'a folder is not a file');
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});

/** Every call the code under test makes to node:fs's promises while `run` runs (spied on, then passed through). */
async function diskCalls(run: () => Promise<unknown>): Promise<string[]> {
  const promises = fs.promises as unknown as Record<string, (...args: unknown[]) => unknown>;
  const names = ['realpath', 'stat', 'lstat', 'access', 'open', 'opendir', 'readdir', 'readFile'];
  const saved = names.map((n) => promises[n]!);
  const calls: string[] = [];
  names.forEach((n, i) => {
    promises[n] = (...args: unknown[]) => {
      calls.push(`${n} ${String(args[0])}`);
      return saved[i]!.apply(fs.promises, args);
    };
  });
  try {
    await run().catch(() => undefined);
  } finally {
    names.forEach((n, i) => (promises[n] = saved[i]!));
  }
  return calls;
}

describe("a terminal's cwd and command, judged as text first", () => {
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'taken',
      (e: Error & { code?: string }) => `${e.code}: ${e.message}`,
    );

  it('refuses a cwd outside the folders with no look at it (before: realpath of it first)', async () => {
    const root = fs.realpathSync(os.tmpdir());
    const outside = path.join(path.dirname(root), 'acp-not-there', 'x');
    let said = '';
    const calls = await diskCalls(async () => (said = await refusal(resolveCwd(outside, [root]))));
    assert.match(said, /^outside-workspace: The folder .* is outside the workspace folder/);
    assert.deepEqual(calls, []);
    // The spy sees what the check does take: the folder itself is looked at.
    assert.deepEqual(await diskCalls(() => resolveCwd(root, [root])), [`realpath ${root}`, `stat ${root}`]);
  });

  it('refuses Windows network, device and stream paths as cwd with no disk call', async () => {
    for (const [text, why] of WINDOWS_REFUSED.filter(([t]) => path.win32.isAbsolute(t))) {
      let said = '';
      const calls = await diskCalls(
        async () => (said = await refusal(resolveCwd(text, ['C:\\work'], { flavour: path.win32 }))),
      );
      assert.ok(said.startsWith('invalid-request: ') && why.test(said), `${JSON.stringify(text)}: ${said}`);
      assert.deepEqual(calls, [], text);
    }
  });

  it('takes a cwd through the folder as the workspace names it (a symlink to it)', async () => {
    const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-cwd-')));
    try {
      fs.mkdirSync(path.join(base, 'real', 'src'), { recursive: true });
      fs.symlinkSync(path.join(base, 'real'), path.join(base, 'given'));
      const taken = await resolveCwd(path.join(base, 'given', 'src'), [path.join(base, 'real')], {
        spellings: [path.join(base, 'given')],
      });
      assert.equal(taken.path, path.join(base, 'real', 'src'));
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });

  it('refuses a command on a network share or a device, and a drive-relative one, with no disk call', async () => {
    for (const command of [
      '\\\\server\\share\\tool.exe',
      '//server/share/tool.exe',
      '\\\\.\\pipe\\x',
      'C:tool.exe',
      'C:\\bin\\NUL.exe',
    ]) {
      let said = '';
      const calls = await diskCalls(
        async () => (said = await refusal(resolveProgram(command, {}, 'win32', path.win32))),
      );
      assert.match(said, /^invalid-request: command .* is refused: it /, command);
      assert.deepEqual(calls, [], command);
    }
  });
});
