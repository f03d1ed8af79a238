/**
 * The controls a session answer (`session/new`, `load`, `resume`, `fork`) sets up, checked on the host: the SDK
 * checks what agents send in notifications and requests, not what they answer. (Not in shared/: the webview has no
 * use for these schemas.)
 */
import type { SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import { z } from 'zod/mini';
import type { SessionSetup } from '../shared/sessionControls';

const choiceSchema = z.object({ value: z.string(), name: z.string(), description: z.optional(z.nullable(z.string())) });
const agentOptionCommon = {
  id: z.string(),
  name: z.string(),
  description: z.optional(z.nullable(z.string())),
  category: z.optional(z.nullable(z.string())),
};
/** A config option as the agent sends it; one that does not fit is left out on its own (setupOf). */
const agentConfigOptionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('select'),
    ...agentOptionCommon,
    currentValue: z.string(),
    options: z.array(
      z.union([choiceSchema, z.object({ group: z.string(), name: z.string(), options: z.array(choiceSchema) })]),
    ),
  }),
  z.object({ type: z.literal('boolean'), ...agentOptionCommon, currentValue: z.boolean() }),
]);
const agentModesSchema = z.object({
  currentModeId: z.string(),
  availableModes: z.array(
    z.object({ id: z.string(), name: z.string(), description: z.optional(z.nullable(z.string())) }),
  ),
});

/**
 * Modes that do not fit are left out, and so is each config option that does not (the rest stays usable); `models`
 * is read by shared/sessionControls.ts (legacyModels).
 */
export function setupOf(response: unknown): SessionSetup {
  const r = (typeof response === 'object' && response !== null ? response : {}) as Record<string, unknown>;
  const modes = agentModesSchema.safeParse(r.modes);
  const configOptions = Array.isArray(r.configOptions)
    ? r.configOptions.flatMap((o) => {
        const parsed = agentConfigOptionSchema.safeParse(o);
        return parsed.success ? [parsed.data as SessionConfigOption] : [];
      })
    : undefined;
  return {
    ...(modes.success ? { modes: modes.data as SessionModeState } : {}),
    ...(configOptions ? { configOptions } : {}),
    ...(r.models !== undefined ? { models: r.models } : {}),
  };
}
