/**
 * The extension host's side of the process keeper (main.ts): started once,
 * on the first process group to watch, and told about every group the
 * extension starts and ends. If the host dies, the keeper ends the groups.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

class ProcessKeeper {
  private keeper: ChildProcess | undefined;
  private broken = false;

  /** Watch the process group led by `pid` (just started with its own group). */
  watch(pid: number | undefined): void {
    if (pid !== undefined) this.send(`+${pid}`);
  }

  /** The host ended that group itself. */
  forget(pid: number | undefined): void {
    if (pid !== undefined && this.keeper) this.send(`-${pid}`);
  }

  private send(line: string): void {
    if (process.platform === 'win32' || this.broken) return;
    const keeper = this.keeper ?? this.start();
    keeper?.stdin?.write(`${line}\n`);
  }

  private start(): ChildProcess | undefined {
    try {
      const keeper = spawn(process.execPath, [path.join(__dirname, 'keeper.js')], {
        // In VS Code the host's executable is Electron's; this makes it plain Node.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['pipe', 'ignore', 'ignore'],
        // A session of its own: a signal to the host's process group does not end it first.
        detached: true,
      });
      keeper.on('error', () => this.lose());
      keeper.on('exit', () => this.lose());
      keeper.stdin?.on('error', () => this.lose());
      // Neither it nor its pipe keeps the host alive.
      keeper.unref();
      (keeper.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      this.keeper = keeper;
      return keeper;
    } catch {
      this.lose();
      return undefined;
    }
  }

  /** Without a keeper, the host's own teardown still ends the groups on a normal exit. */
  private lose(): void {
    this.keeper = undefined;
    this.broken = true;
  }
}

/** One keeper per extension host. */
export const processKeeper = new ProcessKeeper();
