/** The bridge's command line: the agents it may run, where it listens, its limits, and what it says when a line is wrong. */
import * as assert from 'node:assert/strict';
import { isLoopback, parseBridgeArgs, USAGE, UsageError } from '../../../../src-node/bridge/options';

describe('bridge command line', () => {
  it('needs an agent and accepts only built-in ids or a command', () => {
    assert.throws(() => parseBridgeArgs([], '/w'), UsageError);
    assert.throws(() => parseBridgeArgs(['--agent', 'rm'], '/w'), UsageError);
    assert.deepEqual(parseBridgeArgs(['--', 'my-agent', '--acp'], '/w').agents, [
      { id: 'custom', name: 'my-agent', command: 'my-agent', args: ['--acp'] },
    ]);
    assert.equal(parseBridgeArgs(['--agent', 'opencode'], '/w').agents[0].command, 'opencode');
  });

  it('refuses a non-loopback address without --allow-remote', () => {
    assert.throws(() => parseBridgeArgs(['--host', '0.0.0.0', '--', 'a'], '/w'), /only loopback/);
    assert.equal(parseBridgeArgs(['--host', '0.0.0.0', '--allow-remote', '--', 'a'], '/w').host, '0.0.0.0');
    assert.equal(parseBridgeArgs(['--host', '::1', '--', 'a'], '/w').host, '::1');
    assert.equal(
      parseBridgeArgs(['--host', '[::1]', '--', 'a'], '/w').host,
      '::1',
      'brackets as in a URL are taken off: listen() refuses them',
    );
    for (const host of ['x[::1]', '[::1]x']) {
      assert.equal(
        parseBridgeArgs(['--host', host, '--allow-remote', '--', 'a'], '/w').host,
        host,
        'only a whole bracketed address loses its brackets',
      );
    }
  });

  it('takes only loopback addresses as loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '127.255.255.255', 'localhost', '::1', '[::1]']) {
      assert.equal(isLoopback(host), true, host);
      assert.equal(parseBridgeArgs(['--host', host, '--', 'a'], '/w').allowRemote, false, host);
    }
    for (const host of [
      '0.0.0.0',
      '10.127.0.0.1',
      '1127.0.0.1',
      '127.0.0.1.evil.example',
      '127.0.0.1x',
      '127.0.0',
      '127.0.0.1.2',
      '127.0.0.1234',
      '127.1234.0.1',
      '127.0.1234.1',
      'localhost.evil.example',
      'xlocalhost',
      '::',
      '[::]',
      '[::1]x',
      '::1.evil',
      '192.168.1.2',
      '',
    ]) {
      assert.equal(isLoopback(host), false, JSON.stringify(host));
      assert.throws(
        () => parseBridgeArgs(['--host', host, '--', 'a'], '/w'),
        /only loopback is allowed without --allow-remote/,
        host,
      );
    }
  });

  it('defaults: loopback, port 7878, the current folder, 4 connections, 30 minutes idle', () => {
    const o = parseBridgeArgs(['--', 'a'], '/w');
    assert.deepEqual(
      { ...o, agents: undefined },
      {
        host: '127.0.0.1',
        port: 7878,
        agents: undefined,
        cwd: '/w',
        allowRemote: false,
        extraOrigins: [],
        maxConnections: 4,
        idleTimeoutSeconds: 1800,
      },
    );
  });

  it('reads every option, and whole numbers only within their range', () => {
    const o = parseBridgeArgs(
      [
        '--port',
        '0',
        '--cwd',
        '/elsewhere',
        '--allow-origin',
        'https://a.example',
        '--allow-origin',
        'https://b.example',
        '--max-connections',
        '64',
        '--idle-timeout',
        '604800',
        '--agent',
        'opencode',
        '--',
        '/opt/agent',
        '--acp',
        '--port',
        '9',
      ],
      '/w',
    );
    assert.equal(o.port, 0);
    assert.equal(o.cwd, '/elsewhere');
    assert.deepEqual(o.extraOrigins, ['https://a.example', 'https://b.example']);
    assert.equal(o.maxConnections, 64);
    assert.equal(o.idleTimeoutSeconds, 604_800);
    // Everything after -- belongs to the agent's command line.
    assert.deepEqual(
      o.agents.map((a) => [a.id, a.name, a.command, a.args]),
      [
        ['opencode', 'OpenCode', 'opencode', ['acp']],
        ['custom', 'agent', '/opt/agent', ['--acp', '--port', '9']],
      ],
    );
    assert.equal(
      parseBridgeArgs(['--port', '65535', '--max-connections', '1', '--idle-timeout', '1', '--', 'a'], '/w').port,
      65535,
    );
    const bad: Array<[string, string, RegExp]> = [
      ['--port', '65536', /--port must be a whole number from 0 to 65535/],
      ['--port', '-1', /from 0 to 65535/],
      ['--port', '80.5', /whole number/],
      ['--port', 'http', /whole number/],
      ['--max-connections', '0', /--max-connections must be a whole number from 1 to 64/],
      ['--max-connections', '65', /from 1 to 64/],
      ['--idle-timeout', '0', /--idle-timeout must be a whole number from 1 to 604800/],
      ['--idle-timeout', '604801', /from 1 to 604800/],
    ];
    for (const [option, value, message] of bad) {
      assert.throws(() => parseBridgeArgs([option, value, '--', 'a'], '/w'), message, `${option} ${value}`);
    }
  });

  it('says what is wrong with a command line', () => {
    const usage = (argv: string[]) => {
      try {
        parseBridgeArgs(argv, '/w');
      } catch (error) {
        assert.ok(error instanceof UsageError);
        return error.message;
      }
      return assert.fail(`accepted ${argv.join(' ')}`);
    };
    assert.equal(usage([]), 'name an agent with --agent <id> or -- <command>');
    assert.equal(usage(['--agent', 'rm']), 'unknown agent "rm"');
    assert.equal(usage(['--port']), '--port needs a value');
    assert.equal(usage(['--cwd']), '--cwd needs a value');
    assert.equal(usage(['--']), '-- must be followed by the agent command');
    assert.equal(usage(['--verbose', '--', 'a']), 'unknown option --verbose');
    assert.equal(usage(['--help']), '');
    assert.equal(usage(['-h', '--', 'a']), '');
  });

  it('names a command agent by its file name, and lists the built-in ids in the usage text', () => {
    assert.equal(parseBridgeArgs(['--', 'C:\\agents\\win-agent.exe'], '/w').agents[0].name, 'win-agent.exe');
    assert.equal(parseBridgeArgs(['--', '/opt/bin/my-agent'], '/w').agents[0].name, 'my-agent');
    assert.match(USAGE, /--agent <id> {10}a built-in agent: opencode, claude-code, gemini, codex, /);
  });
});
