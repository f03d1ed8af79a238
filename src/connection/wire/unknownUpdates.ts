/**
 * `session/update` kinds this client does not know, taken out before the
 * SDK sees them. The SDK's stable entry checks every update against its
 * schema and refuses an unknown kind ("Invalid params", logged to the
 * console, nowhere the user looks): an agent newer than us would lose those
 * updates without a word. Here they are counted and reported once per kind
 * instead, and the updates after them go on as before.
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { PLAN_OPERATION_KEY, PLAN_OPERATION_KINDS } from '../../shared/thread/planOperations';
import { isKnownUpdateKind } from '../../shared/updateKinds';

/** The kind of an incoming `session/update` notification that this client does not know (see UPDATE_KINDS), else undefined. */
export function unknownUpdateKind(message: AnyMessage): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { update?: { sessionUpdate?: unknown } } };
  if (m.method !== 'session/update' || m.id !== undefined) return undefined;
  const kind = m.params?.update?.sessionUpdate;
  // Not a string: malformed, which the SDK's own check reports as such.
  if (typeof kind !== 'string' || isKnownUpdateKind(kind)) return undefined;
  return kind;
}

/**
 * Passes every message on except updates of unknown kinds, which go to `onUnknown`. Plan operations, which this
 * client knows but the SDK's stable schema does not yet, pass as the `session_info_update` that carries them
 * (shared/planOperations.ts).
 */
export function withoutUnknownUpdates(onUnknown: (kind: string) => void): TransformStream<AnyMessage, AnyMessage> {
  return new TransformStream({
    transform(message, controller) {
      const kind = unknownUpdateKind(message);
      if (kind === undefined) controller.enqueue(message);
      else if (PLAN_OPERATION_KINDS.has(kind)) controller.enqueue(carryingPlanOperation(message));
      else onUnknown(kind);
    },
  });
}

/** A plan operation's notification as a `session_info_update` with the update as it came in its `_meta`. */
function carryingPlanOperation(message: AnyMessage): AnyMessage {
  const { params } = message as { params: { sessionId?: unknown; update: unknown } };
  return {
    jsonrpc: '2.0',
    method: 'session/update',
    params: {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'session_info_update', _meta: { [PLAN_OPERATION_KEY]: params.update } },
    },
  } as AnyMessage;
}

/** Kinds counted one by one; past it (a hostile agent may invent a kind per message) they count together. */
const MAX_KINDS = 32;
const OTHER_KINDS = '(other kinds)';

/** Counts per kind; says when a kind is new, so that it is reported once. */
export class UnknownUpdateCounts {
  private readonly counts = new Map<string, number>();

  /** Counts one; true the first time a kind (or, past MAX_KINDS, any further kind) is seen. */
  add(kind: string): boolean {
    const key = this.counts.has(kind) || this.counts.size < MAX_KINDS ? kind : OTHER_KINDS;
    const n = this.counts.get(key) ?? 0;
    this.counts.set(key, n + 1);
    return n === 0;
  }

  /** Kind -> how many were ignored, for diagnostics. */
  get snapshot(): ReadonlyMap<string, number> {
    return new Map(this.counts);
  }
}
