import * as assert from 'node:assert/strict';
import { signInChoices } from '../../../../../src/connection/signIn/signInChoices';

// As the real agents sent them (2026-12-01), to a client advertising both terminal forms.
const CLAUDE = [
  {
    description: 'Use Claude subscription ',
    name: 'Claude Subscription',
    id: 'claude-ai-login',
    type: 'terminal',
    args: ['--cli', 'auth', 'login', '--claudeai'],
    _meta: {
      'terminal-auth': {
        command: '/opt/node/bin/node',
        args: ['/opt/claude/dist/index.js', '--cli', 'auth', 'login', '--claudeai'],
        label: 'Claude Login',
      },
    },
  },
];
const OPENCODE = [
  {
    description: 'Run `opencode auth login` in the terminal',
    name: 'Login with opencode',
    id: 'opencode-login',
    _meta: { 'terminal-auth': { command: 'opencode', args: ['auth', 'login'], label: 'OpenCode Login' } },
  },
];
const CODEX = [
  {
    id: 'api-key',
    name: 'API Key',
    description: 'Use an API key to authenticate',
    _meta: { 'api-key': { provider: 'openai' } },
  },
  { id: 'chat-gpt', name: 'ChatGPT', description: 'Use ChatGPT to authenticate' },
];
const CODEX_OLD = [
  {
    type: 'env_var',
    id: 'codex-api-key',
    name: 'Use CODEX_API_KEY',
    description: 'Requires setting the `CODEX_API_KEY` environment variable.',
    vars: [{ name: 'CODEX_API_KEY' }],
  },
];

describe('sign-in choices', () => {
  it("Claude Code: ACP terminal methods, the method's arguments after the agent's own (never the _meta command)", () => {
    assert.deepEqual(signInChoices(CLAUDE, { terminal: true, agentCommand: 'claude-agent-acp' }), [
      {
        kind: 'terminal',
        id: 'claude-ai-login',
        name: 'Claude Subscription',
        description: 'Use Claude subscription ',
        args: ['--cli', 'auth', 'login', '--claudeai'],
        env: {},
        replaceArgs: false,
      },
    ]);
    assert.deepEqual(signInChoices(CLAUDE, { terminal: false }), [], 'a host that runs no terminals offers none');
  });

  it("OpenCode: the legacy _meta form, only when it names the agent's own program; else its plain agent method", () => {
    assert.deepEqual(signInChoices(OPENCODE, { terminal: true, agentCommand: '/usr/local/bin/opencode' }), [
      {
        kind: 'terminal',
        id: 'opencode-login',
        name: 'Login with opencode',
        description: 'Run `opencode auth login` in the terminal',
        args: ['auth', 'login'],
        env: {},
        replaceArgs: true,
      },
    ]);
    assert.deepEqual(
      signInChoices(OPENCODE, { terminal: true, agentCommand: 'other-agent' }),
      [],
      'another program is never run',
    );
    assert.deepEqual(
      signInChoices(OPENCODE, { terminal: false }).map((c) => c.kind),
      ['agent'],
    );
  });

  it("Codex: agent methods; the older adapter's env_var methods name the variable", () => {
    assert.deepEqual(
      signInChoices(CODEX, { terminal: true }).map((c) => `${c.kind}:${c.id}`),
      ['agent:api-key', 'agent:chat-gpt'],
    );
    assert.deepEqual(signInChoices(CODEX_OLD, { terminal: true }), [
      {
        kind: 'env_var',
        id: 'codex-api-key',
        name: 'Use CODEX_API_KEY',
        description: 'Requires setting the `CODEX_API_KEY` environment variable.',
        vars: ['CODEX_API_KEY'],
      },
    ]);
  });

  it('the stable terminal method: its args go after the configured ones, its env over the configured environment', () => {
    const method = {
      type: 'terminal',
      id: 'login',
      name: 'Log in',
      args: ['auth', 'login'],
      env: { AGENT_MODE: 'tui' },
    };
    assert.deepEqual(signInChoices([method], { terminal: true }), [
      {
        kind: 'terminal',
        id: 'login',
        name: 'Log in',
        args: ['auth', 'login'],
        env: { AGENT_MODE: 'tui' },
        replaceArgs: false,
      },
    ]);
    assert.deepEqual(
      signInChoices([{ type: 'terminal', id: 'bare', name: 'Bare' }], { terminal: true }),
      [{ kind: 'terminal', id: 'bare', name: 'Bare', args: [], env: {}, replaceArgs: false }],
      'args and env are optional',
    );
  });

  it('hostile methods are left out: loader variables, unknown types, wrong shapes, floods', () => {
    const bad = [
      { type: 'terminal', id: 't1', name: 'T', args: ['--login'], env: { LD_PRELOAD: '/tmp/x.so' } },
      { type: 'terminal', id: 't2', name: 'T', env: { NODE_OPTIONS: '--require /tmp/x.js' } },
      { type: 'terminal', id: 't3', name: 'T', args: 'not-a-list' },
      { type: 'env_var', id: 'e1', name: 'E', vars: [{ name: 'A B' }] },
      { type: '_custom', id: 'c', name: 'C' },
      { id: '', name: 'empty id' },
      { id: 'x'.repeat(300), name: 'long id' },
      null,
      'string',
      5,
    ];
    assert.deepEqual(signInChoices(bad, { terminal: true, agentCommand: 'a' }), []);
    assert.deepEqual(signInChoices('not a list', { terminal: true }), []);
    assert.equal(
      signInChoices(
        Array.from({ length: 1_000 }, (_, i) => ({ id: `m${i}`, name: 'M' })),
        { terminal: true },
      ).length,
      32,
    );
  });
});
