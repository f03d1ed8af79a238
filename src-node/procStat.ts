/**
 * Fields of /proc/PID/stat (Linux): the one parser for the keeper, the
 * terminals' process groups and the processes below an agent. The command
 * name in it may hold spaces and parentheses, so fields are read after the
 * last ')'.
 */
import { readFileSync } from 'node:fs';

export interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), ... */
  readonly state: string;
  readonly ppid: number;
  readonly pgrp: number;
  /** Field 22: when the process started, in clock ticks since boot (a pid's identity with it). */
  readonly start: string;
}

export function parseProcStat(text: string): ProcStat | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields.length < 20) return undefined;
  return { state: fields[0]!, ppid: Number(fields[1]), pgrp: Number(fields[2]), start: fields[19]! };
}

/** The stat of `pid`, or undefined once it is gone (or where there is no /proc). */
export function readProcStat(pid: number | string): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
