// Plays scenario steps: session updates, control flow (sleep, cancel, hang,
import { createHash } from 'node:crypto';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
// crash, errors, stop) and raw stdout writes. Client calls live in clientSteps.ts.
import * as acp from '@agentclientprotocol/sdk';
import type { Step, StepKind, StepOf } from './stepSchemas';
import { crash, stopReading, writeRaw, writeRawLine } from './io';
import { agentProcess, client, sendText, sendUpdate, sleep, type StepContext, type StepOutcome } from './context';
import { clientStepHandlers } from './clientSteps';
import { mcpStepHandlers } from './mcpSteps';
import { playFuzz } from './fuzz/fuzzStep';
import { verbatimUpdates } from './v2Shapes';

type Handler<K extends StepKind> = (step: StepOf<K>, ctx: StepContext) => Promise<StepOutcome>;
type Handlers = { [K in StepKind]: Handler<K> };

/** Every MCP env and header value of the session, as the client sent them. */
function mcpValues(ctx: StepContext): string[] {
  return (ctx.session?.mcpServers ?? []).flatMap((s) =>
    ('headers' in s ? s.headers : (s as acp.McpServerStdio).env).map((p) => p.value),
  );
}

/** Splits `text` into `count` pieces of near-equal length (by code point; fewer if text is shorter). */
export function splitChunks(text: string, count: number): string[] {
  const chars = Array.from(text);
  const n = Math.max(1, Math.min(count, chars.length));
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) {
    pieces.push(chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(''));
  }
  return pieces;
}

async function playStream(step: StepOf<'stream'>, ctx: StepContext): Promise<StepOutcome> {
  const { text, repeat, chunks, intervalMs, thought } = step.stream;
  const pieces = repeat !== undefined ? new Array<string>(chunks).fill(repeat) : splitChunks(text ?? '', chunks);
  const kind = thought ? 'agent_thought_chunk' : 'agent_message_chunk';
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0 && !(await sleep(intervalMs, ctx.signal))) return 'cancelled';
    if (ctx.signal.aborted) return 'cancelled';
    await sendUpdate(ctx, { sessionUpdate: kind, content: { type: 'text', text: pieces[i] } });
  }
}

async function echoUser(ctx: StepContext): Promise<StepOutcome> {
  // Not recorded: the prompt handler already put the prompt into the session's history.
  for (const content of ctx.prompt) await sendUpdate(ctx, { sessionUpdate: 'user_message_chunk', content }, false);
}

function waitForCancel(signal: AbortSignal): Promise<StepOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('cancelled');
    else signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
}

function rawBytes(parts: StepOf<'rawBytes'>['rawBytes']['parts'], newline: boolean): Buffer {
  const buffers = parts.map((part) =>
    typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part.hex, 'hex'),
  );
  return Buffer.concat(newline ? [...buffers, Buffer.from('\n')] : buffers);
}

async function toolCallFlood(step: StepOf<'toolCallFlood'>, ctx: StepContext): Promise<StepOutcome> {
  const { count, contentSize } = step.toolCallFlood;
  const text = 'y'.repeat(contentSize);
  for (let i = 0; i < count; i++) {
    if (ctx.signal.aborted) return 'cancelled';
    // Not recorded for session/load: a replay of thousands of huge calls is not what this tests.
    await sendUpdate(
      ctx,
      {
        sessionUpdate: 'tool_call',
        toolCallId: `tool-flood-${i}`,
        title: `Tool ${i}`,
        kind: 'read',
        status: 'completed',
        content: contentSize ? [{ type: 'content', content: { type: 'text', text } }] : undefined,
      },
      false,
    );
  }
}

const hangForever = (): Promise<never> => new Promise<never>(() => undefined);

const handlers: Handlers = {
  text: async (step, ctx) => sendText(ctx, step.text),
  bigText: async (step, ctx) => {
    const { size, fill, thought } = step.bigText;
    const text = fill.repeat(Math.ceil(size / fill.length)).slice(0, size);
    return sendUpdate(ctx, {
      sessionUpdate: thought ? 'agent_thought_chunk' : 'agent_message_chunk',
      content: { type: 'text', text },
    });
  },
  thought: async (step, ctx) =>
    sendUpdate(ctx, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: step.thought } }),
  stream: playStream,
  toolCall: async (step, ctx) => sendUpdate(ctx, { sessionUpdate: 'tool_call', ...step.toolCall }),
  toolCallUpdate: async (step, ctx) => sendUpdate(ctx, { sessionUpdate: 'tool_call_update', ...step.toolCallUpdate }),
  plan: async (step, ctx) => sendUpdate(ctx, { sessionUpdate: 'plan', entries: step.plan }),
  // Raw update: may be an unknown kind, so it is not typed as SessionUpdate; sent as it is on either ACP version.
  update: async (step, ctx) => {
    verbatimUpdates.add(step.update);
    return sendUpdate(ctx, step.update as unknown as acp.SessionUpdate);
  },
  echoUser: async (_step, ctx) => echoUser(ctx),
  reportCapabilities: async (_step, ctx) =>
    sendText(ctx, `[capabilities: ${JSON.stringify(client.capabilities ?? null)}]`),
  reportSessions: async (_step, ctx) =>
    sendText(ctx, `[sessions open: ${agentProcess.openSessions()}, pid ${process.pid}]`),
  leakMcpValues: async (_step, ctx) => {
    const values = mcpValues(ctx);
    for (const value of values) {
      const line = `mcp value: ${value} (raw), ${JSON.stringify({ value })} (JSON)\n`;
      const half = Math.floor(line.length / 2);
      process.stderr.write(line.slice(0, half));
      await sleep(30, ctx.signal);
      process.stderr.write(line.slice(half));
    }
    throw acp.RequestError.internalError({ values }, `failed with ${values.join(', ')}`);
  },
  echoMcpValues: async (_step, ctx) => {
    const values = mcpValues(ctx);
    for (const [i, value] of values.entries()) {
      const half = Math.floor(value.length / 2);
      await sendUpdate(ctx, {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `token: ${value.slice(0, half)}` },
      });
      await sendUpdate(ctx, {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: `${value.slice(half)} (that was it)\n\n` },
      });
      await sendUpdate(ctx, {
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: `thinking about ${value}` },
      });
      await sendUpdate(ctx, { sessionUpdate: 'session_info_update', title: `Session about ${value}` });
      await sendUpdate(ctx, {
        sessionUpdate: 'tool_call',
        toolCallId: `echo-${i}`,
        title: `Use ${value}`,
        kind: 'execute',
        status: 'completed',
        rawInput: { command: `curl -H 'Authorization: ${value}'` },
        content: [{ type: 'content', content: { type: 'text', text: `output ${value}` } }],
      });
      await sendUpdate(ctx, {
        sessionUpdate: 'notice',
        severity: 'info',
        title: `Notice of ${value}`,
      } as unknown as acp.SessionUpdate);
      await ctx.client.request('session/request_permission', {
        sessionId: ctx.session!.id,
        toolCall: {
          toolCallId: `echo-permission-${i}`,
          title: `Send ${value}`,
          kind: 'fetch',
          rawInput: { header: value },
        },
        options: [
          { optionId: 'allow', name: `Allow ${value}`, kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      });
    }
    await sendUpdate(ctx, {
      sessionUpdate: 'plan',
      entries: values.map((value) => ({ content: `Plan with ${value}`, priority: 'medium', status: 'pending' })),
    });
    await sendText(ctx, `[echoed ${values.length} values]`);
  },
  reportCancelled: async (_step, ctx) => sendText(ctx, `[cancelled: ${JSON.stringify(agentProcess.cancelled)}]`),
  reportRoots: async (_step, ctx) =>
    sendText(ctx, `[roots: ${JSON.stringify([ctx.session?.cwd, ...(ctx.session?.additionalDirectories ?? [])])}]`),
  reportMcp: async (_step, ctx) =>
    sendText(ctx, `[mcp: ${JSON.stringify((ctx.session?.mcpServers ?? []).map(summarizeMcpServer))}]`),
  reportPrompt: async (_step, ctx) => sendText(ctx, `[prompt: ${JSON.stringify(ctx.prompt.map(summarizeBlock))}]`),
  reportHistory: async (_step, ctx) =>
    sendText(ctx, `[history of ${ctx.session?.id}: ${ctx.session?.promptTexts().join(' | ')}]`),
  sleep: async (step, ctx) => ((await sleep(step.sleep, ctx.signal)) ? undefined : 'cancelled'),
  waitForCancel: async (_step, ctx) => waitForCancel(ctx.signal),
  waitForSteer: async (_step, ctx) => {
    const text = await ctx.session!.nextSteer(ctx.signal);
    if (text === undefined) return 'cancelled';
    await sendText(ctx, `[steered: ${text}]`);
  },
  hang: async () => hangForever(),
  crash: async (step) => crash(step.crash.exitCode, step.crash.stderr),
  garbage: async (step) => writeRawLine(step.garbage),
  rawMessage: async (step) => writeRawLine(JSON.stringify(step.rawMessage)),
  rawBytes: async (step) => writeRaw(rawBytes(step.rawBytes.parts, step.rawBytes.newline)),
  stopReading: async () => stopReading(),
  toolCallFlood,
  fuzz: async (step, ctx) => playFuzz(step.fuzz, ctx),
  error: async (step) => {
    throw new acp.RequestError(step.error.code, step.error.message, step.error.data);
  },
  stop: async (step) => step.stop,
  stamp: async (step) =>
    appendFileSync(step.stamp.file, `${step.stamp.name} ${performance.timeOrigin + performance.now()}\n`),
  diskWrite: async (step, ctx) => {
    const { path, content, quiet } = step.diskWrite;
    try {
      if (content === null) rmSync(path);
      else writeFileSync(path, content);
      if (!quiet) await sendText(ctx, '[disk write ok]');
    } catch (error) {
      await sendText(ctx, `[error: ${error instanceof Error ? error.message : String(error)}]`);
    }
  },
  ...clientStepHandlers,
  ...mcpStepHandlers,
};

/**
 * Replaces ${cwd}, ${sessionId}, ${root1} (the first further folder the client gave) and ${parent} (the folder
 * above cwd) in every string of a step.
 */
function substitute<T>(value: T, vars: Record<string, string>): T {
  if (typeof value === 'string') {
    return value.replace(/\$\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole) as T;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => substitute(item, vars)) as T;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, substitute(item, vars)]);
    return Object.fromEntries(entries) as T;
  }
  return value;
}

async function playStep(step: Step, ctx: StepContext): Promise<StepOutcome> {
  const handler = handlers[step.kind] as (step: Step, ctx: StepContext) => Promise<StepOutcome>;
  return handler(step, ctx);
}

/**
 * Plays steps in order. Returns the stop reason: the one of a `stop` step,
 * "cancelled" when the turn's signal aborted, else "end_turn".
 * An `error` step throws acp.RequestError.
 */
export async function playSteps(steps: Step[], ctx: StepContext): Promise<acp.StopReason> {
  const cwd = ctx.session?.cwd ?? process.cwd();
  const vars = {
    cwd,
    sessionId: ctx.session?.id ?? '',
    root1: ctx.session?.additionalDirectories[0] ?? `${cwd}/no-further-folder`,
    parent: cwd.replace(/\/[^/]*\/?$/, '') || '/',
  };
  for (const raw of steps) {
    if (ctx.signal.aborted) return 'cancelled';
    const step = substitute(raw, vars);
    if (step.delayMs && !(await sleep(step.delayMs, ctx.signal))) return 'cancelled';
    const outcome = await playStep(step, ctx);
    if (outcome) return outcome;
  }
  return ctx.signal.aborted ? 'cancelled' : 'end_turn';
}

/** An MCP server as `reportMcp` tells it: values as digests. */
function summarizeMcpServer(server: acp.McpServer): Record<string, unknown> {
  const digest = (pairs: { name: string; value: string }[]) =>
    pairs.map((p) => `${p.name}=${createHash('sha256').update(p.value).digest('hex').slice(0, 12)}`);
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { type: server.type, name: server.name, url: server.url, headers: digest(server.headers) };
  }
  // Served over the ACP connection (MCP-over-ACP, unstable): its id names it.
  const overAcp = server as unknown as { type?: string; name: string; serverId: string };
  if (overAcp.type === 'acp') return { type: 'acp', name: overAcp.name, serverId: overAcp.serverId };
  const stdio = server as acp.McpServerStdio;
  return { name: stdio.name, command: stdio.command, args: stdio.args, env: digest(stdio.env) };
}

/** A prompt block as `reportPrompt` tells it: what a test checks, without megabytes of data. */
function summarizeBlock(block: acp.ContentBlock): Record<string, unknown> {
  const text = (t: string) => (t.length <= 200 ? { text: t } : { chars: t.length, start: t.slice(0, 40) });
  switch (block.type) {
    case 'text':
      return { type: 'text', ...text(block.text) };
    case 'image':
      return {
        type: 'image',
        mimeType: block.mimeType,
        bytes: Buffer.from(block.data, 'base64').length,
        ...(block.uri ? { uri: block.uri } : {}),
      };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        ...(block.size != null ? { size: block.size } : {}),
      };
    case 'resource': {
      const r = block.resource;
      return {
        type: 'resource',
        uri: r.uri,
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...('text' in r ? text(r.text) : { blobBytes: Buffer.from(r.blob, 'base64').length }),
      };
    }
    default:
      return { type: block.type };
  }
}
