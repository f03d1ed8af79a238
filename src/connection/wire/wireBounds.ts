/**
 * Lists an agent sends that the thread keeps only so much of (a plan's steps, a tool call's content and locations),
 * cut to that bound before the SDK checks the message: checking 100,000 items stalled the extension host for 1 to
 * 2 s, for items the thread then left out anyway. How many were cut rides along in the update's `_meta`
 * (LEFT_OUT_KEY), so that the thread can still say how many the agent sent.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { LEFT_OUT_KEY } from '../../shared/leftOut';
import { MAX_PLAN_ENTRIES } from '../../shared/thread/planOperations';
import { MAX_TOOL_ITEMS } from '../../shared/thread/toolCalls';

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Passes every message on, an update's or a permission request's long lists cut to their bounds. */
export function withinWireBounds(): TransformStream<AnyMessage, AnyMessage> {
  return new TransformStream({
    transform(message, controller) {
      controller.enqueue(bounded(message));
    },
  });
}

/** `message` with its long lists cut (the same object when none is). */
export function bounded(message: AnyMessage): AnyMessage {
  const m = message as { method?: unknown; params?: unknown };
  if (!isRecord(m.params)) return message;
  if (m.method === 'session/update' && isRecord(m.params.update)) {
    const update = m.params.update;
    const cut = update.sessionUpdate === 'plan' ? cutLists(update, { entries: MAX_PLAN_ENTRIES }) : toolCall(update);
    return cut === update ? message : ({ ...m, params: { ...m.params, update: cut } } as AnyMessage);
  }
  if (m.method === 'session/request_permission' && isRecord(m.params.toolCall)) {
    const cut = toolCall(m.params.toolCall);
    return cut === m.params.toolCall ? message : ({ ...m, params: { ...m.params, toolCall: cut } } as AnyMessage);
  }
  return message;
}

function toolCall(call: Json): Json {
  const kind = call.sessionUpdate;
  if (kind !== undefined && kind !== 'tool_call' && kind !== 'tool_call_update') return call;
  return cutLists(call, { content: MAX_TOOL_ITEMS, locations: MAX_TOOL_ITEMS });
}

/** `owner` with each list longer than its bound cut, and how many were cut said in its `_meta`. */
function cutLists(owner: Json, bounds: Record<string, number>): Json {
  const leftOut: Record<string, number> = {};
  const cut: Json = {};
  for (const [key, max] of Object.entries(bounds)) {
    const list = owner[key];
    if (!Array.isArray(list) || list.length <= max) continue;
    cut[key] = list.slice(0, max);
    leftOut[key] = list.length - max;
  }
  if (Object.keys(cut).length === 0) return owner;
  // A `_meta` of another shape is the SDK's to refuse: it is left as it came.
  if (owner._meta !== undefined && owner._meta !== null && !isRecord(owner._meta)) return { ...owner, ...cut };
  return { ...owner, ...cut, _meta: { ...(owner._meta as Json | null | undefined), [LEFT_OUT_KEY]: leftOut } };
}
