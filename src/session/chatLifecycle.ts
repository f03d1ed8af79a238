/**
 * One chat's lifecycle steps, one at a time: connect, reconnect, restart,
 * disconnect and close each wait for the step before to finish. A step that
 * must not wait (Disconnect during a connect) aborts the one running first;
 * the chat does that before it queues. And how an attempt to open ends.
 */
import type { AgentList } from '../agents/agentList';
import { errorMessage } from '../errorText';
import { AgentUnreachableError } from '../platform';
import type { NoticeAction } from '../shared/thread/thread';

/** Waits before each reconnect attempt after a dropped connection (about a minute in all). */
export const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

export class ChatLifecycle {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `step` after every step queued before it; its failure does not stop the ones after. */
  run<T>(step: () => Promise<T>): Promise<T> {
    const result = this.tail.then(step);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export type OpenOutcome = 'connected' | 'abandoned' | { error: unknown };

/**
 * Tries `open` after each of RECONNECT_DELAYS_MS while it fails with an error
 * `worthRetrying` (an unreachable agent may come back; a refusal or a crash
 * will not change). 'aborted': `signal` ended it.
 */
export async function retryOpen(
  open: () => Promise<OpenOutcome>,
  worthRetrying: (error: unknown) => boolean,
  signal: AbortSignal,
  onFailure: (error: unknown) => void,
): Promise<OpenOutcome | 'aborted'> {
  let last: OpenOutcome = { error: new Error('no attempt was made') };
  for (const delayMs of RECONNECT_DELAYS_MS) {
    if (!(await sleep(delayMs, signal))) return 'aborted';
    last = await open();
    if (signal.aborted) return 'aborted';
    if (last === 'connected' || last === 'abandoned') return last;
    onFailure(last.error);
    if (!worthRetrying(last.error)) break;
  }
  return last;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * What a failed connect says, and offers: for an agent the host cannot find, its install (or its setting, for one
 * with no installer); for a bridge that did not answer, another try; for an agent that started and failed, its setting
 * (its command, arguments and environment are where such a failure is fixed).
 */
export function connectFailure(
  agents: Pick<AgentList, 'name' | 'agents'>,
  agentId: string,
  error: unknown,
): { text: string; action: NoticeAction } {
  const text = `Could not connect to ${agents.name(agentId)}: ${errorMessage(error)}`;
  if (error instanceof AgentUnreachableError) return { text, action: 'retry' };
  const agent = agents.agents.find((a) => a.id === agentId);
  return { text, action: agent && !agent.available && agent.install ? 'install' : 'openSettings' };
}
