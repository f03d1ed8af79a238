/**
 * Delivers `session/update` notifications to the listener of their session,
 * in arrival order. Updates for a session id nobody listens to yet are
 * buffered: agents send `available_commands_update` before the `session/new`
 * response that tells us the id.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

export type UpdateListener = (update: SessionUpdate) => void;

/** Bounds on what an agent can make us hold for sessions we do not know. */
const MAX_BUFFERED_SESSIONS = 16;
const MAX_BUFFERED_UPDATES = 1_000;

export class SessionUpdateRouter {
  private readonly listeners = new Map<string, UpdateListener>();
  private readonly buffered = new Map<string, SessionUpdate[]>();

  dispatch(sessionId: string, update: SessionUpdate): void {
    const listener = this.listeners.get(sessionId);
    if (listener) {
      listener(update);
      return;
    }
    let queue = this.buffered.get(sessionId);
    if (!queue) {
      if (this.buffered.size >= MAX_BUFFERED_SESSIONS) return;
      queue = [];
      this.buffered.set(sessionId, queue);
    }
    if (queue.length < MAX_BUFFERED_UPDATES) queue.push(update);
  }

  /** Starts delivering to `listener`, first replaying what was buffered. */
  listen(sessionId: string, listener: UpdateListener): { dispose(): void } {
    this.listeners.set(sessionId, listener);
    const queue = this.buffered.get(sessionId);
    this.buffered.delete(sessionId);
    for (const update of queue ?? []) listener(update);
    return {
      dispose: () => {
        if (this.listeners.get(sessionId) === listener) this.listeners.delete(sessionId);
      },
    };
  }
}
