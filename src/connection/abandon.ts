/**
 * Requests the extension gives up on (a listing that takes too long, a
 * session open the user cancelled, a sign-in they abandoned): the agent is
 * told with `$/cancel_request` (stable ACP since June 2026), which the SDK
 * sends when the request's cancellation signal aborts. Every agent can take
 * it: one that does not know it ignores a `$/` notification.
 */
import type * as acp from '@agentclientprotocol/sdk';

/** A signal that aborts after `ms` with an Error saying `why` (or when `also` aborts); clear() once the wait is over. */
export function deadline(ms: number, why: string, also?: AbortSignal): { readonly signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(why)), ms);
  // (Not AbortSignal.any: the signal it makes is only weakly held by `also`.)
  const giveUp = () => controller.abort(also?.reason);
  if (also?.aborted) giveUp();
  also?.addEventListener('abort', giveUp, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      also?.removeEventListener('abort', giveUp);
    },
  };
}

/**
 * Sends a request that `signal` abandons: the agent is told, and the request
 * rejects at once with the signal's reason; `cooperative`: it still waits for
 * the agent's answer (a session it opened anyway must be closed again).
 */
export async function abandonable<T>(
  send: (options?: acp.SendRequestOptions) => Promise<T>,
  signal: AbortSignal | undefined,
  cooperative = false,
): Promise<T> {
  if (!signal) return send();
  try {
    return await send({ cancellationSignal: signal, stopWaitingOnCancel: !cooperative });
  } catch (error) {
    throw signal.aborted && signal.reason instanceof Error ? signal.reason : error;
  }
}
