/**
 * The terminals of one ACP session: `terminal/create`, `output`,
 * `wait_for_exit`, `kill` and `release`, plus events for live display.
 * Consent is the caller's job: reserve a slot, prepareLaunch, ask the user
 * with describeLaunch, then create (or release the reservation).
 */
import type { TerminalExitStatus } from '@agentclientprotocol/sdk';
import { randomUUID } from 'node:crypto';
import { TerminalError } from './errors';
import { EXIT_DRAIN_MS, KILL_GRACE_MS, KILL_WAIT_MS, MAX_TERMINALS, RETAINED_RELEASED } from './limits';
import { Listeners, type Event } from './listeners';
import { isPreparedLaunch, type PreparedLaunch } from './launch/prepareLaunch';
import { spawnInGroup } from './processTree';
import { recheckLaunch } from './launch/recheckLaunch';
import { SlotPool, type SlotReservation } from './slots';
import { Terminal, type TerminalOutput, type TerminalTiming } from './terminal';

export interface TerminalHostOptions {
  readonly maxTerminals?: number;
  /** SIGTERM to SIGKILL when ending a process group. */
  readonly killGraceMs?: number;
  /** After SIGKILL, the longest wait for the group to be gone. */
  readonly killWaitMs?: number;
  /** After a command exits, the longest wait for its output pipes to close. */
  readonly exitDrainMs?: number;
  /** Called when an event listener throws; default console.error. */
  readonly onListenerError?: (error: unknown) => void;
}

export class TerminalHost {
  private readonly slots: SlotPool;
  private readonly live = new Map<string, Terminal>();
  /** Released (or disposed) terminals still being torn down: not the agent's any more, still shown. */
  private readonly ending = new Map<string, Terminal>();
  private readonly lastOutputs = new Map<string, TerminalOutput>();
  private readonly creating = new Set<Promise<string>>();
  private readonly timing: TerminalTiming;
  private readonly _onOutput: Listeners<[id: string, chunk: string]>;
  private readonly _onExit: Listeners<[id: string, status: TerminalExitStatus]>;
  /** Output as it arrives (stdout and stderr in arrival order, whole characters). */
  readonly onOutput: Event<[id: string, chunk: string]>;
  /** The command exited (fires once per terminal, also for killed and released ones). */
  readonly onExit: Event<[id: string, status: TerminalExitStatus]>;

  constructor(options: TerminalHostOptions = {}) {
    this.slots = new SlotPool(options.maxTerminals ?? MAX_TERMINALS);
    this.timing = {
      graceMs: options.killGraceMs ?? KILL_GRACE_MS,
      waitMs: options.killWaitMs ?? KILL_WAIT_MS,
      drainMs: options.exitDrainMs ?? EXIT_DRAIN_MS,
    };
    const onError = options.onListenerError ?? ((e: unknown) => console.error('Terminal event listener failed:', e));
    this._onOutput = new Listeners(onError);
    this._onExit = new Listeners(onError);
    this.onOutput = this._onOutput.event;
    this.onExit = this._onExit.event;
  }

  /** Slots held by pending requests and terminals, running or being torn down. */
  get slotsInUse(): number {
    return this.slots.inUse;
  }

  /** Holds a slot while a request is prepared and shown to the user. Throws 'too-many' / 'disposed'. */
  reserve(): SlotReservation {
    return this.slots.reserve();
  }

  /**
   * Checks the launch again (executable, folders) and starts it without a
   * shell in its own process group. Returns the terminal id. The slot comes
   * from `reservation` (or is reserved now) and is given back on failure.
   */
  create(launch: PreparedLaunch, reservation?: SlotReservation): Promise<string> {
    const creating = this.createTerminal(launch, reservation);
    // disposeAll waits for starts in flight: none may outlive it.
    this.creating.add(creating);
    const settled = () => this.creating.delete(creating);
    void creating.then(settled, settled);
    return creating;
  }

  output(id: string): TerminalOutput {
    return this.get(id).snapshot();
  }

  /** Resolves with the exit status once the command has exited; rejects when `signal` aborts first. */
  async waitForExit(id: string, signal?: AbortSignal): Promise<TerminalExitStatus> {
    return untilAborted(this.get(id).exited, signal);
  }

  /** Ends the command's whole process group; the terminal and its output stay for the agent. */
  async kill(id: string): Promise<void> {
    await this.get(id).end();
  }

  /**
   * Ends the command if it still runs and forgets the id (the agent can no
   * longer use it); the slot is free once the processes are gone. The final
   * output is returned and stays readable through `lastOutput`.
   */
  async release(id: string): Promise<TerminalOutput> {
    const terminal = this.get(id);
    this.live.delete(id);
    this.ending.set(id, terminal);
    return this.tearDown(terminal);
  }

  /** The latest output of a live, ending or recently released terminal, for display (not for the agent). */
  lastOutput(id: string): TerminalOutput | undefined {
    return (this.live.get(id) ?? this.ending.get(id))?.snapshot() ?? this.lastOutputs.get(id);
  }

  /**
   * Ends every process tree and refuses new terminals (and pending
   * reservations). For disconnect, session load or replacement, New Chat,
   * agent change and shutdown; the next session gets a new host.
   */
  async disposeAll(): Promise<void> {
    this.slots.close();
    const terminals = [...this.live.values()];
    this.live.clear();
    for (const terminal of terminals) this.ending.set(terminal.id, terminal);
    const starts = [...this.creating].map((p) => p.catch(() => undefined));
    await Promise.all([...[...this.ending.values()].map((t) => this.tearDown(t)), ...starts]);
  }

  private async createTerminal(launch: PreparedLaunch, reservation: SlotReservation | undefined): Promise<string> {
    if (!isPreparedLaunch(launch)) {
      reservation?.release();
      throw new TerminalError('invalid-request', 'Only a launch made by prepareLaunch can be started.');
    }
    const slot = reservation ?? this.slots.reserve();
    this.slots.take(slot);
    let terminal: Terminal;
    try {
      terminal = await this.start(launch);
    } catch (e) {
      this.slots.free();
      throw e;
    }
    if (this.slots.isClosed) {
      // disposeAll ran while this one was starting: it must not survive it.
      this.ending.set(terminal.id, terminal);
      await this.tearDown(terminal);
      throw new TerminalError('disposed', "This session's terminals have been ended.");
    }
    this.live.set(terminal.id, terminal);
    return terminal.id;
  }

  private async start(launch: PreparedLaunch): Promise<Terminal> {
    const cwd = await recheckLaunch(launch);
    try {
      const child = await spawnInGroup({
        executable: launch.executable,
        args: launch.args,
        cwd: cwd.path,
        env: launch.env,
      }).catch((e: NodeJS.ErrnoException) => {
        throw new TerminalError('spawn-failed', `The command could not be started (${e.code ?? 'error'}).`);
      });
      const events = {
        output: (id: string, chunk: string) => this._onOutput.fire(id, chunk),
        exit: (id: string, status: TerminalExitStatus) => this._onExit.fire(id, status),
      };
      return new Terminal(randomUUID(), child, launch.outputByteLimit, events, this.timing);
    } finally {
      await cwd.close();
    }
  }

  /** Ends the terminal's tree, frees its slot once, keeps its last output. */
  private async tearDown(terminal: Terminal): Promise<TerminalOutput> {
    await terminal.end();
    if (this.ending.delete(terminal.id)) {
      this.slots.free();
      this.lastOutputs.set(terminal.id, terminal.snapshot());
      for (const old of this.lastOutputs.keys()) {
        if (this.lastOutputs.size <= RETAINED_RELEASED) break;
        this.lastOutputs.delete(old);
      }
    }
    return terminal.snapshot();
  }

  private get(id: string): Terminal {
    const terminal = typeof id === 'string' ? this.live.get(id) : undefined;
    if (!terminal) {
      throw new TerminalError('unknown-terminal', 'No such terminal (it was never created here, or it was released).');
    }
    return terminal;
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
