/**
 * prepareLaunch, describeLaunch and launchKey on real files: what an agent's
 * `terminal/create` becomes before anyone is asked, and what is refused.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeLaunch, launchKey, prepareLaunch, type LaunchRequest } from '../../../../src-node/terminals';
import { makeTerminalSandbox, refusal, type TerminalSandbox } from './terminalsSandbox.test';

describe('terminals: prepareLaunch', () => {
  let s: TerminalSandbox;
  beforeEach(() => {
    s = makeTerminalSandbox();
  });
  afterEach(() => s.cleanup());
  const prepare = (request: Partial<LaunchRequest>) =>
    prepareLaunch({ command: '/bin/sh', ...request }, { root: s.root, env: s.env });
  const sh = fs.realpathSync('/bin/sh');

  it('resolves a bare name on PATH to the canonical executable, without a shell', async () => {
    const launch = await prepare({ command: 'sh', args: ['-c', 'echo hi'] });
    assert.equal(launch.executable, sh);
    assert.deepEqual(launch.args, ['-c', 'echo hi']);
  });

  it('defaults the folder to the workspace root and canonicalises both', async () => {
    fs.symlinkSync(s.root, path.join(s.base, 'alias'));
    const launch = await prepareLaunch({ command: '/bin/sh' }, { root: path.join(s.base, 'alias'), env: s.env });
    assert.equal(launch.root, s.root);
    assert.equal(launch.cwd, s.root);
  });

  it('accepts a folder inside, also through a symlink that stays inside', async () => {
    fs.symlinkSync(path.join(s.root, 'sub'), path.join(s.root, 'link-to-sub'));
    assert.equal((await prepare({ cwd: path.join(s.root, 'sub') })).cwd, path.join(s.root, 'sub'));
    assert.equal((await prepare({ cwd: path.join(s.root, 'link-to-sub') })).cwd, path.join(s.root, 'sub'));
    assert.equal((await prepare({ cwd: path.join(s.root, 'sub', '..', 'sub') })).cwd, path.join(s.root, 'sub'));
  });

  it('refuses a folder outside the workspace, also through a symlink or ..', async () => {
    fs.symlinkSync(s.outside, path.join(s.root, 'escape'));
    assert.equal(await refusal(prepare({ cwd: s.outside })), 'outside-workspace');
    assert.equal(await refusal(prepare({ cwd: path.join(s.root, 'escape') })), 'outside-workspace');
    assert.equal(await refusal(prepare({ cwd: path.join(s.root, '..', 'outside') })), 'outside-workspace');
    assert.equal(await refusal(prepare({ cwd: '/' })), 'outside-workspace');
    // A sibling whose name starts with the root's name is not inside it.
    fs.mkdirSync(`${s.root}-evil`);
    assert.equal(await refusal(prepare({ cwd: `${s.root}-evil` })), 'outside-workspace');
  });

  it('refuses a missing folder, a file as folder, and a relative folder', async () => {
    fs.writeFileSync(path.join(s.root, 'file.txt'), 'x');
    assert.equal(await refusal(prepare({ cwd: path.join(s.root, 'missing') })), 'cwd-not-found');
    assert.equal(await refusal(prepare({ cwd: path.join(s.root, 'file.txt') })), 'cwd-not-found');
    assert.equal(await refusal(prepare({ cwd: 'sub' })), 'invalid-request');
  });

  it('refuses commands that are not found, relative paths with slashes, and NUL bytes', async () => {
    assert.equal(await refusal(prepare({ command: 'no-such-command-acp-test' })), 'not-found');
    assert.equal(await refusal(prepare({ command: './run.sh' })), 'invalid-request');
    assert.equal(await refusal(prepare({ command: 'bin/run.sh' })), 'invalid-request');
    assert.equal(await refusal(prepare({ command: 'sh\0x' })), 'invalid-request');
    assert.equal(await refusal(prepare({ command: '' })), 'invalid-request');
    assert.equal(await refusal(prepare({ args: ['ok', 'a\0b'] })), 'invalid-request');
    assert.equal(await refusal(prepare({ env: [{ name: 'LANG', value: 'C\0' }] })), 'invalid-request');
    assert.equal(await refusal(prepare({ cwd: `${s.root}\0` })), 'invalid-request');
  });

  it('tells an agent that sent a whole command line that there is no shell', async () => {
    const error = await prepare({ command: 'ls -la' }).catch((e: Error) => e);
    assert.match(String((error as Error).message), /without a shell/);
  });

  it('validates outputByteLimit and caps it', async () => {
    assert.equal((await prepare({})).outputByteLimit, 1024 * 1024);
    assert.equal((await prepare({ outputByteLimit: 0 })).outputByteLimit, 0);
    assert.equal((await prepare({ outputByteLimit: 1e15 })).outputByteLimit, 8 * 1024 * 1024);
    assert.equal(await refusal(prepare({ outputByteLimit: -1 })), 'invalid-request');
    assert.equal(await refusal(prepare({ outputByteLimit: 1.5 })), 'invalid-request');
  });

  it('refuses a command line too long to show for approval', async () => {
    assert.equal(await refusal(prepare({ args: ['x'.repeat(70_000)] })), 'invalid-request');
    assert.equal(await refusal(prepare({ args: Array.from({ length: 1025 }, () => 'a') })), 'invalid-request');
  });

  it('passes only allowlisted variables: the host PATH and HOME, the agent only its formatting ones', async () => {
    const launch = await prepare({
      env: [
        { name: 'LANG', value: 'C' },
        { name: 'NO_COLOR', value: '1' },
        { name: 'LC_ALL', value: 'C' },
        { name: 'PATH', value: '/evil' },
        { name: 'HOME', value: s.root },
        { name: 'LD_PRELOAD', value: '/x.so' },
        { name: 'SECRET2', value: 'x' },
        { name: 'BAD NAME', value: 'x' },
      ],
    });
    assert.deepEqual(launch.env, { PATH: s.env.PATH, HOME: s.env.HOME, LANG: 'C', NO_COLOR: '1', LC_ALL: 'C' });
    assert.deepEqual(launch.envFromAgent, ['LANG', 'LC_ALL', 'NO_COLOR']);
    assert.deepEqual(launch.droppedEnv, ['BAD NAME', 'HOME', 'LD_PRELOAD', 'PATH', 'SECRET2']);
    assert.deepEqual(launch.droppedHostEnv, ['SECRET_TOKEN']);
  });

  it('on Windows, matches names without case and never lets the agent set PATH or the profile folder', async () => {
    const env = { Path: s.env.PATH, SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me', GitHub_Token: 'x' };
    const launch = await prepareLaunch(
      {
        command: '/bin/sh',
        env: [
          { name: 'path', value: '/evil' },
          { name: 'Lang', value: 'C' },
          { name: 'UserProfile', value: 'C:\\evil' },
        ],
      },
      { root: s.root, env, platform: 'win32' },
    );
    assert.deepEqual(launch.env, {
      Path: s.env.PATH,
      SystemRoot: 'C:\\Windows',
      USERPROFILE: 'C:\\Users\\me',
      Lang: 'C',
    });
    assert.deepEqual(launch.droppedEnv, ['UserProfile', 'path']);
    assert.deepEqual(launch.droppedHostEnv, ['GitHub_Token']);
  });

  it('on Windows, refuses batch files (only cmd.exe runs them, re-reading every argument)', async () => {
    const tool = path.join(s.base, 'tool.cmd');
    fs.writeFileSync(tool, '@echo off\r\n', { mode: 0o755 });
    const windows = prepareLaunch({ command: tool }, { root: s.root, env: s.env, platform: 'win32' });
    assert.equal(await refusal(windows), 'invalid-request');
    assert.equal(
      (await prepareLaunch({ command: tool }, { root: s.root, env: s.env, platform: 'linux' })).executable,
      tool,
      'the control',
    );
  });

  it('is frozen: nothing can be changed between the prompt and the start', async () => {
    const launch = await prepare({ args: ['a'] });
    assert.ok(Object.isFrozen(launch) && Object.isFrozen(launch.args) && Object.isFrozen(launch.env));
  });
});

describe('terminals: describeLaunch and launchKey', () => {
  let s: TerminalSandbox;
  beforeEach(() => {
    s = makeTerminalSandbox();
  });
  afterEach(() => s.cleanup());
  const prepare = (request: Partial<LaunchRequest>) =>
    prepareLaunch({ command: 'sh', ...request }, { root: s.root, env: s.env });

  it('shows the resolved executable, every argument, the canonical folder and the variables', async () => {
    const launch = await prepare({
      args: ['-c', 'echo hi && rm x'],
      cwd: path.join(s.root, 'sub'),
      env: [
        { name: 'LANG', value: 'C' },
        { name: 'TOKEN', value: 'x' },
      ],
    });
    assert.equal(
      describeLaunch(launch),
      [
        `${fs.realpathSync('/bin/sh')} -c "echo hi && rm x"`,
        `in ${path.join(s.root, 'sub')}`,
        'Environment: HOME, LANG, PATH',
        'Set by the agent: LANG="C"',
        'Not passed (not allowed): TOKEN',
      ].join('\n'),
    );
  });

  it('lists two or more variables the agent set, and two or more it may not set, each separated by a comma', async () => {
    const launch = await prepare({
      env: [
        { name: 'TZ', value: 'UTC' },
        { name: 'LANG', value: 'C' },
        { name: 'TOKEN', value: 'x' },
        { name: 'API_KEY', value: 'y' },
      ],
    });
    const lines = describeLaunch(launch).split('\n');
    assert.equal(lines[3], 'Set by the agent: LANG="C", TZ="UTC"');
    assert.equal(lines[4], 'Not passed (not allowed): API_KEY, TOKEN');
  });

  it('makes hidden characters visible: newlines, bidi overrides, zero-width and C1 controls', async () => {
    const launch = await prepare({
      args: ['-c', 'echo safe\nrm -rf ~', 'a\u202Egnp.exe', 'zero\u200Bwidth', 'c1\u0085'],
    });
    const text = describeLaunch(launch).split('\n')[0];
    assert.equal(
      text,
      `${fs.realpathSync('/bin/sh')} -c "echo safe\\nrm -rf ~" "a\\u202egnp.exe" "zero\\u200bwidth" "c1\\u0085"`,
    );
    assert.doesNotMatch(text, /[\u202E\u200B\u0085\n]/);
  });

  it('keys equal launches equally and different ones differently', async () => {
    const a = await prepare({ args: ['-c', 'true'] });
    assert.equal(launchKey(a), launchKey(await prepare({ args: ['-c', 'true'], outputByteLimit: 5 })));
    assert.equal(
      launchKey(a),
      launchKey(await prepare({ command: '/bin/sh', args: ['-c', 'true'] })),
      'same resolved executable',
    );
    const others = [
      await prepare({ args: ['-c', 'false'] }),
      await prepare({ args: ['-c true'] }),
      await prepare({ args: ['-c', 'true'], cwd: path.join(s.root, 'sub') }),
      await prepare({ args: ['-c', 'true'], env: [{ name: 'LANG', value: 'C' }] }),
    ];
    for (const other of others) assert.notEqual(launchKey(a), launchKey(other));
  });
});
