/**
 * The terminal checks and bookkeeping case by case, on real processes where
 * it matters: identities field by field, the folder pinned by descriptor,
 * what a launch that changed is told, descriptors, timers and listeners given
 * back, signals only to a group still there, a group of zombies taken as
 * gone, the waits a host is given, a start the kernel refuses.
 */
import * as assert from 'node:assert/strict';
import { EventEmitter, getEventListeners } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { processKeeper } from '../../../../src-node/keeper/processKeeper';
import { readProcStat } from '../../../../src-node/procStat';
import { TerminalHost, prepareLaunch, type LaunchRequest } from '../../../../src-node/terminals';
import {
  identityOf,
  resolveCwd,
  sameFile,
  sameFolder,
  type PathIdentity,
} from '../../../../src-node/terminals/launch/launchPaths';
import type { GroupChild } from '../../../../src-node/terminals/processTree';
import { pinFolder } from '../../../../src-node/terminals/launch/recheckLaunch';
import { Terminal } from '../../../../src-node/terminals/terminal';
import {
  endTerminalTest,
  killLeftovers,
  liveProcessesWith,
  makeTerminalSandbox,
  said,
  uniqueSleep,
  waitFor,
  type TerminalSandbox,
} from './terminalsSandbox.test';

const changed = (what: string, file: string) =>
  `changed: ${what} ${JSON.stringify(file)} changed after the command was shown for approval; it was not run.`;

/** How many of this process's descriptors are open on `folder`. */
function descriptorsOn(folder: string): number {
  return fs.readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === folder;
    } catch {
      return false; // the descriptor readdir itself used, closed by now
    }
  }).length;
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('terminals: identities, field by field', () => {
  it('takes folders as the same by device and inode, files only with size, mtime and mode equal too', () => {
    const a: PathIdentity = { dev: 1n, ino: 2n, size: 3n, mtimeNs: 4n, mode: 5n };
    assert.equal(sameFolder(a, { ...a }), true);
    assert.equal(sameFile(a, { ...a }), true);
    assert.equal(sameFolder(a, { ...a, dev: 9n }), false, 'another device');
    assert.equal(sameFolder(a, { ...a, ino: 9n }), false, 'another inode');
    assert.equal(
      sameFolder(a, { ...a, size: 9n, mtimeNs: 9n, mode: 9n }),
      true,
      'a folder changes size and time with its files',
    );
    for (const field of ['dev', 'ino', 'size', 'mtimeNs', 'mode'] as const) {
      assert.equal(sameFile(a, { ...a, [field]: 9n }), false, field);
    }
  });
});

describe('terminals: the folder a command starts in', () => {
  let s: TerminalSandbox;
  beforeEach(() => {
    s = makeTerminalSandbox();
  });
  afterEach(() => s.cleanup());

  it('takes a null folder as the workspace folder, and says so when that is gone', async () => {
    assert.equal((await resolveCwd(null, [s.root])).path, s.root);
    assert.equal(
      await said(resolveCwd(undefined, [path.join(s.base, 'gone')])),
      'cwd-not-found: The workspace folder does not exist.',
    );
  });

  it('takes a folder inside any folder the agent was given, and refuses one beside them', async () => {
    const second = path.join(s.base, 'second');
    const third = path.join(s.base, 'third');
    fs.mkdirSync(path.join(second, 'src'), { recursive: true });
    fs.mkdirSync(third);
    const roots = [s.root, second];
    assert.deepEqual(await resolveCwd(path.join(second, 'src'), roots).then((r) => [r.path, r.root]), [
      path.join(second, 'src'),
      second,
    ]);
    assert.equal((await resolveCwd(null, roots)).path, s.root, 'by default the first');
    assert.equal(
      await said(resolveCwd(third, roots)),
      `outside-workspace: The folder "${third}" is outside the folders it was given ("${s.root}", "${second}").`,
    );
    assert.equal(
      await said(resolveCwd(third, [s.root])),
      `outside-workspace: The folder "${third}" is outside the workspace folder "${s.root}".`,
    );
  });

  it('on Linux holds the checked folder open: a folder swapped in after the check is not where the command starts', async function () {
    if (process.platform !== 'linux') this.skip();
    const sub = path.join(s.root, 'sub');
    const pinned = await pinFolder(sub, 'linux');
    assert.ok(pinned);
    assert.match(pinned.spawnPath, /^\/proc\/self\/fd\/\d+$/);
    assert.equal(pinned.realPath, sub);
    assert.ok(sameFolder(pinned.identity, await identityOf(sub)));
    fs.renameSync(sub, path.join(s.root, 'checked'));
    fs.mkdirSync(sub);
    assert.equal(
      fs.realpathSync(pinned.spawnPath),
      path.join(s.root, 'checked'),
      'the descriptor still names the checked folder',
    );
    assert.equal(descriptorsOn(path.join(s.root, 'checked')), 1);
    await pinned.close();
    assert.equal(descriptorsOn(path.join(s.root, 'checked')), 0, 'closed');
    assert.equal(await pinFolder(path.join(s.root, 'gone'), 'linux'), undefined);
  });

  it('elsewhere uses the checked path, where it really is', async () => {
    const sub = path.join(s.root, 'sub');
    fs.symlinkSync(sub, path.join(s.root, 'link'));
    const pinned = await pinFolder(path.join(s.root, 'link'), 'darwin');
    assert.ok(pinned);
    assert.deepEqual([pinned.realPath, pinned.spawnPath], [sub, sub]);
    assert.ok(sameFolder(pinned.identity, await identityOf(sub)));
    await pinned.close();
    assert.equal(await pinFolder(path.join(s.root, 'gone'), 'darwin'), undefined);
  });
});

describe('terminals: on real processes, case by case', () => {
  let s: TerminalSandbox;
  let host: TerminalHost;
  let marker: string;
  beforeEach(() => {
    s = makeTerminalSandbox();
    host = new TerminalHost({ killGraceMs: 300 });
    marker = uniqueSleep();
  });
  afterEach(() => endTerminalTest(host, s, marker));
  const launchOf = (script: string, env = s.env) =>
    prepareLaunch({ command: '/bin/sh', args: ['-c', script] }, { root: s.root, env });
  const shell = async (script: string, on = host) => on.create(await launchOf(script));

  describe('a launch that changed before its start', () => {
    const prepare = (request: Partial<LaunchRequest>, env = s.env) =>
      prepareLaunch({ command: '/bin/sh', ...request }, { root: s.root, env });

    it('says which executable changed: rewritten, removed, or another name for the same file found first', async () => {
      const [first, second] = [path.join(s.base, 'bin1'), path.join(s.base, 'bin2')];
      fs.mkdirSync(first);
      fs.mkdirSync(second);
      const tool = path.join(second, 'tool');
      fs.writeFileSync(tool, '#!/bin/sh\necho ok\n', { mode: 0o755 });
      const env = { ...s.env, PATH: [first, second, s.env.PATH].join(path.delimiter) };
      const rewritten = await prepare({ command: 'tool' }, env);
      fs.writeFileSync(tool, '#!/bin/sh\necho evil\n', { mode: 0o755 });
      assert.equal(await said(host.create(rewritten)), changed('The executable', tool));
      // A hard link is the same file under another name, and a program may act on the name it was started by (busybox).
      const linked = await prepare({ command: 'tool' }, env);
      fs.linkSync(tool, path.join(first, 'tool'));
      assert.equal(await said(host.create(linked)), changed('The executable', tool));
      fs.unlinkSync(path.join(first, 'tool'));
      const removed = await prepare({ command: 'tool' }, env);
      fs.unlinkSync(tool);
      assert.equal(await said(host.create(removed)), changed('The executable', tool));
      assert.equal(host.slotsInUse, 0);
    });

    it('refuses a folder moved out of the workspace with a link to it left in its place', async () => {
      const sub = path.join(s.root, 'sub');
      const launch = await prepare({ args: ['-c', `sleep ${marker}`], cwd: sub });
      fs.renameSync(sub, path.join(s.outside, 'sub'));
      fs.symlinkSync(path.join(s.outside, 'sub'), sub);
      assert.equal(await said(host.create(launch)), changed('The folder', sub));
      assert.deepEqual(liveProcessesWith(marker), [], 'nothing was started');
      assert.equal(descriptorsOn(path.join(s.outside, 'sub')), 0, 'the descriptor of the refused folder was closed');
    });

    it('closes the descriptor that held the folder once the command started', async function () {
      if (process.platform !== 'linux') this.skip();
      const sub = path.join(s.root, 'sub');
      const id = await host.create(await prepare({ args: ['-c', `sleep ${marker}`], cwd: sub }));
      assert.equal(descriptorsOn(sub), 0);
      await host.kill(id);
    });
  });

  describe('the host', () => {
    it('says why it refuses a hand-made launch, a start cut short by disposeAll, and an id it does not know', async () => {
      const launch = await launchOf(`sleep ${marker}`);
      assert.equal(
        await said(host.create({ ...launch })),
        'invalid-request: Only a launch made by prepareLaunch can be started.',
      );
      const starting = host.create(launch);
      await host.disposeAll();
      assert.equal(await said(starting), "disposed: This session's terminals have been ended.");
      const unknown = {
        code: 'unknown-terminal',
        message: 'No such terminal (it was never created here, or it was released).',
      };
      assert.throws(() => host.output('nope'), unknown);
      await assert.rejects(host.kill(42 as never), unknown);
    });

    it('says the command could not be started when the kernel refuses it at once (a variable over 128 KiB)', async () => {
      const launch = await launchOf('exit 0', { ...s.env, PATH: `${s.env.PATH}${':/none'.repeat(30_000)}` });
      assert.equal(await said(host.create(launch)), 'spawn-failed: The command could not be started (E2BIG).');
      assert.equal(host.slotsInUse, 0, 'the slot is given back');
    });

    it('shows the output of a live terminal too, and forgets every terminal at disposeAll but its output', async () => {
      const id = await shell(`echo hi; sleep ${marker}`);
      await waitFor(() => host.output(id).output === 'hi\n', 'the first line');
      assert.deepEqual(host.lastOutput(id), host.output(id));
      await host.disposeAll();
      assert.throws(() => host.output(id), { code: 'unknown-terminal' });
      assert.equal(host.lastOutput(id)?.output, 'hi\n');
    });

    it('keeps the output of the last 16 released terminals, not more', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 17; i++) {
        const id = await shell(`echo ${i}`);
        await host.waitForExit(id);
        await host.release(id);
        ids.push(id);
      }
      assert.equal(host.lastOutput(ids[0]), undefined, 'the oldest is forgotten');
      assert.equal(host.lastOutput(ids[1])?.output, '1\n');
      assert.equal(host.lastOutput(ids[16])?.output, '16\n');
    });

    it('forgets a start once it is settled', async () => {
      const creating = (host as unknown as { creating: Set<Promise<string>> }).creating;
      const id = await shell('exit 0');
      await said(host.create({ ...(await launchOf('exit 0')) }));
      await tick();
      assert.equal(creating.size, 0);
      await host.waitForExit(id);
    });

    it('stops a wait at once for a signal already aborted, and leaves no abort listener behind', async () => {
      const id = await shell(`sleep ${marker}`);
      const outcome = (p: Promise<unknown>) =>
        Promise.race([
          p.then(
            () => 'exited',
            (e: Error) => e.message,
          ),
          new Promise((r) => setTimeout(r, 1_000, 'still waiting')),
        ]);
      assert.equal(await outcome(host.waitForExit(id, AbortSignal.abort(new Error('gone')))), 'gone');
      const controller = new AbortController();
      const wait = host.waitForExit(id, controller.signal);
      assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
      controller.abort(new Error('cancelled'));
      assert.equal(await outcome(wait), 'cancelled');
      assert.equal(
        getEventListeners(controller.signal, 'abort').length,
        0,
        'gone once it fired, while the command still runs',
      );
      const later = new AbortController();
      const quick = await shell('exit 0');
      await host.waitForExit(quick, later.signal);
      assert.equal(getEventListeners(later.signal, 'abort').length, 0, 'gone once the command exited');
    });

    it('sends a listener error to console.error unless told otherwise', async () => {
      const logged: unknown[][] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      const own = new TerminalHost();
      try {
        own.onExit(() => {
          throw new Error('listener broke');
        });
        const id = await own.create(await launchOf('exit 0'));
        await own.waitForExit(id);
      } finally {
        console.error = original;
        await own.disposeAll();
      }
      assert.equal(logged.length, 1);
      assert.equal(logged[0][0], 'Terminal event listener failed:');
      assert.match(String(logged[0][1]), /listener broke/);
    });

    it('gives a command no stdin: one that reads it gets end of file at once', async () => {
      const id = await host.create(await prepareLaunch({ command: 'cat' }, { root: s.root, env: s.env }));
      const outcome = await Promise.race([
        host.waitForExit(id),
        new Promise((r) => setTimeout(r, 2_000, 'still reading')),
      ]);
      assert.deepEqual(outcome, { exitCode: 0, signal: null });
    });
  });

  describe('ending a group, as signals and waits', () => {
    it('tells the keeper about the group, SIGTERMs it once, and never signals it again once it is gone', async () => {
      const { watch, forget } = processKeeper;
      const kill = process.kill;
      const watched: number[] = [];
      const forgotten: number[] = [];
      const signals: Array<[number, string | number | undefined]> = [];
      processKeeper.watch = (pid) => (pid !== undefined && watched.push(pid), watch.call(processKeeper, pid));
      processKeeper.forget = (pid) => (pid !== undefined && forgotten.push(pid), forget.call(processKeeper, pid));
      process.kill = ((pid: number, signal?: string | number) => (
        signal !== 0 && signals.push([pid, signal]),
        kill.call(process, pid, signal)
      )) as typeof process.kill;
      try {
        const id = await shell(`sleep ${marker}; echo never`);
        await waitFor(() => liveProcessesWith(marker).length === 2, 'the shell and its sleep');
        assert.equal(watched.length, 1);
        const [pgid] = watched;
        await host.kill(id);
        assert.deepEqual(
          signals.filter(([pid]) => pid === -pgid),
          [[-pgid, 'SIGTERM']],
          'no SIGKILL: the group ended on SIGTERM',
        );
        const first = new Map<number, unknown>();
        for (const [pid, signal] of signals) if (!first.has(pid)) first.set(pid, signal);
        assert.deepEqual(
          [...first.values()].filter((signal) => signal !== 'SIGTERM'),
          [],
          'SIGTERM first, to the group and to each member',
        );
        assert.ok(first.size >= 2, 'the sleep was signalled by pid too');
        assert.deepEqual(forgotten, [pgid]);
        signals.length = 0;
        await host.kill(id);
        assert.deepEqual(signals, [], 'its number could belong to another group by now');
      } finally {
        processKeeper.watch = watch;
        processKeeper.forget = forget;
        process.kill = kill;
      }
    });

    it('ends with SIGKILL a child that left the group and ignores SIGTERM', async () => {
      const id = await shell(`setsid sh -c "trap '' TERM; sleep ${marker}; echo never" & sleep ${marker}`);
      await waitFor(() => liveProcessesWith(marker).length >= 4, 'both shells and both sleeps');
      await host.kill(id);
      assert.deepEqual(liveProcessesWith(marker), []);
    });

    it('waits the grace it is given before SIGKILL, not the default 2 s', async () => {
      const id = await shell(`trap '' TERM; sleep ${marker}`);
      await waitFor(() => liveProcessesWith(marker).length === 2, 'the shell and its sleep');
      const started = Date.now();
      await host.kill(id);
      const took = Date.now() - started;
      assert.ok(took >= 250 && took < 1_500, `took ${took} ms`);
      assert.deepEqual(await host.waitForExit(id), { exitCode: null, signal: 'SIGKILL' });
    });

    it('takes a group with only a zombie left in it as gone', async function () {
      this.timeout(30_000);
      // The zombie's parent left the group (setsid) and never reaps it.
      host = new TerminalHost({ killGraceMs: 5_000, killWaitMs: 5_000 });
      const daemon = uniqueSleep();
      try {
        const id = await shell(`(sleep 0.1 & exec setsid sleep ${daemon}) & exit 0`);
        const pgid = (host as unknown as { live: Map<string, { child: { pid: number } }> }).live.get(id)!.child.pid;
        await waitFor(() => zombiesIn(pgid) === 1, 'the zombie');
        const started = Date.now();
        await host.kill(id);
        assert.ok(Date.now() - started < 2_500, `took ${Date.now() - started} ms`);
      } finally {
        killLeftovers(daemon);
      }
    });

    it('reports the exit once the output is in, and waits for output held open only as long as it is told', async function () {
      this.timeout(20_000);
      const quick = new TerminalHost({ exitDrainMs: 3_000 });
      let started = Date.now();
      try {
        await quick.waitForExit(await shell('echo done', quick));
        assert.ok(Date.now() - started < 1_500, `an exit with nothing left to read took ${Date.now() - started} ms`);
        const held = new TerminalHost({ exitDrainMs: 700 });
        started = Date.now();
        const id = await shell(`(sleep ${marker} &); exit 0`, held);
        await held.waitForExit(id);
        const took = Date.now() - started;
        assert.ok(took >= 600 && took < 2_500, `a sleep holding the output open: ${took} ms`);
        await held.disposeAll();
      } finally {
        await quick.disposeAll();
      }
    });

    it('returns from kill after the wait it is given when a daemon out of reach holds the output open', async function () {
      this.timeout(20_000);
      host = new TerminalHost({ killGraceMs: 100, killWaitMs: 300, exitDrainMs: 20_000 });
      const daemon = uniqueSleep();
      try {
        const id = await shell(`(setsid sleep ${daemon} &); sleep ${marker}`);
        // The shell's own command line names both.
        await waitFor(
          () => liveProcessesWith(daemon).length === 2 && liveProcessesWith(marker).length === 2,
          'the daemon and the sleep',
        );
        const started = Date.now();
        await host.kill(id);
        assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
        assert.deepEqual(liveProcessesWith(marker), []);
      } finally {
        killLeftovers(daemon);
      }
    });
  });
});

/** Zombies of process group `pgid`, from /proc. */
function zombiesIn(pgid: number): number {
  return fs.readdirSync('/proc').filter((entry) => {
    const stat = /^\d+$/.test(entry) ? readProcStat(entry) : undefined;
    return stat?.state === 'Z' && stat.pgrp === pgid;
  }).length;
}

describe("terminals: one terminal's streams", () => {
  class FakeChild extends EventEmitter {
    readonly pid = undefined;
    readonly stdout = new PassThrough();
    readonly stderr = new PassThrough();
  }
  const timing = { graceMs: 10, waitMs: 10, drainMs: 60_000 };

  it('survives a read error, sends no empty pieces, and leaves no timer once the exit is in', async () => {
    const child = new FakeChild();
    const chunks: string[] = [];
    await tick(); // mocha's own timeout timer is set once the test has returned its promise
    const before = timers();
    const terminal = new Terminal(
      't',
      child as unknown as GroupChild,
      100,
      { output: (_id, chunk) => void chunks.push(chunk), exit: () => undefined },
      timing,
    );
    child.stdout.write(Buffer.from([0xe2, 0x82]));
    await tick();
    child.stdout.write(Buffer.from([0xac]));
    await tick();
    assert.doesNotThrow(() => child.stderr.emit('error', new Error('EIO')));
    child.stdout.end();
    child.stderr.end();
    await tick();
    child.emit('exit', 0, null);
    child.emit('close');
    assert.deepEqual(await terminal.exited, { exitCode: 0, signal: null });
    assert.deepEqual(chunks, ['€'], 'the held-back bytes and the empty end are not sent');
    assert.equal(timers(), before, 'the drain timer was cleared');
  });
});
