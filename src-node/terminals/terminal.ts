/**
 * One running command: its process group, its output, its exit. Owned by a
 * TerminalHost, which decides when it may be ended and forgotten.
 */
import type { TerminalExitStatus } from '@agentclientprotocol/sdk';
import { OutputBuffer, Utf8Splitter } from './outputBuffer';
import { endProcessGroup, endWindowsTree, type GroupChild } from './processTree';

/** What `terminal/output` answers. */
export interface TerminalOutput {
  readonly output: string;
  readonly truncated: boolean;
  /** Set once the command has exited (and its output drained). */
  readonly exitStatus: TerminalExitStatus | null;
}

export interface TerminalTiming {
  /** SIGTERM to SIGKILL. */
  readonly graceMs: number;
  /** After SIGKILL, the longest wait for the group to be gone. */
  readonly waitMs: number;
  /** After the exit, the longest wait for the output pipes to close. */
  readonly drainMs: number;
}

export interface TerminalEvents {
  output(id: string, chunk: string): void;
  exit(id: string, status: TerminalExitStatus): void;
}

export class Terminal {
  private readonly buffer: OutputBuffer;
  private status: TerminalExitStatus | null = null;
  private leaderExited = false;
  private ending: Promise<void> | undefined;
  /** Resolves when the command has exited and its output is in (or the drain wait is over). */
  readonly exited: Promise<TerminalExitStatus>;

  constructor(
    readonly id: string,
    private readonly child: GroupChild,
    limit: number,
    private readonly events: TerminalEvents,
    private readonly timing: TerminalTiming,
  ) {
    this.buffer = new OutputBuffer(limit);
    this.capture(child.stdout);
    this.capture(child.stderr);
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.leaderExited = true;
        void within(closed, timing.drainMs).then(() => {
          this.status = { exitCode: code, signal };
          this.events.exit(id, this.status);
          resolve(this.status);
        });
      });
    });
  }

  snapshot(): TerminalOutput {
    return { ...this.buffer.snapshot(), exitStatus: this.status };
  }

  /**
   * Ends the command and whatever it started in its group (also when the
   * command itself already exited and left children behind); resolves once
   * they are gone, or after the longest wait.
   */
  end(): Promise<void> {
    this.ending ??= this.endTree().finally(() => {
      this.ending = undefined;
    });
    return this.ending;
  }

  private async endTree(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    if (process.platform === 'win32') {
      if (!this.leaderExited) await endWindowsTree(pid);
    } else {
      await endProcessGroup(pid, this.timing.graceMs, this.timing.waitMs);
    }
    await within(this.exited, this.timing.waitMs);
  }

  private capture(stream: GroupChild['stdout']): void {
    const splitter = new Utf8Splitter();
    stream.on('data', (chunk: Buffer) => this.add(splitter.push(chunk)));
    // An incomplete character at the very end is kept as it is (it decodes to U+FFFD).
    stream.on('end', () => this.add(splitter.end()));
    // A read error ends the stream like a close; the exit still comes from the process.
    stream.on('error', () => undefined);
  }

  private add(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.buffer.append(bytes);
    this.events.output(this.id, bytes.toString('utf8'));
  }
}

/** Waits for `promise`, at most `ms`; the timer does not outlive the wait. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
}
