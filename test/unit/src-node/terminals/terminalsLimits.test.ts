/**
 * What a terminal may not do, on real processes and files: a ninth
 * terminal (also while eight wait for consent or are being torn down),
 * variables off the allowlist, and a launch whose executable or folder
 * changed after it was shown to the user.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalHost, prepareLaunch, type LaunchRequest, type PreparedLaunch } from '../../../../src-node/terminals';
import {
  endTerminalTest,
  liveProcessesWith,
  makeTerminalSandbox,
  refusal,
  uniqueSleep,
  waitFor,
  type TerminalSandbox,
} from './terminalsSandbox.test';

describe('terminals: limits and checks', () => {
  let s: TerminalSandbox;
  let host: TerminalHost;
  let marker: string;
  beforeEach(() => {
    s = makeTerminalSandbox();
    host = new TerminalHost({ killGraceMs: 300 });
    marker = uniqueSleep();
  });
  afterEach(() => endTerminalTest(host, s, marker));

  const prepare = (request: Partial<LaunchRequest>) =>
    prepareLaunch({ command: '/bin/sh', ...request }, { root: s.root, env: s.env });
  const sleeper = () => prepare({ command: 'sleep', args: [marker] });

  describe('the limit of 8 terminals', () => {
    it('refuses the ninth running terminal, and takes one again after a release', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await host.create(await sleeper()));
      assert.equal(await refusal(host.create(await sleeper())), 'too-many');
      assert.throws(() => host.reserve(), /At most 8/);
      assert.equal(liveProcessesWith(marker).length, 8, 'the ninth was never started');
      await host.release(ids[0]);
      ids[0] = await host.create(await sleeper());
      assert.equal(host.slotsInUse, 8);
    });

    it('counts requests still waiting for consent, and gives their slots back when refused', async () => {
      const pending = Array.from({ length: 8 }, () => host.reserve());
      assert.throws(() => host.reserve(), /At most 8/);
      assert.equal(await refusal(host.create(await sleeper())), 'too-many');
      pending[0].release();
      pending[0].release(); // idempotent: gives back one slot, not two
      assert.equal(host.slotsInUse, 7);
      const id = await host.create(await sleeper(), pending[1]);
      assert.equal(host.slotsInUse, 7, 'the reservation became the terminal');
      assert.equal(pending[1].active, false);
      assert.equal(
        await refusal(host.create(await sleeper(), pending[1])),
        'invalid-request',
        'a reservation starts one terminal',
      );
      assert.ok(host.output(id));
    });

    it('counts terminals being torn down until their processes are gone', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        ids.push(await host.create(await prepare({ args: ['-c', `trap '' TERM; sleep ${marker}`] })));
      }
      await waitFor(() => liveProcessesWith(marker).length === 16, 'eight shells and sleeps');
      const releasing = host.release(ids[0]);
      assert.throws(() => host.reserve(), /At most 8/, 'still tearing down (SIGTERM is ignored)');
      await releasing;
      host.reserve().release();
    });

    it('gives the slot back when the start is refused', async () => {
      const launch = await prepare({ cwd: path.join(s.root, 'sub') });
      fs.rmdirSync(path.join(s.root, 'sub'));
      const slot = host.reserve();
      assert.equal(await refusal(host.create(launch, slot)), 'changed');
      assert.equal(host.slotsInUse, 0);
    });

    it('starts only launches made by prepareLaunch', async () => {
      const copy = { ...(await sleeper()), args: ['-c', 'echo swapped'] } as PreparedLaunch;
      assert.equal(await refusal(host.create(copy)), 'invalid-request');
      assert.equal(host.slotsInUse, 0);
    });
  });

  describe('environment', () => {
    it('gives the command exactly the allowlisted variables (the child prints its environment)', async () => {
      const launch = await prepareLaunch(
        {
          command: 'env',
          env: [
            { name: 'LANG', value: 'C' },
            { name: 'AGENT_SECRET', value: 'x' },
            { name: 'PATH', value: '/evil' },
            { name: 'LD_PRELOAD', value: '/x.so' },
          ],
        },
        { root: s.root, env: { ...s.env, GITHUB_TOKEN: 'ghp_x', SSH_AUTH_SOCK: '/tmp/agent.sock' } },
      );
      const id = await host.create(launch);
      await host.waitForExit(id);
      const printed = host.output(id).output.trim().split('\n').sort();
      assert.deepEqual(printed, [`HOME=${s.env.HOME}`, 'LANG=C', `PATH=${s.env.PATH}`]);
      assert.deepEqual(launch.droppedEnv, ['AGENT_SECRET', 'LD_PRELOAD', 'PATH']);
    });
  });

  describe('the check right before the start', () => {
    it('starts in the checked folder', async () => {
      const id = await host.create(await prepare({ args: ['-c', 'pwd -P'], cwd: path.join(s.root, 'sub') }));
      await host.waitForExit(id);
      assert.equal(host.output(id).output, `${path.join(s.root, 'sub')}\n`);
    });

    it('refuses a folder swapped for a symlink to outside after prepare', async () => {
      const sub = path.join(s.root, 'sub');
      const launch = await prepare({ args: ['-c', `sleep ${marker}`], cwd: sub });
      fs.renameSync(sub, path.join(s.root, 'sub-old'));
      fs.symlinkSync(s.outside, sub);
      assert.equal(await refusal(host.create(launch)), 'changed');
      assert.deepEqual(liveProcessesWith(marker), [], 'nothing was started');
    });

    it('refuses a folder swapped for a symlink to another folder inside, or for another folder', async () => {
      const sub = path.join(s.root, 'sub');
      fs.mkdirSync(path.join(s.root, 'other'));
      fs.mkdirSync(path.join(s.root, 'third'));
      const first = await prepare({ cwd: sub });
      fs.renameSync(sub, path.join(s.root, 'sub-old'));
      fs.symlinkSync(path.join(s.root, 'other'), sub);
      assert.equal(await refusal(host.create(first)), 'changed', 'a symlink');
      fs.unlinkSync(sub);
      fs.renameSync(path.join(s.root, 'sub-old'), sub);
      const second = await prepare({ cwd: sub });
      fs.renameSync(sub, path.join(s.root, 'sub-old'));
      fs.renameSync(path.join(s.root, 'third'), sub);
      assert.equal(await refusal(host.create(second)), 'changed', 'same path, another folder moved there');
    });

    it('refuses a workspace folder replaced after prepare', async () => {
      const launch = await prepare({});
      fs.renameSync(s.root, `${s.root}-old`);
      fs.mkdirSync(s.root);
      assert.equal(await refusal(host.create(launch)), 'changed');
    });

    it('refuses an executable that was rewritten, or that PATH now finds elsewhere', async () => {
      const [first, second] = [path.join(s.base, 'bin1'), path.join(s.base, 'bin2')];
      fs.mkdirSync(first);
      fs.mkdirSync(second);
      fs.writeFileSync(path.join(second, 'tool'), '#!/bin/sh\necho ok\n', { mode: 0o755 });
      const env = { ...s.env, PATH: [first, second, s.env.PATH].join(path.delimiter) };
      const rewritten = await prepareLaunch({ command: 'tool' }, { root: s.root, env });
      fs.writeFileSync(path.join(second, 'tool'), '#!/bin/sh\necho evil; echo more\n', { mode: 0o755 });
      assert.equal(await refusal(host.create(rewritten)), 'changed');
      const shadowed = await prepareLaunch({ command: 'tool' }, { root: s.root, env });
      fs.writeFileSync(path.join(first, 'tool'), '#!/bin/sh\necho shadow\n', { mode: 0o755 });
      assert.equal(await refusal(host.create(shadowed)), 'changed');
      const current = await prepareLaunch({ command: 'tool' }, { root: s.root, env });
      const id = await host.create(current);
      await host.waitForExit(id);
      assert.equal(host.output(id).output, 'shadow\n', 'the control: an unchanged launch runs');
    });
  });
});
