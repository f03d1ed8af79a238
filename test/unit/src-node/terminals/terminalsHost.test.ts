/**
 * The terminal lifecycle on real processes: exit codes and signals,
 * wait_for_exit, kill and release of whole process trees (a shell that
 * started two sleeps), disposeAll. Every test ends with no process of its
 * own left, checked with ps on a marker only its processes carry.
 */
import * as assert from 'node:assert/strict';
import { TerminalHost, prepareLaunch, type LaunchRequest } from '../../../../src-node/terminals';
import {
  endTerminalTest,
  liveProcessesWith,
  makeTerminalSandbox,
  refusal,
  uniqueSleep,
  waitFor,
  type TerminalSandbox,
} from './terminalsSandbox.test';

describe('terminals: lifecycle', () => {
  let s: TerminalSandbox;
  let host: TerminalHost;
  let marker: string;
  beforeEach(() => {
    s = makeTerminalSandbox();
    host = new TerminalHost({ killGraceMs: 300 });
    marker = uniqueSleep();
  });
  afterEach(() => endTerminalTest(host, s, marker));

  /** /bin/sh as an explicit executable with -c: no shell option anywhere. */
  const shell = async (script: string, extra: Partial<LaunchRequest> = {}) =>
    host.create(
      await prepareLaunch({ command: '/bin/sh', args: ['-c', script], ...extra }, { root: s.root, env: s.env }),
    );
  /** A shell that starts two sleeps (a child in the background and one in the foreground). */
  const tree = (prefix = '') => shell(`${prefix}echo started; sleep ${marker} & sleep ${marker}; echo never`);
  const treeRunning = () => waitFor(() => liveProcessesWith(marker).length === 3, 'the shell and both sleeps');

  it('reports exit codes', async () => {
    const id = await shell('echo done; exit 3');
    assert.deepEqual(await host.waitForExit(id), { exitCode: 3, signal: null });
    assert.deepEqual(host.output(id), {
      output: 'done\n',
      truncated: false,
      exitStatus: { exitCode: 3, signal: null },
    });
  });

  it('reports the signal that ended a command', async () => {
    const id = await shell('kill -USR1 $$');
    assert.deepEqual(await host.waitForExit(id), { exitCode: null, signal: 'SIGUSR1' });
  });

  it('has no exit status while running, and wait_for_exit waits', async () => {
    const id = await shell('sleep 0.3; echo late');
    assert.equal(host.output(id).exitStatus, null);
    const started = Date.now();
    assert.deepEqual(await host.waitForExit(id), { exitCode: 0, signal: null });
    assert.ok(Date.now() - started >= 200);
    assert.equal(host.output(id).output, 'late\n');
  });

  it('stops waiting when the wait is cancelled, without ending the command', async () => {
    const id = await tree();
    const controller = new AbortController();
    const wait = host.waitForExit(id, controller.signal);
    controller.abort(new Error('cancelled'));
    await assert.rejects(wait, /cancelled/);
    assert.equal(host.output(id).exitStatus, null);
  });

  it('kill ends the shell and both sleeps, and keeps the terminal and its output', async () => {
    const id = await tree();
    await treeRunning();
    await host.kill(id);
    assert.deepEqual(liveProcessesWith(marker), []);
    assert.deepEqual(await host.waitForExit(id), { exitCode: null, signal: 'SIGTERM' });
    assert.deepEqual(host.output(id), {
      output: 'started\n',
      truncated: false,
      exitStatus: { exitCode: null, signal: 'SIGTERM' },
    });
    assert.equal(host.slotsInUse, 1, 'a killed terminal holds its slot until released');
  });

  it('kill returns once the tree is gone, without waiting out the grace period', async () => {
    // Orphans that died wait for PID 1 to reap them (some never do promptly):
    // those zombies must not count as a tree still running.
    host = new TerminalHost({ killGraceMs: 5_000 });
    const id = await tree();
    await treeRunning();
    const started = Date.now();
    await host.kill(id);
    assert.ok(Date.now() - started < 2_500, `took ${Date.now() - started} ms`);
    assert.deepEqual(liveProcessesWith(marker), []);
  });

  it('kill escalates to SIGKILL when the tree ignores SIGTERM', async () => {
    const id = await tree("trap '' TERM; ");
    await treeRunning();
    const started = Date.now();
    await host.kill(id);
    assert.ok(Date.now() - started >= 250, 'waited the grace period first');
    assert.deepEqual(liveProcessesWith(marker), []);
    assert.deepEqual(await host.waitForExit(id), { exitCode: null, signal: 'SIGKILL' });
  });

  it('kill also ends what a command left running after it exited', async () => {
    const id = await shell(`sleep ${marker} & echo bye`);
    assert.deepEqual(await host.waitForExit(id), { exitCode: 0, signal: null });
    await waitFor(() => liveProcessesWith(marker).length === 1, 'the background sleep');
    await host.kill(id);
    assert.deepEqual(liveProcessesWith(marker), []);
  });

  it('release ends the tree, forgets the id, frees the slot, and keeps the last output readable', async () => {
    const id = await tree();
    await treeRunning();
    await waitFor(() => host.output(id).output === 'started\n', 'the first line');
    const final = await host.release(id);
    assert.deepEqual(liveProcessesWith(marker), []);
    assert.equal(final.output, 'started\n');
    assert.equal(host.slotsInUse, 0);
    assert.equal(await refusal(Promise.resolve().then(() => host.output(id))), 'unknown-terminal');
    assert.equal(await refusal(host.kill(id)), 'unknown-terminal');
    assert.equal(await refusal(host.release(id)), 'unknown-terminal');
    assert.equal(host.lastOutput(id)?.output, 'started\n');
  });

  it('release of a finished command keeps its output and exit status', async () => {
    const id = await shell('echo finished');
    await host.waitForExit(id);
    const final = await host.release(id);
    assert.deepEqual(final, { output: 'finished\n', truncated: false, exitStatus: { exitCode: 0, signal: null } });
    assert.deepEqual(host.lastOutput(id), final);
  });

  it('a wait pending at release resolves with the exit', async () => {
    const id = await tree();
    await treeRunning();
    const wait = host.waitForExit(id);
    await host.release(id);
    assert.deepEqual(await wait, { exitCode: null, signal: 'SIGTERM' });
  });

  it('disposeAll ends every tree and refuses new terminals and pending requests', async () => {
    const pending = host.reserve();
    const launch = await prepareLaunch(
      { command: '/bin/sh', args: ['-c', `sleep ${marker}`] },
      { root: s.root, env: s.env },
    );
    const ids = [await tree(), await tree()];
    await waitFor(() => liveProcessesWith(marker).length === 6, 'two trees');
    await host.disposeAll();
    assert.deepEqual(liveProcessesWith(marker), []);
    assert.equal(host.slotsInUse, 0);
    assert.equal(await refusal(host.create(launch, pending)), 'disposed');
    assert.equal(await refusal(host.create(launch)), 'disposed');
    assert.throws(() => host.reserve(), /ended/);
    for (const id of ids) assert.equal(host.lastOutput(id)?.output, 'started\n');
  });

  it('a terminal that finishes starting after disposeAll is ended at once', async () => {
    const launch = await prepareLaunch(
      { command: '/bin/sh', args: ['-c', `sleep ${marker}`] },
      { root: s.root, env: s.env },
    );
    const creating = host.create(launch);
    const refused = refusal(creating);
    await host.disposeAll();
    assert.deepEqual(liveProcessesWith(marker), [], 'disposeAll waited for the start in flight');
    assert.equal(host.slotsInUse, 0);
    assert.equal(await refused, 'disposed');
  });
});
