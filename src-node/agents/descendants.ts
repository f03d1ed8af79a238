/**
 * The processes below an agent, for ending them with it. Signalling the
 * agent's process group does not reach a child that made a group of its
 * own (Gemini CLI runs each shell command so), and once the agent is gone
 * such a child is re-parented and no longer looks like the agent's. So the
 * tree is read (Linux: the parent links in /proc) before the first signal,
 * and each process of it is signalled by pid, checked by its start time so
 * that a reused pid is never hit.
 */
import { readdirSync } from 'node:fs';
import { readProcStat } from '../procStat';

export interface TreeProcess {
  readonly pid: number;
  /** When it started (procStat.ts): with the pid, which process this is. */
  readonly start: string;
}

/** Every process below `pid` (not `pid` itself), as the tree is now; [] where there is no /proc. */
export function descendants(pid: number): TreeProcess[] {
  if (process.platform !== 'linux') return [];
  const children = new Map<number, TreeProcess[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    const s = readProcStat(name);
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push({ pid: Number(name), start: s.start });
    children.set(s.ppid, list);
  }
  const out: TreeProcess[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/** Signals each process of `tree` that is still the one that was seen (same pid, same start). */
export function signalEach(tree: readonly TreeProcess[], signal: NodeJS.Signals): void {
  for (const p of tree) {
    if (readProcStat(p.pid)?.start !== p.start) continue;
    try {
      process.kill(p.pid, signal);
    } catch {
      // Gone meanwhile.
    }
  }
}
