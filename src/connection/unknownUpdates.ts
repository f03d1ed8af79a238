/**
 * `session/update` kinds this client does not know, taken out before the
 * SDK sees them. The SDK's stable entry checks every update against its
 * schema and refuses an unknown kind ("Invalid params", logged to the
 * console, nowhere the user looks): an agent newer than us would lose those
 * updates without a word. Here they are counted and reported once per kind
 * instead, and the updates after them go on as before.
 */
import type { AnyMessage, SessionUpdate } from '@agentclientprotocol/sdk';

/** Every kind the SDK's schema (and so this client) knows; TypeScript checks it against the SDK's types. */
const KNOWN_KINDS = {
  user_message_chunk: true, agent_message_chunk: true, agent_thought_chunk: true, tool_call: true, tool_call_update: true,
  plan: true, available_commands_update: true, current_mode_update: true, config_option_update: true,
  session_info_update: true, usage_update: true, notice: true, compaction_update: true, compaction_summary_chunk: true,
} satisfies Record<SessionUpdate['sessionUpdate'], true>;

/** The kind of an incoming `session/update` notification that is not in KNOWN_KINDS, else undefined. */
export function unknownUpdateKind(message: AnyMessage): string | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: { update?: { sessionUpdate?: unknown } } };
  if (m.method !== 'session/update' || m.id !== undefined) return undefined;
  const kind = m.params?.update?.sessionUpdate;
  // Not a string: malformed, which the SDK's own check reports as such.
  if (typeof kind !== 'string' || Object.hasOwn(KNOWN_KINDS, kind)) return undefined;
  return kind;
}

/** Passes every message on except updates of unknown kinds, which go to `onUnknown`. */
export function withoutUnknownUpdates(onUnknown: (kind: string) => void): TransformStream<AnyMessage, AnyMessage> {
  return new TransformStream({
    transform(message, controller) {
      const kind = unknownUpdateKind(message);
      if (kind === undefined) controller.enqueue(message);
      else onUnknown(kind);
    },
  });
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
