/**
 * Steering: a message put into the agent's running turn instead of waiting
 * for it to end. Not in ACP yet (`session/inject` is a draft); Claude Code's
 * adapter and codex-acp share an extension method for it, advertised in
 * `InitializeResponse._meta.steering.supported`:
 * `_session/steering {sessionId, prompt, _meta.steering.idleBehavior}`
 * answered `{outcome: "injected" | "promptRequired" | "startedNewTurn" | "failed"}`.
 */
import * as acp from '@agentclientprotocol/sdk';

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

/**
 * Steering pulled by the agent: Qwen Code asks `craft/drainMidTurnQueue {sessionId}` after each tool batch and
 * takes the answer's items into the running turn (at most MAX_PULLED of them: it drops the rest). It waits 2 s
 * for the answer; "method not found" turns the asking off for the session.
 */
export const PULL_METHOD = 'craft/drainMidTurnQueue';
export const MAX_PULLED = 10;

/** A steered message as a pulling agent takes it: its blocks, and the text it records for it. */
export interface PulledMessage {
  readonly content: acp.ContentBlock[];
  readonly displayText: string;
}

/** The answer to PULL_METHOD: `hasQueuedPrompt`, other prompts wait for the turn to end. */
export interface PullAnswer {
  readonly items: PulledMessage[];
  readonly hasQueuedPrompt: boolean;
}

/** PULL_METHOD's params (untrusted): a session id, or an invalid-params error. */
export function pullParams(params: unknown): { sessionId: string } {
  const sessionId = typeof params === 'object' && params !== null ? (params as { sessionId?: unknown }).sessionId : '';
  if (typeof sessionId !== 'string') throw acp.RequestError.invalidParams({}, 'A session id is required.');
  return { sessionId };
}
