/**
 * A session's controls as the view shows them: config options, modes, legacy
 * models, slash commands and context usage. Parsed by the webview (zod).
 */
import type { SessionConfigOption, SessionModeState, SessionUpdate } from '@agentclientprotocol/sdk';
import { z } from 'zod/mini';
import { rateLimitSchema, withRateLimit } from './thread/rateLimits';

/** The session's controls, in the order the view prefers them (config options, else modes, else models). */
export const sessionControlsSchema = z.object({
  configOptions: z.array(
    z.discriminatedUnion('type', [
      z.object({
        type: z.literal('select'),
        id: z.string(),
        name: z.string(),
        description: z.optional(z.string()),
        category: z.optional(z.string()),
        currentValue: z.string(),
        options: z.array(z.object({ value: z.string(), name: z.string(), description: z.optional(z.string()) })),
      }),
      z.object({
        type: z.literal('boolean'),
        id: z.string(),
        name: z.string(),
        description: z.optional(z.string()),
        category: z.optional(z.string()),
        currentValue: z.boolean(),
      }),
    ]),
  ),
  modes: z.optional(
    z.object({
      currentModeId: z.string(),
      available: z.array(z.object({ id: z.string(), name: z.string(), description: z.optional(z.string()) })),
    }),
  ),
  /** Legacy `models` (Gemini CLI and older adapters), set with raw `session/set_model`. */
  models: z.optional(
    z.object({
      currentModelId: z.string(),
      available: z.array(z.object({ modelId: z.string(), name: z.string(), description: z.optional(z.string()) })),
    }),
  ),
  /** Slash commands from `available_commands_update`. */
  commands: z.array(z.object({ name: z.string(), description: z.string(), hint: z.optional(z.string()) })),
  /** Context window use from `usage_update`. */
  usage: z.optional(
    z.object({
      used: z.number(),
      size: z.number(),
      cost: z.optional(z.object({ amount: z.number(), currency: z.string() })),
      /** Plan rate limits, one per window (rateLimits.ts). */
      limits: z.optional(z.array(rateLimitSchema).check(z.maxLength(8))),
    }),
  ),
});
export type SessionControls = z.infer<typeof sessionControlsSchema>;

export const emptySessionControls: SessionControls = { configOptions: [], commands: [] };

type ConfigOptionView = SessionControls['configOptions'][number];

/** What `session/new`, `session/load` and `session/resume` responses say about controls. */
export interface SessionSetup {
  readonly modes?: SessionModeState | null;
  readonly configOptions?: SessionConfigOption[] | null;
  /** Legacy (unstable) `models` field, sent by Gemini CLI and older adapters. */
  readonly models?: unknown;
}

export function controlsFromSetup(setup: SessionSetup): SessionControls {
  return {
    configOptions: (setup.configOptions ?? []).map(configOptionView),
    ...(setup.modes ? { modes: modesView(setup.modes) } : {}),
    ...legacyModels(setup.models),
    commands: [],
  };
}

/** Applies the `session/update` kinds that concern controls; returns undefined for other kinds. */
export function applyControlsUpdate(controls: SessionControls, update: SessionUpdate): SessionControls | undefined {
  switch (update.sessionUpdate) {
    case 'available_commands_update':
      return {
        ...controls,
        commands: update.availableCommands.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.input?.hint ? { hint: c.input.hint } : {}),
        })),
      };
    case 'current_mode_update':
      return controls.modes
        ? { ...controls, modes: { ...controls.modes, currentModeId: update.currentModeId } }
        : controls;
    case 'config_option_update':
      return { ...controls, configOptions: update.configOptions.map(configOptionView) };
    case 'usage_update': {
      const limits = withRateLimit(controls.usage?.limits, update._meta);
      return {
        ...controls,
        usage: {
          used: update.used,
          size: update.size,
          ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}),
          ...(limits?.length ? { limits } : {}),
        },
      };
    }
    default:
      return undefined;
  }
}

function modesView(modes: SessionModeState): NonNullable<SessionControls['modes']> {
  return {
    currentModeId: modes.currentModeId,
    available: modes.availableModes.map((m) => ({
      id: m.id,
      name: m.name,
      ...(m.description ? { description: m.description } : {}),
    })),
  };
}

function configOptionView(option: SessionConfigOption): ConfigOptionView {
  const common = {
    id: option.id,
    name: option.name,
    ...(option.description ? { description: option.description } : {}),
    ...(option.category ? { category: option.category } : {}),
  };
  if (option.type === 'boolean') return { type: 'boolean', ...common, currentValue: option.currentValue };
  // Options may come flat or in groups; the view shows them flat.
  const flat = option.options.flatMap((o) => ('group' in o ? o.options : [o]));
  return {
    type: 'select',
    ...common,
    currentValue: option.currentValue,
    options: flat.map((o) => ({
      value: o.value,
      name: o.name,
      ...(o.description ? { description: o.description } : {}),
    })),
  };
}

function legacyModels(models: unknown): Pick<SessionControls, 'models'> {
  const m = models as { currentModelId?: unknown; availableModels?: unknown } | null | undefined;
  if (!m || typeof m.currentModelId !== 'string' || !Array.isArray(m.availableModels)) return {};
  const available = m.availableModels
    .filter(
      (a): a is { modelId: string; name: string; description?: string } =>
        typeof a?.modelId === 'string' && typeof a?.name === 'string',
    )
    .map((a) => ({
      modelId: a.modelId,
      name: a.name,
      ...(typeof a.description === 'string' ? { description: a.description } : {}),
    }));
  return { models: { currentModelId: m.currentModelId, available } };
}
