/** Node host: looking for the processes a test started (pgrep -f over command lines). */
import { execFileSync } from 'child_process';

/** The pids of processes whose command line matches `pattern`, one a line; '' when there are none. */
export function processes(pattern: string): string {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/** Waits up to `ms` for no process to match `pattern`; resolves with those still running ('' when none). */
export async function processesGone(pattern: string, ms: number): Promise<string> {
  for (const end = Date.now() + ms; processes(pattern) && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return processes(pattern);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits up to `ms` for these processes to end; resolves with those still alive. */
export async function pidsGone(pids: number[], ms: number): Promise<number[]> {
  for (const end = Date.now() + ms; pids.some(alive) && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}
