/**
 * Every `session/update` kind this client knows (those of the SDK's schema),
 * with what a session load's replay keeps of it. The one list: the unknown-kind
 * filter (connection/wire/unknownUpdates.ts), the replay filter (session/sessionOpen.ts)
 * and the diagnostics' words (diagnostics/messageRecord.ts) derive from it,
 * and TypeScript holds it against the SDK's union both ways (a kind missing
 * or one too many fails to compile). How each kind is shown is
 * threadReducer's `applyUpdate`, whose switch is exhaustive.
 *
 * `replay`: `state` when a load's replay of it is applied even with the
 * transcript already on screen (the session's controls and title), else
 * `transcript` (the replayed conversation, shown only when it is not).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';

export type UpdateKind = SessionUpdate['sessionUpdate'];

export const UPDATE_KINDS = {
  user_message_chunk: { replay: 'transcript' },
  agent_message_chunk: { replay: 'transcript' },
  agent_thought_chunk: { replay: 'transcript' },
  tool_call: { replay: 'transcript' },
  tool_call_update: { replay: 'transcript' },
  plan: { replay: 'transcript' },
  notice: { replay: 'transcript' },
  compaction_update: { replay: 'transcript' },
  compaction_summary_chunk: { replay: 'transcript' },
  available_commands_update: { replay: 'state' },
  current_mode_update: { replay: 'state' },
  config_option_update: { replay: 'state' },
  session_info_update: { replay: 'state' },
  usage_update: { replay: 'state' },
} as const satisfies Record<UpdateKind, { readonly replay: 'state' | 'transcript' }>;

export function isKnownUpdateKind(kind: string): kind is UpdateKind {
  return Object.hasOwn(UPDATE_KINDS, kind);
}

/** Whether a session load's replay of `kind` is applied even when the transcript is on screen. */
export function keptFromReplay(kind: UpdateKind): boolean {
  return UPDATE_KINDS[kind].replay === 'state';
}
