/**
 * The process keeper: a small process of its own (dist/node/keeper.js) that
 * ends what the extension started for agents (agent processes, the commands
 * run for them) when the extension host is gone, however it went: a normal
 * shutdown, a crash, or SIGKILL, when none of the extension's own code runs
 * at the end.
 *
 * Its standard input is a pipe from the extension host: the host's end
 * closes when the host dies, whatever killed it. Lines on it: `+PGID` to
 * watch a process group (its leader just started), `-PGID` to forget one the
 * host ended itself. At end of input (or SIGTERM, SIGHUP, SIGINT) it signals
 * every watched group still its own: SIGTERM, then SIGKILL after a grace
 * period, and exits. It runs in a session of its own, so that signals meant
 * for the host's process group do not reach it first.
 *
 * Reach: a process that leaves its group (setsid, a daemon) is out of reach;
 * so is everything on Windows (no process groups; the host ends trees itself).
 */
import { readdirSync } from 'node:fs';
import { readProcStat } from '../procStat';

const GRACE_MS = 2_000;

/** Watched group -> the start time of its leader (Linux; '' elsewhere). */
const watched = new Map<number, string>();

const startTime = (pid: number): string | undefined => readProcStat(pid)?.start;

/** Whether any process still belongs to the group (Linux: a scan of /proc). */
function groupHasMembers(pgid: number): boolean {
  return readdirSync('/proc').some((entry) => /^\d+$/.test(entry) && readProcStat(entry)?.pgrp === pgid);
}

/**
 * Whether group `pgid` is still the one we were told about. On Linux a pid
 * number is not handed out again while a process group of that number has
 * members, so: the leader is the same process (same start time), or it is
 * gone and members of its group remain.
 */
function stillOurs(pgid: number, started: string): boolean {
  if (process.platform !== 'linux') return true;
  const now = startTime(pgid);
  return now === undefined ? groupHasMembers(pgid) : now === started;
}

function signalGroups(signal: NodeJS.Signals): number {
  let signalled = 0;
  for (const [pgid, started] of watched) {
    if (!stillOurs(pgid, started)) {
      watched.delete(pgid);
      continue;
    }
    try {
      process.kill(-pgid, signal);
      signalled++;
    } catch {
      watched.delete(pgid);
    }
  }
  return signalled;
}

let ending = false;
function endAll(): void {
  if (ending) return;
  ending = true;
  if (signalGroups('SIGTERM') === 0) process.exit(0);
  setTimeout(() => {
    signalGroups('SIGKILL');
    process.exit(0);
  }, GRACE_MS);
}

function onLine(line: string): void {
  const pgid = Number(line.slice(1));
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return;
  if (line[0] === '+') watched.set(pgid, startTime(pgid) ?? '');
  else if (line[0] === '-') watched.delete(pgid);
}

let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  const lines = (rest + text).split('\n');
  rest = lines.pop() ?? '';
  lines.forEach(onLine);
});
process.stdin.on('end', endAll);
process.stdin.on('error', endAll);
for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, endAll);
