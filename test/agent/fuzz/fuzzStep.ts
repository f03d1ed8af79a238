// The `fuzz` step: `count` messages generated from the SDK's JSON Schema
// (session updates, requests to the client, unknown methods, answers to
// requests never made), a share of them mutated, written raw to stdout.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { FUZZ_ID_PREFIX, fuzzAnswers, writeRaw } from '../io';
import { sendText, sessionId, type StepContext, type StepOutcome } from '../context';
import { mutateLine, mutateValue } from './mutate';
import { Random } from './random';
import { SchemaValues, type Defs } from './schemaValues';
import { fuzzStrings } from './strings';

const DEFAULT_SCHEMA = path.resolve(__dirname, '../../node_modules/@agentclientprotocol/sdk/schema/v1/schema.json');

export interface FuzzOptions {
  count: number;
  seed: number;
  /** Share of messages changed into something the schema does not allow (0..1). */
  mutate: number;
  /** Share of lines broken as bytes (cut short, invalid UTF-8, ...). */
  breakLines: number;
  schema?: string;
  reportFile?: string;
}

/** What is sent: [weight, method, schema definition, request (has an id) or notification]. */
const MESSAGES: readonly (readonly [number, string, string, boolean])[] = [
  [60, 'session/update', 'SessionNotification', false],
  [4, 'session/request_permission', 'RequestPermissionRequest', true],
  [4, 'fs/read_text_file', 'ReadTextFileRequest', true],
  [4, 'fs/write_text_file', 'WriteTextFileRequest', true],
  [2, 'terminal/create', 'CreateTerminalRequest', true],
  [1, 'terminal/output', 'TerminalOutputRequest', true],
  [1, 'terminal/wait_for_exit', 'WaitForTerminalExitRequest', true],
  [1, 'terminal/kill', 'KillTerminalRequest', true],
  [1, 'terminal/release', 'ReleaseTerminalRequest', true],
  [1, 'elicitation/create', 'CreateElicitationRequest', true],
  [1, 'elicitation/complete', 'CompleteElicitationNotification', false],
];

export type FuzzCase = Record<string, unknown>;

/** The messages of one fuzz run, in order (a Buffer is a deliberately broken line). */
export function* fuzzCases(
  options: FuzzOptions,
  vars: { sessionId: string; cwd: string },
): Generator<FuzzCase | Buffer> {
  const defs = (JSON.parse(readFileSync(options.schema ?? DEFAULT_SCHEMA, 'utf8')) as { $defs: Defs }).$defs;
  const random = new Random(options.seed);
  const values = new SchemaValues(defs, random, fuzzStrings(vars));
  for (let i = 0; i < options.count; i++) {
    const message = oneMessage(i, random, values);
    if (random.chance(options.mutate)) mutateValue(message, random);
    yield random.chance(options.breakLines) ? mutateLine(JSON.stringify(message), random) : message;
  }
}

function oneMessage(i: number, random: Random, values: SchemaValues): FuzzCase {
  const id = `${FUZZ_ID_PREFIX}${i}`;
  const roll = random.int(100);
  // A few that no schema describes: unknown methods, answers nobody asked for, cancels of nothing.
  if (roll < 3) {
    return {
      jsonrpc: '2.0',
      id,
      method: random.pick(['acme/unknown', '_acme/ext', 'session/prompt', 'initialize', '']),
      params: {},
    };
  }
  if (roll < 5) {
    return { jsonrpc: '2.0', method: random.pick(['acme/notify', '_acme/notify', 'session/cancel']), params: { x: 1 } };
  }
  if (roll < 7) {
    return {
      jsonrpc: '2.0',
      id: random.pick([id, 0, 1, 7, -1, null]),
      ...(random.chance(0.5) ? { result: {} } : { error: { code: -32000, message: 'nobody asked' } }),
    };
  }
  if (roll < 8) {
    return { jsonrpc: '2.0', method: '$/cancel_request', params: { requestId: random.pick([0, 1, 2, id]) } };
  }
  const [, method, definition, isRequest] = random.weighted(MESSAGES.map((m) => [m[0], m] as const));
  const params = values.of(definition);
  return isRequest ? { jsonrpc: '2.0', id, method, params } : { jsonrpc: '2.0', method, params };
}

/** Plays the fuzz step: writes every case, then reports how many went out and how many were answered. */
export async function playFuzz(options: FuzzOptions, ctx: StepContext): Promise<StepOutcome> {
  const vars = { sessionId: sessionId(ctx), cwd: ctx.session?.cwd ?? process.cwd() };
  let sent = 0;
  let broken = 0;
  let bytes = 0;
  for (const item of fuzzCases(options, vars)) {
    if (ctx.signal.aborted) return 'cancelled';
    if (Buffer.isBuffer(item)) broken++;
    // Awaiting each write keeps to the pipe's pace (and lets answers in).
    const line = Buffer.isBuffer(item)
      ? Buffer.concat([item, Buffer.from('\n')])
      : Buffer.from(`${JSON.stringify(item)}\n`);
    bytes += line.length;
    await writeRaw(line);
    sent++;
  }
  // The report goes to a file too: in the chat it may join a fuzzed message past what the view shows.
  if (options.reportFile) {
    writeFileSync(options.reportFile, JSON.stringify({ sent, broken, bytes, answers: fuzzAnswers.count }));
  }
  await sendText(
    ctx,
    `[fuzz: ${sent} cases sent (${broken} broken lines, ${bytes} bytes), ${fuzzAnswers.count} answers so far]`,
  );
}
