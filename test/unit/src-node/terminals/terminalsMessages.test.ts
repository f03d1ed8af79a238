/**
 * What an agent's terminal request is told when it is refused (sent back to
 * the agent as is, and shown to the user), word for word, and the pieces
 * every message and consent prompt is made of: how agent text is shown, the
 * environment allowlist, the output buffer's character boundaries, slots.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeLaunch, launchKey, prepareLaunch, type LaunchRequest } from '../../../../src-node/terminals';
import { agentMaySet, filterEnv, hostMayPass } from '../../../../src-node/terminals/launch/envAllowlist';
import { isTerminalError, TerminalError } from '../../../../src-node/terminals/errors';
import { Listeners } from '../../../../src-node/terminals/listeners';
import { OutputBuffer, Utf8Splitter } from '../../../../src-node/terminals/outputBuffer';
import { quoted, quotedShort, shown } from '../../../../src-node/terminals/launch/shownText';
import { SlotPool } from '../../../../src-node/terminals/slots';
import { makeTerminalSandbox, said, type TerminalSandbox } from './terminalsSandbox.test';

describe('terminals: what each refusal says', () => {
  let s: TerminalSandbox;
  beforeEach(() => {
    s = makeTerminalSandbox();
  });
  afterEach(() => s.cleanup());
  const prepare = (request: Partial<LaunchRequest> & Record<string, unknown>) =>
    said(prepareLaunch({ command: '/bin/sh', ...request } as LaunchRequest, { root: s.root, env: s.env }));

  it('says what is wrong with the command', async () => {
    assert.equal(await prepare({ command: '' }), 'invalid-request: command must be a non-empty string.');
    assert.equal(await prepare({ command: 42 as never }), 'invalid-request: command must be a non-empty string.');
    assert.equal(await prepare({ command: 'sh\0x' }), 'invalid-request: command must not contain NUL bytes.');
    assert.equal(
      await prepare({ command: './run.sh' }),
      'invalid-request: command "./run.sh" is a relative path; give an absolute path or a bare name found on PATH.',
    );
    assert.equal(
      await prepare({ command: 'bin\\run' }),
      'invalid-request: command "bin\\\\run" is a relative path; give an absolute path or a bare name found on PATH.',
    );
    assert.equal(
      await prepare({ command: 'no-such-command-acp' }),
      'not-found: command "no-such-command-acp" was not found as an executable file.',
    );
    assert.equal(
      await prepare({ command: 'ls -la' }),
      'not-found: command "ls -la" was not found as an executable file. Commands run without a shell: send the program in command and each argument in args (or run /bin/sh with -c).',
    );
    const tool = path.join(s.base, 'tool.CMD');
    fs.writeFileSync(tool, '@echo off\r\n', { mode: 0o755 });
    assert.equal(
      await said(prepareLaunch({ command: tool }, { root: s.root, env: s.env, platform: 'win32' })),
      `invalid-request: command ${JSON.stringify(tool)} is a batch file, which only cmd.exe runs; run the program it wraps directly (for an npm tool: node and its script).`,
    );
  });

  it('says what is wrong with the arguments, the environment and the output limit', async () => {
    assert.equal(await prepare({ args: 'ls' as never }), 'invalid-request: args must be a list of strings.');
    assert.equal(await prepare({ args: ['a', 1] as never }), 'invalid-request: args must be a list of strings.');
    assert.equal(
      await prepare({ args: Array.from({ length: 1025 }, () => 'a') }),
      'invalid-request: Too many arguments (1025; at most 1024).',
    );
    assert.equal(await prepare({ args: Array.from({ length: 1024 }, () => 'a') }), 'not refused');
    assert.equal(await prepare({ args: ['a\0b'] }), 'invalid-request: Arguments must not contain NUL bytes.');
    assert.equal(
      await prepare({ env: { LANG: 'C' } as never }),
      'invalid-request: env must be a list of { name, value } strings.',
    );
    assert.equal(
      await prepare({ env: [{ name: 'LANG' }] as never }),
      'invalid-request: env must be a list of { name, value } strings.',
    );
    assert.equal(
      await prepare({ env: [null] as never }),
      'invalid-request: env must be a list of { name, value } strings.',
    );
    assert.equal(
      await prepare({ env: [{ value: 'C' }] as never }),
      'invalid-request: env must be a list of { name, value } strings.',
      'a value with no name',
    );
    assert.equal(
      await prepare({ env: [{ name: 7, value: 'C' }] as never }),
      'invalid-request: env must be a list of { name, value } strings.',
      'a name that is no string',
    );
    assert.equal(
      await prepare({ env: [{ name: 'LA\0NG', value: 'C' }] }),
      'invalid-request: Environment names and values must not contain NUL bytes.',
    );
    assert.equal(
      await prepare({ env: [{ name: 'LANG', value: 'C\0' }] }),
      'invalid-request: Environment names and values must not contain NUL bytes.',
    );
    for (const bad of [-1, 1.5, '10', Number.NaN]) {
      assert.equal(
        await prepare({ outputByteLimit: bad as never }),
        'invalid-request: outputByteLimit must be a whole number >= 0.',
        String(bad),
      );
    }
  });

  it('counts the whole command line, environment included, against what a prompt can show', async () => {
    // '/bin/sh' is 7 bytes: 7 + 65,529 is exactly the 64 KiB a consent prompt shows.
    assert.equal(await prepare({ args: ['x'.repeat(65_529)] }), 'not refused');
    assert.equal(
      await prepare({ args: ['x'.repeat(65_530)] }),
      'invalid-request: The command line is too long to show for approval (65537 bytes; at most 65536).',
    );
    assert.equal(
      await prepare({ args: ['x'.repeat(65_000)], env: [{ name: 'LANG', value: 'y'.repeat(600) }] }),
      'invalid-request: The command line is too long to show for approval (65611 bytes; at most 65536).',
    );
  });

  it('says what is wrong with the folder, without telling where a symlink leads', async () => {
    fs.writeFileSync(path.join(s.root, 'file.txt'), 'x');
    fs.symlinkSync(s.outside, path.join(s.root, 'escape'));
    fs.symlinkSync(path.join(s.root, 'loop'), path.join(s.root, 'loop'));
    const q = (p: string) => JSON.stringify(p);
    assert.equal(await prepare({ cwd: 42 as never }), 'invalid-request: cwd must be a string without NUL bytes.');
    assert.equal(await prepare({ cwd: `${s.root}\0` }), 'invalid-request: cwd must be a string without NUL bytes.');
    assert.equal(await prepare({ cwd: 'sub' }), 'invalid-request: cwd must be an absolute path: "sub".');
    assert.equal(
      await prepare({ cwd: path.join(s.root, 'missing') }),
      `cwd-not-found: The folder ${q(path.join(s.root, 'missing'))} does not exist.`,
    );
    assert.equal(
      await prepare({ cwd: path.join(s.root, 'file.txt') }),
      `cwd-not-found: The folder ${q(path.join(s.root, 'file.txt'))} is not a folder.`,
    );
    assert.equal(
      await prepare({ cwd: path.join(s.root, 'loop') }),
      `cwd-not-found: The folder ${q(path.join(s.root, 'loop'))} is a symbolic link loop.`,
    );
    assert.equal(
      await prepare({ cwd: s.outside }),
      `outside-workspace: The folder ${q(s.outside)} is outside the workspace folder ${q(s.root)}.`,
    );
    assert.equal(
      await prepare({ cwd: path.join(s.root, 'escape') }),
      `outside-workspace: The folder ${q(path.join(s.root, 'escape'))} leads outside the workspace folder ${q(s.root)}.`,
    );
    assert.equal(
      await said(prepareLaunch({ command: '/bin/sh' }, { root: 'root', env: s.env })),
      'cwd-not-found: The workspace folder is not an absolute path.',
    );
    assert.equal(
      await said(prepareLaunch({ command: '/bin/sh' }, { root: `${s.root}\0`, env: s.env })),
      'cwd-not-found: The workspace folder is not an absolute path.',
    );
    assert.equal(
      await said(prepareLaunch({ command: '/bin/sh' }, { root: path.join(s.base, 'gone'), env: s.env })),
      `cwd-not-found: The workspace folder ${q(path.join(s.base, 'gone'))} does not exist.`,
    );
  });

  it('says a folder it may not enter is one it cannot open', async function () {
    if (process.getuid?.() === 0) this.skip(); // root enters any folder
    const locked = path.join(s.root, 'locked');
    fs.mkdirSync(path.join(locked, 'in'), { recursive: true });
    fs.chmodSync(locked, 0o000);
    try {
      assert.equal(
        await prepare({ cwd: path.join(locked, 'in') }),
        `cwd-not-found: The folder ${JSON.stringify(path.join(locked, 'in'))} cannot be opened (permission denied).`,
      );
    } finally {
      fs.chmodSync(locked, 0o755);
    }
  });
});

describe('terminals: how agent text is shown', () => {
  it('shows plain text bare and anything else quoted, with every hidden character escaped', () => {
    assert.equal(shown('src/a-b_c.ts:10,@x%+='), 'src/a-b_c.ts:10,@x%+=');
    assert.equal(shown('two words'), '"two words"');
    assert.equal(shown(''), '""');
    assert.equal(shown('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(quoted('rm -rf \u202e/ etc\u202c'), '"rm -rf \\u202e/ etc\\u202c"');
    assert.equal(quoted('a\u200bb\u00a0c\u2028d\u3000e\ufeff'), '"a\\u200bb\\u00a0c\\u2028d\\u3000e\\ufeff"');
    assert.equal(quoted('\u0085\u009b\n\t'), '"\\u0085\\u009b\\n\\t"');
    assert.equal(quoted('\u{e0041}\u{f0000}'), '"\\u{e0041}\\u{f0000}"');
    assert.equal(quoted('\u115f\u1160\u3164\uffa0'), '"\\u115f\\u1160\\u3164\\uffa0"');
    assert.equal(quoted('é 世界 🚀'), '"é 世界 🚀"');
  });

  it('cuts a long text in the middle for an error message', () => {
    assert.equal(quotedShort('x'.repeat(160)), JSON.stringify('x'.repeat(160)));
    const long = `${'a'.repeat(100)}${'b'.repeat(100)}`;
    assert.equal(quotedShort(long), JSON.stringify(`${'a'.repeat(80)}…${'b'.repeat(70)}`));
    assert.equal(quotedShort(long, 20), JSON.stringify(`${'a'.repeat(10)}…`));
  });
});

describe('terminals: the environment allowlist', () => {
  it('lets the host pass what tools need, and the agent set only formatting and locale', () => {
    for (const name of ['PATH', 'HOME', 'SHELL', 'TMPDIR', 'LANG', 'TERM', 'LC_ALL', 'CI']) {
      assert.equal(hostMayPass(name, 'linux'), true, name);
    }
    for (const name of [
      'AWS_SECRET_ACCESS_KEY',
      'SSH_AUTH_SOCK',
      'LD_PRELOAD',
      'NODE_OPTIONS',
      'path',
      'LC_',
      'LC_all',
    ]) {
      assert.equal(hostMayPass(name, 'linux'), false, name);
    }
    for (const name of ['LANG', 'LANGUAGE', 'TZ', 'NO_COLOR', 'FORCE_COLOR', 'COLUMNS', 'LC_MESSAGES']) {
      assert.equal(agentMaySet(name, 'linux'), true, name);
    }
    for (const name of ['PATH', 'HOME', 'SHELL', 'LD_PRELOAD', 'lang', 'LANG=', 'LANG ', '1LANG', 'LC_1']) {
      assert.equal(agentMaySet(name, 'linux'), false, name);
    }
    assert.equal(hostMayPass('Path', 'win32'), true);
    assert.equal(hostMayPass('SystemRoot', 'win32'), true);
    assert.equal(agentMaySet('lang', 'win32'), true);
    assert.equal(agentMaySet('lc_all', 'win32'), true);
    assert.equal(agentMaySet('PROGRAMFILES(X86)', 'win32'), false, 'the host passes it; the agent may not name it');
    // Windows compares names in upper case, and a few non-ASCII letters upper-case to ASCII ones (ı to I, ſ to S):
    // the name itself must still be a portable one, whole, from its first character to its last.
    assert.equal(
      agentMaySet('CL\u0131COLOR', 'win32'),
      false,
      'a dotless i inside the name (CLICOLOR once upper-cased)',
    );
    assert.equal(agentMaySet('LINE\u017F', 'win32'), false, 'a long s at the end of the name (LINES once upper-cased)');
    assert.equal(agentMaySet('lc_al\u0131', 'win32'), false, 'a dotless i at the end of a locale name (LC_ALI)');
  });

  it('keeps the first host spelling of a name, drops values with NUL, and lets the last agent entry win', () => {
    const filtered = filterEnv(
      { Path: '/a', PATH: '/b', LANG: 'C', TERM: 'x\0y', UNSET: undefined, TOKEN: 't' },
      [
        { name: 'lang', value: 'de' },
        { name: 'LANG', value: 'fr' },
        { name: 'TOKEN', value: 'u' },
        { name: 'TOKEN', value: 'v' },
      ],
      'win32',
    );
    assert.deepEqual(filtered.env, { Path: '/a', LANG: 'fr' });
    assert.deepEqual(filtered.fromAgent, ['LANG']);
    assert.deepEqual(filtered.droppedFromAgent, ['TOKEN']);
    assert.deepEqual(filtered.droppedFromHost, ['TERM', 'TOKEN']);
    const linux = filterEnv({ LANG: 'C' }, [{ name: 'lang', value: 'de' }], 'linux');
    assert.deepEqual(linux.env, { LANG: 'C' });
    assert.deepEqual(linux.droppedFromAgent, ['lang']);
  });
});

describe('terminals: output at character boundaries', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

  it('holds back exactly the incomplete character at the end of a read', () => {
    const cases: [number[], number][] = [
      [[0x61], 1],
      [[0xc3], 0],
      [[0xc3, 0xa9], 2],
      [[0xe2, 0x82], 0],
      [[0xe2, 0x82, 0xac], 3],
      [[0xf0, 0x9f, 0x9a], 0],
      [[0xf0, 0x9f, 0x9a, 0x80], 4],
      [[0x61, 0xf0], 1],
      [[0xff], 1],
      [[0xc1], 1],
      [[0xf5], 1],
      [[0x80, 0x80, 0x80, 0x80, 0x80], 5],
    ];
    for (const [input, out] of cases) {
      const splitter = new Utf8Splitter();
      assert.equal(splitter.push(Buffer.from(input)).length, out, JSON.stringify(input));
      assert.equal(splitter.end().length, input.length - out, `${JSON.stringify(input)} at the end`);
    }
    const splitter = new Utf8Splitter();
    assert.equal(splitter.push(bytes([0xe2])).toString(), '');
    assert.equal(splitter.push(bytes([0x82])).toString(), '');
    assert.equal(splitter.push(bytes([0xac], 'x')).toString(), '€x');
  });

  it('keeps the newest bytes of many small pieces, in order', () => {
    const buffer = new OutputBuffer(1000);
    for (let i = 0; i < 600; i++) buffer.append(Buffer.from(`${i % 10}`));
    buffer.append(Buffer.alloc(0));
    const { output, truncated } = buffer.snapshot();
    assert.equal(output, Array.from({ length: 600 }, (_, i) => `${i % 10}`).join(''));
    assert.equal(truncated, false);
    for (let i = 0; i < 600; i++) buffer.append(Buffer.from(`${i % 10}`));
    const after = buffer.snapshot();
    assert.equal(after.output.length, 1000);
    assert.equal(
      after.output,
      Array.from({ length: 1200 }, (_, i) => `${i % 10}`)
        .join('')
        .slice(-1000),
    );
    assert.equal(after.truncated, true);
  });

  it('at a limit of 0 keeps nothing and says so', () => {
    const buffer = new OutputBuffer(0);
    buffer.append(Buffer.from('x'));
    assert.deepEqual(buffer.snapshot(), { output: '', truncated: true });
  });
});

describe('terminals: slots', () => {
  it('says why no slot is left, and that a request no longer holds one', () => {
    const pool = new SlotPool(1);
    const held = pool.reserve();
    assert.throws(
      () => pool.reserve(),
      (e: unknown) =>
        e instanceof TerminalError &&
        e.code === 'too-many' &&
        e.message === 'At most 1 terminals per session; release one first.',
    );
    held.release();
    held.release();
    assert.equal(pool.inUse, 0, 'released once, however often it is called');
    const next = pool.reserve();
    pool.take(next);
    assert.throws(
      () => pool.take(next),
      (e: unknown) =>
        e instanceof TerminalError &&
        e.code === 'invalid-request' &&
        e.message === 'This terminal request no longer holds a slot.',
    );
    const waiting = new SlotPool(2);
    const pending = waiting.reserve();
    waiting.close();
    assert.equal(pending.active, false);
    assert.equal(waiting.inUse, 0);
    assert.throws(
      () => waiting.take(pending),
      (e: unknown) => e instanceof TerminalError && e.code === 'disposed',
    );
    assert.throws(
      () => waiting.reserve(),
      (e: unknown) =>
        e instanceof TerminalError &&
        e.code === 'disposed' &&
        e.message === "This session's terminals have been ended.",
    );
  });
});

describe('terminals: the allowlist, name by name, and what a prompt shows', () => {
  const HOST_ONLY = [
    'PATH',
    'HOME',
    'USER',
    'LOGNAME',
    'SHELL',
    'TMPDIR',
    'TMP',
    'TEMP',
    'XDG_CONFIG_HOME',
    'XDG_CACHE_HOME',
    'XDG_DATA_HOME',
    'XDG_STATE_HOME',
    'PATHEXT',
    'SYSTEMROOT',
    'SYSTEMDRIVE',
    'WINDIR',
    'COMSPEC',
    'USERPROFILE',
    'USERNAME',
    'USERDOMAIN',
    'APPDATA',
    'LOCALAPPDATA',
    'PROGRAMDATA',
    'PROGRAMFILES',
    'PROGRAMFILES(X86)',
    'PROGRAMW6432',
    'COMMONPROGRAMFILES',
    'COMMONPROGRAMFILES(X86)',
    'COMMONPROGRAMW6432',
    'HOMEDRIVE',
    'HOMEPATH',
    'ALLUSERSPROFILE',
    'PUBLIC',
    'NUMBER_OF_PROCESSORS',
    'PROCESSOR_ARCHITECTURE',
    'OS',
  ];
  const AGENT_SETTABLE = [
    'LANG',
    'LANGUAGE',
    'TERM',
    'COLORTERM',
    'TZ',
    'NO_COLOR',
    'FORCE_COLOR',
    'CLICOLOR',
    'CLICOLOR_FORCE',
    'COLUMNS',
    'LINES',
    'CI',
  ];

  it('passes exactly the listed host names, and lets the agent set exactly its own list and locales', () => {
    for (const name of HOST_ONLY) {
      assert.equal(hostMayPass(name, 'linux'), true, name);
      assert.equal(agentMaySet(name, 'linux'), false, name);
    }
    for (const name of AGENT_SETTABLE) assert.equal(agentMaySet(name, 'linux'), true, name);
    for (const name of ['XLC_ALL', 'LC_ALL1', 'LC_ALL_', 'LC_']) assert.equal(agentMaySet(name, 'linux'), false, name);
  });

  it('keeps one spelling per name on Windows, whoever names it first, and lists drops sorted', () => {
    const agentOnly = filterEnv(
      {},
      [
        { name: 'lang', value: 'de' },
        { name: 'LANG', value: 'fr' },
      ],
      'win32',
    );
    assert.deepEqual(agentOnly.env, { lang: 'fr' });
    const unsorted = filterEnv(
      { ZED: 'z', ALPHA: 'a', MID: 'm' },
      [
        { name: 'Z_X', value: '1' },
        { name: 'A_X', value: '1' },
      ],
      'linux',
    );
    assert.deepEqual(unsorted.droppedFromHost, ['ALPHA', 'MID', 'ZED']);
    assert.deepEqual(unsorted.droppedFromAgent, ['A_X', 'Z_X']);
  });

  it('accepts absent arguments, environment and limit, and refuses an environment with any bad entry', async () => {
    const s = makeTerminalSandbox();
    try {
      const launch = await prepareLaunch(
        { command: '/bin/sh', args: null, env: null, outputByteLimit: null } as never,
        { root: s.root, env: {} },
      );
      assert.deepEqual([launch.args, launch.env, launch.outputByteLimit], [[], {}, 1024 * 1024]);
      assert.equal(describeLaunch(launch), `${fs.realpathSync('/bin/sh')}\nin ${s.root}\nEnvironment: (none)`);
      const prepare = (env: unknown) =>
        said(prepareLaunch({ command: '/bin/sh', env } as never, { root: s.root, env: {} }));
      assert.equal(
        await prepare([{ name: 'LANG', value: 'C' }, { name: 'TZ' }]),
        'invalid-request: env must be a list of { name, value } strings.',
      );
      assert.equal(
        await prepare([{ name: 'LANG', value: 'C' }, null]),
        'invalid-request: env must be a list of { name, value } strings.',
      );
      assert.equal(
        await prepare([
          { name: 'LANG', value: 'C' },
          { name: 'TZ', value: 'U\0TC' },
        ]),
        'invalid-request: Environment names and values must not contain NUL bytes.',
      );
      const tool = path.join(s.base, 'tool.cmd.sh');
      fs.writeFileSync(tool, '#!/bin/sh\n', { mode: 0o755 });
      assert.equal(
        (await prepareLaunch({ command: tool }, { root: s.root, env: {}, platform: 'win32' })).executable,
        tool,
        'only a name that ends in .bat or .cmd is a batch file',
      );
      const a = await prepareLaunch(
        { command: '/bin/sh' },
        { root: s.root, env: { HOME: '/h', PATH: '/p', LANG: 'C' } },
      );
      const b = await prepareLaunch(
        { command: '/bin/sh' },
        { root: s.root, env: { LANG: 'C', PATH: '/p', HOME: '/h' } },
      );
      assert.equal(launchKey(a), launchKey(b), 'the same environment in another order is the same launch');
      assert.match(launchKey(a), /^launch:[0-9a-f]{64}$/);
    } finally {
      s.cleanup();
    }
  });

  it('escapes U+FFFF in four digits and what lies past it in braces', () => {
    assert.equal(quoted('\uffff'), '"\\uffff"');
    assert.equal(quoted('\u{10ffff}'), '"\\u{10ffff}"');
  });

  it('names its errors, and tells them apart by code', () => {
    const e = new TerminalError('too-many', 'x');
    assert.equal(e.name, 'TerminalError');
    assert.equal(isTerminalError(e), true);
    assert.equal(isTerminalError(e, 'too-many'), true);
    assert.equal(isTerminalError(e, 'disposed'), false);
    assert.equal(isTerminalError(new Error('x')), false);
  });

  it('stops calling a listener once it is disposed', () => {
    const calls: number[] = [];
    const listeners = new Listeners<[number]>(() => undefined);
    const subscription = listeners.event((n) => calls.push(n));
    listeners.fire(1);
    subscription.dispose();
    listeners.fire(2);
    assert.deepEqual(calls, [1]);
  });

  it("knows each lead byte's length at the edges of its range", () => {
    const held = (bytes: number[]) => new Utf8Splitter().push(Buffer.from(bytes)).length;
    assert.equal(held([0x7f]), 1);
    assert.equal(held([0xc2]), 0);
    assert.equal(held([0xdf]), 0);
    assert.equal(held([0xe0, 0xa0]), 0);
    assert.equal(held([0xef, 0xbf]), 0);
    assert.equal(held([0xf0, 0x90, 0x80]), 0);
    assert.equal(held([0xf4, 0x8f, 0xbf]), 0);
    assert.equal(held([0xe0]), 0);
    assert.equal(held([0xf4]), 0);
  });

  it('cuts the oldest output exactly at the limit, a whole first piece or part of it', () => {
    const buffer = new OutputBuffer(6);
    buffer.append(Buffer.from('abc'));
    buffer.append(Buffer.from('def'));
    buffer.append(Buffer.from('ghi'));
    assert.deepEqual(buffer.snapshot(), { output: 'defghi', truncated: true });
    buffer.append(Buffer.from('jk'));
    assert.deepEqual(buffer.snapshot(), { output: 'fghijk', truncated: true });
    const exact = new OutputBuffer(4);
    exact.append(Buffer.from('€x'));
    assert.deepEqual(exact.snapshot(), { output: '€x', truncated: false });
    exact.append(Buffer.from('y'));
    assert.deepEqual(exact.snapshot(), { output: 'xy', truncated: true }, 'a cut character is dropped whole');
  });

  it('says a reservation is spent once it is taken or given back', () => {
    const pool = new SlotPool(2);
    const taken = pool.reserve();
    assert.equal(taken.active, true);
    pool.take(taken);
    assert.equal(taken.active, false);
    const returned = pool.reserve();
    returned.release();
    assert.equal(returned.active, false);
    assert.equal(pool.inUse, 1, 'the taken slot is still held by its terminal');
    pool.free();
    assert.equal(pool.inUse, 0);
  });
});
