import * as assert from 'node:assert/strict';
import { BUILT_IN_AGENTS, resolveAgentSettings } from '../../../../src/agents/agents';

describe('agent settings', () => {
  it('offers the built-in agents with no settings', () => {
    const { agents, problems } = resolveAgentSettings(undefined, undefined);
    assert.deepEqual(agents.map((a) => a.id).slice(0, 4), ['opencode', 'claude-code', 'gemini', 'codex']);
    // Each from npm, started as the program its package provides (never npx), installed only when asked.
    for (const a of agents) {
      assert.notEqual(a.command, 'npx', a.id);
      assert.match(a.install?.npmPackage ?? '', /^(@[\w.-]+\/)?[\w.-]+$/, a.id);
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(agents.find((a) => a.id === 'opencode')?.args, ['acp']);
  });

  it('adds custom agents beside the built-in ones, with defaults', () => {
    const { agents } = resolveAgentSettings(
      {
        mine: { name: 'Mine', command: '/opt/mine', args: ['--acp'], env: { A: '1' } },
        bare: { command: 'bare-agent' },
      },
      {},
    );
    assert.equal(agents.length, BUILT_IN_AGENTS.length + 2);
    assert.deepEqual(
      agents.find((a) => a.id === 'mine'),
      { id: 'mine', name: 'Mine', command: '/opt/mine', args: ['--acp'], env: { A: '1' }, builtIn: false },
    );
    assert.deepEqual(
      agents.find((a) => a.id === 'bare'),
      { id: 'bare', name: 'bare', command: 'bare-agent', args: [], env: {}, builtIn: false },
    );
  });

  it('takes an agent served elsewhere by its WebSocket or HTTP URL, and refuses other URLs and credentials in them', () => {
    const { agents, problems } = resolveAgentSettings(
      {
        remote: { name: 'Team Agent', url: 'wss://agents.example/acp?token=t', cwd: '/srv/repo' },
        local: { url: 'ws://127.0.0.1:9000/acp' },
        http: { url: 'https://agents.example/acp' },
        file: { url: 'file:///srv/agent' },
        creds: { url: 'wss://user:pass@agents.example/acp' },
        junk: { url: 'not a url' },
      },
      { remote: '/usr/bin/agent' },
    );
    const remote = agents.find((a) => a.id === 'remote');
    assert.deepEqual(
      [remote?.name, remote?.url, remote?.cwd, remote?.command],
      ['Team Agent', 'wss://agents.example/acp?token=t', '/srv/repo', ''],
    );
    assert.equal(agents.find((a) => a.id === 'local')?.url, 'ws://127.0.0.1:9000/acp');
    assert.equal(agents.find((a) => a.id === 'http')?.url, 'https://agents.example/acp', 'Streamable HTTP');
    for (const id of ['file', 'creds', 'junk']) {
      assert.equal(
        agents.find((a) => a.id === id),
        undefined,
        id,
      );
    }
    assert.ok(problems.some((p) => p.startsWith('vscode-acp.agents.file:')));
    assert.ok(problems.some((p) => p.startsWith('vscode-acp.agents.creds:')));
    assert.ok(
      problems.includes('vscode-acp.agentPaths.remote: this agent is served at a URL, not started from a path'),
    );
  });

  it('applies agentPaths to built-in and custom agents', () => {
    const { agents } = resolveAgentSettings(
      { mine: { command: 'x' } },
      { opencode: '/opt/opencode', mine: '/usr/local/bin/mine' },
    );
    assert.equal(agents.find((a) => a.id === 'opencode')?.command, '/opt/opencode');
    assert.equal(agents.find((a) => a.id === 'mine')?.command, '/usr/local/bin/mine');
  });

  it('reports broken entries and keeps the rest', () => {
    const { agents, problems } = resolveAgentSettings(
      {
        good: { command: 'ok' },
        nocmd: { name: 'x' },
        badargs: { command: 'y', args: 'not-a-list' },
        'bad id!': { command: 'z' },
      },
      { opencode: 'relative/path', ghost: '/abs', codex: 42 },
    );
    assert.ok(agents.some((a) => a.id === 'good'));
    assert.ok(!agents.some((a) => ['nocmd', 'badargs', 'bad id!'].includes(a.id)));
    assert.equal(agents.find((a) => a.id === 'opencode')?.command, 'opencode');
    assert.equal(problems.length, 6, problems.join('\n'));
  });

  it('survives settings of the wrong shape', () => {
    const { agents, problems } = resolveAgentSettings(['not', 'an', 'object'], 'nope');
    assert.equal(agents.length, BUILT_IN_AGENTS.length);
    assert.equal(problems.length, 2);
  });
});
