/**
 * Steering: a message put into the agent's running turn instead of waiting
 * for it to end. Not in ACP yet (`session/inject` is a draft); Claude Code's
 * adapter and codex-acp share an extension method for it, advertised in
 * `InitializeResponse._meta.steering.supported`:
 * `_session/steering {sessionId, prompt, _meta.steering.idleBehavior}`
 * answered `{outcome: "injected" | "promptRequired" | "startedNewTurn" | "failed"}`.
 */
import type * as acp from '@agentclientprotocol/sdk';

export const STEERING_METHOD = '_session/steering';

/**
 * What became of a steered message: `injected` into the running turn;
 * `noTurn`: the turn had ended, nothing was taken (send it as a prompt);
 * `refused`: the agent did not take it (said why, or answered nonsense).
 */
export type SteerOutcome = 'injected' | 'noTurn' | 'refused';

/** Whether an agent's `initialize` answer advertises steering. */
export function steersIn(init: acp.InitializeResponse | undefined): boolean {
  const steering = (init?._meta as { steering?: unknown } | null | undefined)?.steering;
  return typeof steering === 'object' && steering !== null && (steering as { supported?: unknown }).supported === true;
}

/** Reads the agent's answer (untrusted: anything but the known outcomes is a refusal). */
export function steeringAnswer(answer: unknown): SteerOutcome {
  const outcome = typeof answer === 'object' && answer !== null ? (answer as { outcome?: unknown }).outcome : undefined;
  // `startedNewTurn`: an agent that ignored idleBehavior started a turn with it; the message was taken.
  if (outcome === 'injected' || outcome === 'startedNewTurn') return 'injected';
  if (outcome === 'promptRequired') return 'noTurn';
  return 'refused';
}
