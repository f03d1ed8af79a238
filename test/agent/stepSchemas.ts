// One zod schema per step kind. A step is an object with exactly one kind key
// (plus optional "delayMs"); see scenario.ts for the dispatch.
import { z } from 'zod';
import type * as acp from '@agentclientprotocol/sdk';

const delayMs = z.number().int().min(0).optional();
const ms = z.number().int().min(0);

const toolKind = z.enum([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
]);
const toolStatus = z.enum(['pending', 'in_progress', 'completed', 'failed']);

/** ToolCall fields (SDK shape); toolCallId and title required, kind/status checked. */
const toolCall = z
  .looseObject({ toolCallId: z.string(), title: z.string(), kind: toolKind.optional(), status: toolStatus.optional() })
  .pipe(z.custom<acp.ToolCall>());

/** ToolCallUpdate fields (SDK shape): only toolCallId is required. */
const toolCallUpdate = z
  .looseObject({ toolCallId: z.string(), kind: toolKind.nullish(), status: toolStatus.nullish() })
  .pipe(z.custom<acp.ToolCallUpdate>());

/** A plan entry: a plain string, or {content, priority?, status?}. */
const planEntry = z
  .union([
    z.string().transform((content) => ({ content })),
    z.looseObject({
      content: z.string(),
      priority: z.enum(['high', 'medium', 'low']).optional(),
      status: z.enum(['pending', 'in_progress', 'completed']).optional(),
    }),
  ])
  .transform((entry): acp.PlanEntry => ({ priority: 'medium', status: 'pending', ...entry }));

const permissionOption = z.strictObject({
  optionId: z.string(),
  name: z.string(),
  kind: z.enum(['allow_once', 'allow_always', 'reject_once', 'reject_always']),
});

const defaultOptions: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];

/** Another session's id than the turn's (a request the client must refuse). */
const otherSession = z.string().optional();

const permission = z.strictObject({
  sessionId: otherSession,
  toolCall: toolCallUpdate.default({ toolCallId: 'permission-1', title: 'Run a tool', kind: 'execute' }),
  options: z.array(permissionOption).min(1).default(defaultOptions),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

const stream = z
  .strictObject({
    text: z.string().optional(),
    repeat: z.string().optional(),
    chunks: z.number().int().min(1).default(10),
    intervalMs: ms.default(10),
    thought: z.boolean().default(false),
  })
  .refine((s) => (s.text === undefined) !== (s.repeat === undefined), {
    message: 'stream needs exactly one of "text" or "repeat"',
  });

const terminal = z.strictObject({
  command: z.string(),
  args: z.array(z.string()).default([]),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  outputByteLimit: z.number().int().min(0).optional(),
  kill: z.union([z.boolean(), ms]).default(false),
  release: z.boolean().default(true),
  toolCallId: z.string().optional(),
  title: z.string().optional(),
});

const stopReason = z.enum(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);

function step<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.strictObject({ ...shape, delayMs });
}

export const stepSchemas = {
  text: step({ text: z.string() }),
  bigText: step({
    bigText: z.strictObject({
      /** Characters in the one chunk (16 MiB is the client's line limit; more tests the limit). */
      size: z
        .number()
        .int()
        .min(1)
        .max(64 * 1024 * 1024),
      /** Repeated to fill it: one character (a line with no spaces), or "words". */
      fill: z.string().min(1).default('x'),
      thought: z.boolean().default(false),
    }),
  }),
  stream: step({ stream }),
  thought: step({ thought: z.string() }),
  toolCall: step({ toolCall }),
  toolCallUpdate: step({ toolCallUpdate }),
  plan: step({ plan: z.array(planEntry) }),
  update: step({ update: z.looseObject({ sessionUpdate: z.string() }) }),
  permission: step({ permission, expectOutcome: z.union([z.string(), z.array(z.string())]).optional() }),
  permissionFlood: step({ permissionFlood: z.strictObject({ count: z.number().int().min(1).max(10_000) }) }),
  /** `elicitation/create` with these fields (any: hostile ones too), `count` at once. */
  elicit: step({ elicit: z.record(z.string(), z.unknown()) }),
  elicitationComplete: step({ elicitationComplete: z.string() }),
  /**
   * Asks the client for steered messages as Qwen Code does (`craft/drainMidTurnQueue`), every 25 ms until some come
   * or `waitMs` passes; reports `[pulled: <texts> | more queued: <bool>]` (each taken into the session's history).
   */
  pullSteer: step({ pullSteer: z.strictObject({ waitMs: ms }) }),
  readFile: step({
    readFile: z.strictObject({
      sessionId: otherSession,
      path: z.string(),
      line: z.number().int().min(1).optional(),
      limit: z.number().int().min(0).optional(),
    }),
  }),
  writeFile: step({ writeFile: z.strictObject({ sessionId: otherSession, path: z.string(), content: z.string() }) }),
  /** Changes a file itself, as Claude Code and Codex do (not through the client): `content` null deletes it. */
  diskWrite: step({
    diskWrite: z.strictObject({ path: z.string(), content: z.string().nullable(), quiet: z.boolean().optional() }),
  }),
  terminal: step({ terminal }),
  sleep: step({ sleep: ms }),
  waitForCancel: step({ waitForCancel: z.literal(true) }),
  /** Waits for a message steered into this turn (`_session/steering`, scenario `steering`), then reports `[steered: <text>]`. */
  waitForSteer: step({ waitForSteer: z.literal(true) }),
  hang: step({ hang: z.literal(true) }),
  crash: step({ crash: z.strictObject({ exitCode: z.number().int().default(1), stderr: z.string().optional() }) }),
  garbage: step({ garbage: z.string() }),
  rawBytes: step({
    rawBytes: z.strictObject({
      /** Written in order: strings as UTF-8, {hex} as those bytes (e.g. invalid UTF-8: "c328ff"). */
      parts: z.array(z.union([z.string(), z.strictObject({ hex: z.string().regex(/^([0-9a-fA-F]{2})*$/) })])).min(1),
      /** false: no line end, e.g. half a message before a crash. */
      newline: z.boolean().default(true),
    }),
  }),
  stopReading: step({ stopReading: z.literal(true) }),
  fuzz: step({
    fuzz: z.strictObject({
      count: z.number().int().min(1).max(1_000_000),
      seed: z.number().int().default(1),
      mutate: z.number().min(0).max(1).default(0.35),
      breakLines: z.number().min(0).max(1).default(0.05),
      /** The SDK's JSON Schema (default: the one in node_modules). */
      schema: z.string().optional(),
      /** Also writes the report, as JSON, to this file. */
      reportFile: z.string().optional(),
    }),
  }),
  toolCallFlood: step({
    toolCallFlood: z.strictObject({
      count: z.number().int().min(1).max(100_000),
      /** Characters of text content in each tool call (up to 15 MiB: one line each). */
      contentSize: z
        .number()
        .int()
        .min(0)
        .max(15 * 1024 * 1024)
        .default(0),
    }),
  }),
  rawMessage: step({ rawMessage: z.record(z.string(), z.unknown()) }),
  error: step({ error: z.strictObject({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }) }),
  stop: step({ stop: stopReason }),
  /** Appends `<name> <epoch ms, fractional>` to `file`: when the agent got this far (benchmarks time what the client does in between). */
  stamp: step({ stamp: z.strictObject({ file: z.string(), name: z.string().regex(/^\S+$/) }) }),
  echoUser: step({ echoUser: z.literal(true) }),
  reportCapabilities: step({ reportCapabilities: z.literal(true) }),
  reportHistory: step({ reportHistory: z.literal(true) }),
  /** `[prompt: JSON]`: the blocks of this prompt, summed up (types, uris, sizes, text up to 200 characters). */
  reportPrompt: step({ reportPrompt: z.literal(true) }),
  /** `[mcp: JSON]`: the session's MCP servers as the client sent them, each env and header value as the start of its SHA-256 (values stay out of the transcript). */
  reportMcp: step({ reportMcp: z.literal(true) }),
  /** `[cancelled: JSON]`: the methods of the requests this process's client gave up (`$/cancel_request`), in order. */
  reportCancelled: step({ reportCancelled: z.literal(true) }),
  /** Says the session's folders: cwd, then those of `additionalDirectories`. */
  reportRoots: step({ reportRoots: z.literal(true) }),
  /**
   * Writes every MCP env and header value of the session to stderr, each line
   * in two writes 30 ms apart (a line the client gets in pieces), and ends the
   * turn with an error whose message holds them too: what the client must
   * redact wherever it writes them.
   */
  leakMcpValues: step({ leakMcpValues: z.literal(true) }),
  /**
   * Sends every MCP env and header value of the session back the ways an
   * agent shows text: in a message (split in two chunks in its middle), a
   * thought, the session's title, a tool call's title, input and output, a
   * plan entry, a notice and a permission request; then `[echoed N values]`.
   * What the client must redact wherever it keeps or shows them.
   */
  echoMcpValues: step({ echoMcpValues: z.literal(true) }),
  /**
   * Calls `tool` of the session's MCP server named `server` (default the editor server, `vscode-editor`) over HTTP with
   * the headers the client gave (`omitHeaders`: none, as an intruder would); reports `[mcp <tool>: <its text>]`,
   * `[mcp <tool> refused: <text>]` for an error result, or `[mcp <tool>: HTTP <status>]`.
   */
  mcpCall: step({
    mcpCall: z.strictObject({
      tool: z.string(),
      server: z.string().optional(),
      arguments: z.record(z.string(), z.unknown()).optional(),
      omitHeaders: z.boolean().optional(),
      /**
       * Sends the call this many times at once (over HTTP), as a runaway agent would; reports how they came back:
       * `[mcp <tool> x<times>: <n> answered, <n> refused, <n> HTTP 429, <n> failed]`.
       */
      times: z.number().int().min(1).max(10_000).optional(),
      /** Appends `name ms` (the round trip: the request sent to its answer read) to `file` (the bench's figure). */
      stamp: z.strictObject({ file: z.string(), name: z.string().regex(/^\S+$/) }).optional(),
    }),
  }),
  /** `[sessions open: N, pid P]`: how many sessions this process has open (session/close ends one), and which process it is. */
  reportSessions: step({ reportSessions: z.literal(true) }),
};

type StepSchemas = typeof stepSchemas;
export type StepKind = keyof StepSchemas;
/** A validated step: `kind` names the step's key, the rest is that kind's fields. */
export type Step = { [K in StepKind]: { kind: K } & z.output<StepSchemas[K]> }[StepKind];
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;
