import * as assert from 'node:assert/strict';
import { nodeProblem, planCommandLine, registryAnswer, type InstallPlan } from '../../../../src-node/agents/agentStore';

const plan = (over: Partial<InstallPlan>): InstallPlan => ({
  npmPackage: '@agentclientprotocol/claude-agent-acp',
  version: '0.101.0',
  npm: '/usr/bin/npm',
  args: [
    'install',
    '--prefix',
    '/home/u/.vscode/acp storage/agents/claude-code',
    '@agentclientprotocol/claude-agent-acp@0.101.0',
  ],
  prefix: '/home/u/.vscode/acp storage/agents/claude-code',
  ...over,
});

describe('installing a built-in agent into the extension storage (the plan)', () => {
  it("reads the registry's version and engines.node, whatever else it sends", () => {
    assert.deepEqual(registryAnswer('{"version":"0.101.0","engines":{"node":">=22"}}'), {
      version: '0.101.0',
      needsNode: '>=22',
    });
    // Several versions matched: the last (newest) one.
    assert.deepEqual(registryAnswer('[{"version":"1.0.0"},{"version":"1.1.0"}]'), { version: '1.1.0' });
    for (const hostile of ['', 'not json', 'null', '{"version":"latest; rm -rf /"}', '{"version":1}', '[]']) {
      assert.deepEqual(registryAnswer(hostile), {}, hostile);
    }
    assert.deepEqual(registryAnswer(`{"version":"1.0.0","engines":{"node":"${'>'.repeat(300)}"}}`), {
      version: '1.0.0',
    });
  });

  it("refuses where the node on PATH cannot run the package (Claude Code's adapter 0.101 on Node 20), with the versions", () => {
    assert.equal(
      nodeProblem('Claude Code', plan({ needsNode: '>=22', node: '20.20.2' })),
      'Claude Code 0.101.0 needs Node.js >=22; the node on PATH is 20.20.2. Install a newer Node.js, then try again.',
    );
    assert.equal(nodeProblem('Claude Code', plan({ needsNode: '^20.19.0 || >=22.12.0', node: '20.20.2' })), undefined);
    assert.equal(
      nodeProblem('Claude Code', plan({ needsNode: '^20.19.0 || >=22.12.0', node: '22.1.0' }))?.includes('22.1.0'),
      true,
    );
    assert.equal(nodeProblem('Claude Code', plan({ node: '18.0.0' })), undefined, 'no engines: anything goes');
    assert.match(nodeProblem('Claude Code', plan({ needsNode: '>=18' })) ?? '', /no node was found on PATH/);
  });

  it('shows the command as typed, quoting what a shell would split', () => {
    assert.equal(
      planCommandLine(plan({})),
      'npm install --prefix "/home/u/.vscode/acp storage/agents/claude-code" @agentclientprotocol/claude-agent-acp@0.101.0',
    );
  });
});
