/**
 * Starting a command as the leader of its own process group, and ending the
 * whole group: the command and everything it started that stayed in the
 * group. A process that leaves the group on purpose (setsid, a daemon) is
 * out of reach; so is, on Windows, a process whose parent already exited.
 */
import { execFile, spawn, type ChildProcessByStdio } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { processKeeper } from '../keeper/processKeeper';
import { descendants, signalEach } from '../agents/descendants';
import { parseProcStat } from '../procStat';

export type GroupChild = ChildProcessByStdio<null, Readable, Readable>;

export interface SpawnSpec {
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Resolves once the process runs; rejects with the system error when it could
 * not start, whether spawn() reports it later (ENOENT, EACCES) or throws it at
 * once (E2BIG: an argument or variable over the kernel's 128 KiB).
 */
export function spawnInGroup(spec: SpawnSpec): Promise<GroupChild> {
  let child: GroupChild;
  try {
    child = spawnChild(spec);
  } catch (e) {
    return Promise.reject(e);
  }
  return new Promise((resolve, reject) => {
    child.once('spawn', () => {
      // If the extension host dies before it can end the command, the keeper does.
      processKeeper.watch(child.pid);
      resolve(child);
    });
    // Kept after the start too: an 'error' event without a listener would throw.
    child.on('error', reject);
  });
}

function spawnChild(spec: SpawnSpec): GroupChild {
  return spawn(spec.executable, [...spec.args], {
    cwd: spec.cwd,
    env: { ...spec.env },
    // No stdin: nobody can type into an agent's terminal, and a command
    // waiting for input would otherwise hang until killed.
    stdio: ['ignore', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
    // POSIX: setsid(), so the command leads a new process group. Windows:
    // detached would open a console window; the tree is ended by taskkill /T.
    detached: process.platform !== 'win32',
  });
}

const POLL_MS = 25;

/**
 * SIGTERM to the group, SIGKILL to what is left after `graceMs`, then waits
 * (at most `waitMs`) until no live process of the group remains. Never
 * signals a group that is already gone: its number could be reused.
 */
export async function endProcessGroup(pgid: number, graceMs: number, waitMs: number): Promise<void> {
  if (await groupAlive(pgid)) {
    // Read before the first signal: a child that made a group of its own is reached by pid.
    const below = descendants(pgid);
    signalGroup(pgid, 'SIGTERM');
    signalEach(below, 'SIGTERM');
    if (!(await waitGone(pgid, graceMs))) {
      signalGroup(pgid, 'SIGKILL');
      await waitGone(pgid, waitMs);
    }
    signalEach(below, 'SIGKILL');
  }
  processKeeper.forget(pgid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: gone in between.
  }
}

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!(await groupAlive(pgid))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
}

/**
 * Whether a process of the group still runs. kill(-pgid, 0) alone also
 * counts zombies, which stay until their parent reaps them; orphans are
 * reparented to PID 1, and not every PID 1 reaps promptly (containers).
 * On Linux /proc tells zombies apart.
 */
export async function groupAlive(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  return (await liveMembersOnLinux(pgid)) ?? true;
}

/** Whether any non-zombie process has this process group; undefined when /proc cannot be read. */
async function liveMembersOnLinux(pgid: number): Promise<boolean | undefined> {
  let entries: string[];
  try {
    entries = await fs.readdir('/proc');
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = parseProcStat(await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => ''));
    if (stat?.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/**
 * Windows has no process groups to signal: taskkill /T walks the tree by
 * parent id and /F ends it at once (console programs ignore the polite form).
 * Started through execFile with its absolute path, never through a shell.
 * Only while the command itself runs: once it exited its pid may be reused.
 */
export function endWindowsTree(pid: number): Promise<void> {
  const taskkill = path.win32.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'taskkill.exe');
  return new Promise((resolve) => {
    execFile(taskkill, ['/PID', String(pid), '/T', '/F'], { windowsHide: true }, () => resolve());
  });
}
