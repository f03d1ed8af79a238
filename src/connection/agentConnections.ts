/**
 * The agent processes, one per agent, shared by the chats that use it.
 *
 * Why shared: ACP multiplexes sessions on one connection (every request names
 * its session), every agent we test serves two sessions on one process at once
 * (real-agents' twoSessions check), and a process per chat would cost each
 * chat a start (0.4 to 1.9 s, `npm run bench`) and an agent's memory. The
 * price is that a crash ends every chat on that process: each one says so,
 * and one that lost only its connection reconnects on its own.
 *
 * A chat holds a lease while it has a session; the process ends when the last
 * lease is given back. Chats that connect at the same time share one start.
 */
import type * as vscode from 'vscode';
import { type Disposable } from '../shared/events';
import type { AgentExit, Platform, WindowPort, WorkPlace } from '../platform';
import type { AgentCapabilities } from '@agentclientprotocol/sdk';
import type { ClientIdentity } from './agentClient';
import { AgentConnection } from './agentConnection';
import type { Diagnostics } from '../diagnostics/diagnostics';

/** A chat's hold on a started agent. */
export interface ConnectionLease {
  readonly connection: AgentConnection;
  /** Gives the lease back (once); the agent ends with the last one. */
  release(): void;
}

/** What a chat's session needs of the agents: its own place's processes (AgentConnections.at). */
export type AgentPool = Pick<AgentConnections, 'acquire' | 'restartAfterSignIn' | 'end'>;

interface Slot {
  readonly key: string;
  readonly agentId: string;
  starting: Promise<AgentConnection | undefined>;
  readonly abort: AbortController;
  /** Chats waiting for the start. */
  waiting: number;
  leases: number;
  connection?: AgentConnection;
}

export class AgentConnections implements Disposable {
  private readonly slots = new Map<string, Slot>();
  /** What each agent said it can do when it last started in this window. */
  private readonly seen = new Map<string, AgentCapabilities>();

  constructor(
    private readonly platform: Platform,
    /** Where a sign-in asks the user how. */
    private readonly window: WindowPort,
    private readonly identity: ClientIdentity,
    private readonly log: vscode.LogOutputChannel,
    private readonly diagnostics?: Diagnostics,
    /** Whether to ask agents for ACP v2 (read at each start). */
    private readonly askV2: () => boolean = () => false,
  ) {}

  /**
   * A lease on `agentId`'s process, started if none runs; undefined when the
   * start was cancelled (by `signal`, or by the user in a prompt). Throws why
   * the start failed.
   */
  async acquire(agentId: string, signal: AbortSignal, place?: WorkPlace): Promise<ConnectionLease | undefined> {
    const slot = this.slots.get(slotKey(agentId, place)) ?? this.start(agentId, place);
    slot.waiting++;
    // One chat giving up does not cancel the start for another one waiting for it.
    const onAbort = () => {
      if (--slot.waiting === 0 && slot.leases === 0 && !slot.connection) slot.abort.abort();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    let connection: AgentConnection | undefined;
    try {
      connection = await Promise.race([slot.starting, aborted(signal)]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted) slot.waiting--;
    }
    if (!connection || signal.aborted || connection.client.isClosed) {
      this.endIfUnused(slot);
      return undefined;
    }
    slot.leases++;
    let released = false;
    return {
      connection,
      release: () => {
        if (released) return;
        released = true;
        slot.leases--;
        this.endIfUnused(slot);
      },
    };
  }

  /**
   * The agents of chats that work in `place` (a worktree): each agent runs there as a process of its own, its `cwd`
   * and only folder the worktree, so that its files, terminals and checkpoints are the worktree's.
   */
  at(place: WorkPlace): AgentPool {
    return {
      acquire: (agentId, signal) => this.acquire(agentId, signal, place),
      restartAfterSignIn: (agentId) => this.restartAfterSignIn(agentId),
      end: (agentId, exit) => this.end(agentId, exit),
    };
  }

  /** What `agentId` advertised when it last started in this window; undefined if it has not. */
  capabilitiesOf(agentId: string): AgentCapabilities | undefined {
    return this.seen.get(agentId);
  }

  /** Runs `use` on `agentId`'s process (started for it if none runs), then gives it back. */
  async using<T>(agentId: string, use: (connection: AgentConnection) => Promise<T>): Promise<T | undefined> {
    const lease = await this.acquire(agentId, new AbortController().signal);
    if (!lease) return undefined;
    try {
      return await use(lease.connection);
    } finally {
      lease.release();
    }
  }

  /**
   * The agents' settings changed (command, arguments, environment, bridge):
   * the next chat starts a process as they now say. Running processes serve
   * the chats that have them until those let go.
   */
  retire(): void {
    for (const slot of this.slots.values()) {
      if (slot.leases === 0 && slot.waiting === 0) slot.connection?.client.dispose();
    }
    this.slots.clear();
  }

  /** Ends `agentId`'s processes (Restart Agent), in the workspace and in worktrees: every chat on them is told `exit`. */
  end(agentId: string, exit: AgentExit): void {
    for (const slot of [...this.slots.values()]) {
      if (slot.agentId !== agentId) continue;
      this.slots.delete(slot.key);
      slot.abort.abort();
      slot.connection?.client.dispose(exit);
    }
  }

  /** After a terminal sign-in (ACP v1): the agent starts again to use it; the chats on it reconnect. */
  restartAfterSignIn(agentId: string): void {
    this.log.info(`Signed in to ${agentId} in a terminal: restarting the agent.`);
    this.end(agentId, { message: 'Signed in: the agent restarts.', lost: true });
  }

  dispose(): void {
    for (const { agentId } of [...this.slots.values()]) {
      this.end(agentId, { message: 'VS Code is closing the window.' });
    }
  }

  private start(agentId: string, place: WorkPlace | undefined): Slot {
    const abort = new AbortController();
    const key = slotKey(agentId, place);
    const slot: Slot = { key, agentId, abort, waiting: 0, leases: 0, starting: Promise.resolve(undefined) };
    slot.starting = AgentConnection.start(
      this.platform,
      this.window,
      agentId,
      this.identity,
      this.log,
      abort.signal,
      this.diagnostics,
      this.askV2(),
      place,
    ).then(
      (connection) => {
        if (!connection) this.forget(slot);
        else {
          slot.connection = connection;
          this.seen.set(agentId, connection.init.agentCapabilities ?? {});
          // A process that is gone is not handed out again: the next chat starts a new one.
          connection.client.onDidClose(() => this.forget(slot));
        }
        return connection;
      },
      (error: unknown) => {
        this.forget(slot);
        throw error;
      },
    );
    this.slots.set(key, slot);
    return slot;
  }

  private endIfUnused(slot: Slot): void {
    if (slot.leases > 0 || slot.waiting > 0 || !slot.connection) return;
    slot.connection.client.dispose();
    this.forget(slot);
  }

  /** Drops `slot` from the map, unless another (a restart's, new settings') took its place. */
  private forget(slot: Slot): void {
    if (this.slots.get(slot.key) === slot) this.slots.delete(slot.key);
  }
}

/** An agent's process in the workspace, or in a worktree (a NUL is in no path). */
function slotKey(agentId: string, place: WorkPlace | undefined): string {
  return place ? `${agentId}\0${place.path}` : agentId;
}

/** Resolves undefined once `signal` aborts (at once if it has; never, if it does not). */
export function aborted(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', () => resolve(undefined), { once: true });
  });
}
