/** Agent launches from Windows npm shims, decoded on any OS from real fixtures; an agent the system refuses to start. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { launchFor, shimLaunch } from '../../../../src-node/agents/agentLaunch';
import { spawnAgent } from '../../../../src-node/agents/agentProcess';

const fixtures = path.resolve(__dirname, '../../test/fixtures/windows-shims');
const read = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');
const SHIM = 'C:\\Users\\me\\AppData\\Roaming\\npm\\codex-acp.cmd';

describe('agent launch from a Windows npm shim', () => {
  it('leaves non-Windows platforms alone', async () => {
    assert.deepEqual(await launchFor('/usr/bin/opencode', ['acp']), { executable: '/usr/bin/opencode', args: ['acp'] });
  });

  it('runs the interpreter and script a standard shim names, with the agent arguments after', async () => {
    const launch = await shimLaunch(
      read('npm-goto-start-tsc.cmd'),
      SHIM,
      ['--acp'],
      async (shim) => shim.localInterpreter,
    );
    assert.equal(launch.executable, 'C:\\Users\\me\\AppData\\Roaming\\npm\\node.exe');
    assert.equal(launch.args[launch.args.length - 1], '--acp');
    // The script, resolved against the shim's folder (this fixture's shim sits next to typescript\).
    assert.equal(launch.args[launch.args.length - 2], 'C:\\Users\\me\\AppData\\Roaming\\typescript\\bin\\tsc');
  });

  it("says when the shim's interpreter is nowhere to be found", async () => {
    await assert.rejects(
      shimLaunch(read('npm-goto-start-tsc.cmd'), SHIM, [], async () => undefined),
      /not found on PATH/,
    );
  });

  it('refuses batch files that are not exactly a shim (injection attempts included)', async () => {
    const refused = fs
      .readdirSync(fixtures)
      .filter((f) => f.startsWith('hostile-') || f.startsWith('not-a-shim') || f.startsWith('pnpm-'));
    assert.ok(refused.length >= 7);
    for (const fixture of refused) {
      await assert.rejects(
        shimLaunch(read(fixture), SHIM, [], async () => 'C:\\node.exe'),
        /not a standard npm shim/,
        fixture,
      );
    }
  });
});

describe('agent process start', () => {
  it('says which agent could not be started when the system refuses it at once (an argument over 128 KiB)', () => {
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const launch = {
      executable: process.execPath,
      args: ['x'.repeat(200_000)],
      cwd: process.cwd(),
      env: process.env,
      label: 'Too long',
    };
    assert.throws(() => spawnAgent(launch, { log: quiet as never, onProtocolWarning: () => undefined }), {
      message: 'Too long could not be started: spawn E2BIG',
    });
  });
});
