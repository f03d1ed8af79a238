// Zod schema of the test agent's scenario files (format: test/agent/README.md).
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type * as acp from '@agentclientprotocol/sdk';
import { stepSchemas, type Step } from './stepSchemas';

export type { Step, StepKind } from './stepSchemas';

const STEP_KINDS = Object.keys(stepSchemas);
/** Steps that make sense before any session exists (onInitialize). */
const SESSIONLESS_KINDS = ['sleep', 'crash', 'garbage', 'rawMessage', 'rawBytes', 'stopReading', 'hang', 'error'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Finds the step's kind (its one known key), then validates with that kind's schema. */
const stepSchema = z.unknown().transform((raw, ctx): Step => {
  if (!isRecord(raw)) {
    ctx.addIssue({ code: 'custom', message: 'a step must be an object such as {"text": "hi"}' });
    return z.NEVER;
  }
  const kinds = Object.keys(raw).filter((key) => STEP_KINDS.includes(key));
  if (kinds.length !== 1) {
    const found = kinds.length ? kinds.join(', ') : Object.keys(raw).join(', ') || 'nothing';
    ctx.addIssue({
      code: 'custom',
      message: `a step needs exactly one kind key (found: ${found}); kinds: ${STEP_KINDS.join(', ')}`,
    });
    return z.NEVER;
  }
  const kind = kinds[0] as keyof typeof stepSchemas;
  const parsed = stepSchemas[kind].safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  }
  return { kind, ...parsed.data } as Step;
});

const stepsSchema = z.array(stepSchema);

const sessionlessStepsSchema = stepsSchema.superRefine((steps, ctx) => {
  steps.forEach((step, index) => {
    if (!SESSIONLESS_KINDS.includes(step.kind)) {
      ctx.addIssue({
        code: 'custom',
        path: [index],
        message: `"${step.kind}" needs a session; onInitialize allows only ${SESSIONLESS_KINDS.join(', ')}`,
      });
    }
  });
});

const turnSchema = z.strictObject({
  match: z.string().optional(),
  steps: stepsSchema,
  /** Played after the prompt is answered: what an agent sends between turns. */
  after: stepsSchema.optional(),
});

const looseRecord = z.record(z.string(), z.unknown());

export const scenarioSchema = z.strictObject({
  $schema: z.string().optional(),
  description: z.string().optional(),
  agentInfo: z
    .strictObject({ name: z.string(), title: z.string().optional(), version: z.string() })
    .default({ name: 'test-agent', title: 'Test Agent', version: '1.0.0' }),
  agentCapabilities: looseRecord.default({}).pipe(z.custom<acp.AgentCapabilities>()),
  authMethods: z
    .array(z.looseObject({ id: z.string(), name: z.string() }))
    .default([])
    .pipe(z.custom<acp.AuthMethod[]>()),
  requireAuth: z.boolean().default(false),
  /**
   * A terminal sign-in: run with `--sign-in`, the agent prints `signInOutput`
   * (and the value of ACP_TEST_SIGNIN_CANARY, when set),
   * creates this file and exits 0; the agent then counts as signed in (`requireAuth` passes),
   * at once or, with signInReadAtStart, once restarted.
   */
  signInFile: z.string().optional(),
  signInOutput: z.string().default('Signed in.'),
  /** The sign-in file counts only if it was there when the process started (Codex and Gemini CLI read their credentials once). */
  signInReadAtStart: z.boolean().default(false),
  /** What this agent was asked, a line each, appended: `start PID` when a process starts, `session/new ID`. */
  eventsFile: z.string().optional(),
  /**
   * Method -> n: the n-th request of that method in a process (1: the first) waits until the client gives it up
   * (`$/cancel_request`), then fails as cancelled (-32800): an agent that hangs, for a client that abandons requests.
   * It is written to the eventsFile (`hanging METHOD`); cancelled, it is kept (`reportCancelled`) and written there
   * too (`cancelled METHOD`).
   */
  hang: z.record(z.string(), z.number().int().min(1)).default({}),
  /** session/load answers first and replays the history after (as Gemini CLI does). */
  replayAfterLoad: z.boolean().default(false),
  /** session/list: sessions per page. */
  listPageSize: z.number().int().min(1).default(50),
  /** session/list: every page says there is a next one, at the same cursor (a client must not loop forever). */
  listCursorLoop: z.boolean().default(false),
  /** session/list: cursors name this process; another process's cursor is refused (-32602), as by an agent that keeps them in memory. */
  listCursorInProcess: z.boolean().default(false),
  /** session/list: entries listed as they are, after the real ones (hostile listings: duplicates, huge titles, thousands). */
  listedSessions: z.array(looseRecord).default([]).pipe(z.custom<acp.SessionInfo[]>()),
  /** session/list: answered with this error instead (a listing that fails). */
  listError: z.strictObject({ code: z.number().int(), message: z.string() }).optional(),
  modes: looseRecord.optional().pipe(z.custom<acp.SessionModeState | undefined>()),
  configOptions: z.array(looseRecord).optional().pipe(z.custom<acp.SessionConfigOption[] | undefined>()),
  /** Legacy (unstable) models, as Gemini CLI sends them: `{ currentModelId, availableModels: [{ modelId, name }] }`. */
  models: z
    .strictObject({
      currentModelId: z.string(),
      availableModels: z.array(z.looseObject({ modelId: z.string(), name: z.string() })),
    })
    .optional(),
  /**
   * Steering (Claude Code's and codex-acp's `_session/steering`): advertised in the initialize response's
   * `_meta.steering.supported`; a message steered into a running turn is taken (`injected`) and waits for a
   * waitForSteer step; without a running turn the answer is `promptRequired`. `{"answer": X}`: every steer is
   * answered X as it is (a misbehaving agent).
   */
  steering: z.union([z.boolean(), z.strictObject({ answer: z.unknown() })]).default(false),
  /**
   * Session titles set by the client (`session/set_title`, advertised as `sessionCapabilities.title`): stored trimmed
   * and cut to 100 characters (an empty one is refused, -32602), answered with what was stored, and listed by
   * session/list. `{"answer": X}`: every request is answered X as it is (a misbehaving agent); `{"error": M}`: refused
   * with message M (-32603).
   */
  titles: z
    .union([z.boolean(), z.strictObject({ answer: z.unknown() }), z.strictObject({ error: z.string() })])
    .default(false),
  /** Every agent_message_chunk of a turn carries `messageId` `<sessionId>/<n>` (the n-th prompt of the session): where session/fork can cut. */
  messageIds: z.boolean().default(false),
  /**
   * The ACP versions it speaks: "v1" (answers version 1 to any request, as v1-only agents do), "v2" (the draft;
   * refuses a v1 client) or "auto" (v2 when asked for it, else v1, as Claude Code's adapter). On v2 the steps are
   * translated as Claude's adapter translates its v1 core (test/agent/v2Shapes.ts).
   */
  protocol: z.enum(['v1', 'v2', 'auto']).default('v1'),
  onInitialize: sessionlessStepsSchema.default([]),
  onNewSession: stepsSchema.default([]),
  onLoadSession: stepsSchema.optional(),
  turns: z.array(turnSchema).default([]),
});

export type Scenario = z.output<typeof scenarioSchema>;
export type Turn = z.output<typeof turnSchema>;

export class ScenarioError extends Error {}

/** Parses scenario JSON text; throws ScenarioError with a readable message. */
export function parseScenario(text: string, origin: string): Scenario {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`${origin}: not valid JSON: ${(error as Error).message}`);
  }
  const result = scenarioSchema.safeParse(json);
  if (!result.success) {
    throw new ScenarioError(`${origin}: invalid scenario\n${z.prettifyError(result.error)}`);
  }
  return result.data;
}

/** Loads a scenario from a file path, or from inline JSON when `source` starts with "{". */
export function loadScenario(source: string): Scenario {
  if (source.trimStart().startsWith('{')) return parseScenario(source, 'inline scenario');
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (error) {
    throw new ScenarioError(`cannot read scenario ${source}: ${(error as Error).message}`);
  }
  return parseScenario(text, source);
}
