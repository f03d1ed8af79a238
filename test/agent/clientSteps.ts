// Steps that call the client: permission, fs and terminal. Each reports its
// result as an agent_message_chunk so tests can assert on it.
import type * as acp from '@agentclientprotocol/sdk';
import type { StepOf } from './stepSchemas';
import { errorMessage, sendText, sendUpdate, sessionId, type StepContext, type StepOutcome } from './context';

async function permission(step: StepOf<'permission'>, ctx: StepContext): Promise<StepOutcome> {
  let outcome: string;
  try {
    const params: acp.RequestPermissionRequest = { sessionId: sessionId(ctx), ...step.permission };
    const response = await ctx.client.request('session/request_permission', params);
    outcome = response.outcome.outcome === 'selected' ? response.outcome.optionId : 'cancelled';
  } catch (error) {
    await sendText(ctx, `[error: ${errorMessage(error)}]`);
    return 'end_turn';
  }
  await sendText(ctx, `[permission: ${outcome}]`);
  const expected = step.expectOutcome === undefined ? undefined : [step.expectOutcome].flat();
  if (ctx.signal.aborted) return 'cancelled';
  if (!expected || expected.includes(outcome)) return;
  await sendText(ctx, `[unexpected permission outcome: ${outcome}, expected ${expected.join(' or ')}]`);
  return 'end_turn';
}

/** `count` permission requests at once; reports how they were answered, e.g. `[permissions: 968 cancelled, 32 reject_once]`. */
async function permissionFlood(step: StepOf<'permissionFlood'>, ctx: StepContext): Promise<StepOutcome> {
  const ask = (i: number) =>
    ctx.client
      .request('session/request_permission', {
        sessionId: sessionId(ctx),
        toolCall: { toolCallId: `flood-${i}`, title: `Request ${i + 1}`, kind: 'execute' },
        options: [
          { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
        ],
      })
      .then(
        (r) => (r.outcome.outcome === 'selected' ? r.outcome.optionId : 'cancelled'),
        (error: unknown) => `error ${errorMessage(error)}`,
      );
  const outcomes = await Promise.all(Array.from({ length: step.permissionFlood.count }, (_, i) => ask(i)));
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  await sendText(
    ctx,
    `[permissions: ${[...counts]
      .sort()
      .map(([outcome, n]) => `${n} ${outcome}`)
      .join(', ')}]`,
  );
  return ctx.signal.aborted ? 'cancelled' : undefined;
}

async function readFile(step: StepOf<'readFile'>, ctx: StepContext): Promise<StepOutcome> {
  try {
    const response = await ctx.client.request('fs/read_text_file', { sessionId: sessionId(ctx), ...step.readFile });
    await sendText(ctx, `[read: ${response.content}]`);
  } catch (error) {
    await sendText(ctx, `[error: ${errorMessage(error)}]`);
  }
}

async function writeFile(step: StepOf<'writeFile'>, ctx: StepContext): Promise<StepOutcome> {
  try {
    await ctx.client.request('fs/write_text_file', { sessionId: sessionId(ctx), ...step.writeFile });
    await sendText(ctx, '[write ok]');
  } catch (error) {
    await sendText(ctx, `[error: ${errorMessage(error)}]`);
  }
}

type Terminal = Awaited<ReturnType<acp.AgentContext['createTerminal']>>;
type ExitStatus = acp.WaitForTerminalExitResponse;

/** Waits for exit; if `signal` aborts first, kills the command and returns undefined. */
async function waitOrKill(terminal: Terminal, signal: AbortSignal): Promise<ExitStatus | undefined> {
  const controller = new AbortController();
  const aborted = new Promise<undefined>((resolve) => {
    const stop = AbortSignal.any([signal, controller.signal]);
    if (stop.aborted) resolve(undefined);
    else stop.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  const status = await Promise.race([terminal.waitForExit(), aborted]);
  controller.abort();
  if (!status) await terminal.kill().catch(() => undefined);
  return status;
}

/** Exit status per the step's `kill` (false: wait; true: kill now; ms: kill after ms). */
async function awaitExit(
  kill: boolean | number,
  terminal: Terminal,
  signal: AbortSignal,
): Promise<ExitStatus | undefined> {
  if (kill === true) await terminal.kill();
  if (typeof kill === 'number') {
    const status = await waitOrKill(terminal, AbortSignal.any([signal, AbortSignal.timeout(kill)]));
    if (status || signal.aborted) return status;
  }
  return waitOrKill(terminal, signal);
}

async function runTerminal(step: StepOf<'terminal'>, ctx: StepContext, terminal: Terminal): Promise<StepOutcome> {
  const spec = step.terminal;
  if (spec.toolCallId) {
    await sendUpdate(ctx, {
      sessionUpdate: 'tool_call',
      toolCallId: spec.toolCallId,
      title: spec.title ?? [spec.command, ...spec.args].join(' '),
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId: terminal.id }],
      rawInput: { command: spec.command, args: spec.args },
    });
  }
  const status = await awaitExit(spec.kill, terminal, ctx.signal);
  const output = await terminal.currentOutput();
  if (spec.toolCallId) {
    const toolStatus = !status || status.exitCode !== 0 ? 'failed' : 'completed';
    await sendUpdate(ctx, { sessionUpdate: 'tool_call_update', toolCallId: spec.toolCallId, status: toolStatus });
  }
  const exit = status ? (status.exitCode ?? `signal ${status.signal ?? 'unknown'}`) : 'cancelled';
  await sendText(ctx, `[terminal: exit ${exit}${output.truncated ? ', truncated' : ''}] ${output.output}`);
  return status ? undefined : 'cancelled';
}

async function terminal(step: StepOf<'terminal'>, ctx: StepContext): Promise<StepOutcome> {
  const { command, args, cwd, env, outputByteLimit } = step.terminal;
  let handle: Terminal;
  try {
    handle = await ctx.client.createTerminal({
      sessionId: sessionId(ctx),
      command,
      args,
      cwd,
      outputByteLimit,
      env: env && Object.entries(env).map(([name, value]) => ({ name, value })),
    });
  } catch (error) {
    await sendText(ctx, `[error: ${errorMessage(error)}]`);
    return;
  }
  try {
    return await runTerminal(step, ctx, handle);
  } catch (error) {
    await sendText(ctx, `[error: ${errorMessage(error)}]`);
  } finally {
    if (step.terminal.release) await handle.release().catch(() => undefined);
  }
}

/**
 * `elicitation/create` with the step's fields (`sessionId` added), `count` times at once (default 1); reports each
 * answer, e.g. `[elicitation: {"action":"accept","content":{"name":"Ada"}}]`, or for several `[elicitations: 8
 * cancel, ...]`. The request goes unchecked: hostile shapes are the point.
 */
async function elicit(step: StepOf<'elicit'>, ctx: StepContext): Promise<StepOutcome> {
  const { count = 1, ...fields } = step.elicit as { count?: number } & Record<string, unknown>;
  const ask = () =>
    ctx.client.request<unknown>('elicitation/create', { sessionId: sessionId(ctx), ...fields }).then(
      (r) => JSON.stringify(r),
      (error: unknown) => `error ${errorMessage(error)}`,
    );
  if (count === 1) return sendText(ctx, `[elicitation: ${await ask()}]`);
  const answers = await Promise.all(Array.from({ length: count }, ask));
  const tally = new Map<string, number>();
  for (const a of answers) {
    const action = /"action":"(\w+)"/.exec(a)?.[1] ?? a;
    tally.set(action, (tally.get(action) ?? 0) + 1);
  }
  await sendText(ctx, `[elicitations: ${[...tally].map(([k, n]) => `${n} ${k}`).join(', ')}]`);
}

/** `elicitation/complete` for the given id: the agent says a URL elicitation is done. */
async function elicitationComplete(step: StepOf<'elicitationComplete'>, ctx: StepContext): Promise<StepOutcome> {
  await ctx.client.notify('elicitation/complete', { elicitationId: step.elicitationComplete });
}

async function pullSteer(step: StepOf<'pullSteer'>, ctx: StepContext): Promise<StepOutcome> {
  const until = Date.now() + step.pullSteer.waitMs;
  for (;;) {
    let answer: { items?: Array<{ content: acp.ContentBlock[]; displayText?: string }>; hasQueuedPrompt?: boolean };
    try {
      answer = await ctx.client.request('craft/drainMidTurnQueue', { sessionId: sessionId(ctx) });
    } catch (error) {
      await sendText(ctx, `[error: ${errorMessage(error)}]`);
      return;
    }
    const items = answer.items ?? [];
    if (items.length > 0 || Date.now() >= until || ctx.signal.aborted) {
      for (const item of items) {
        for (const content of item.content) ctx.session?.record({ sessionUpdate: 'user_message_chunk', content });
      }
      const texts = items.map((i) => i.displayText).join(' / ');
      await sendText(ctx, `[pulled: ${texts} | more queued: ${answer.hasQueuedPrompt === true}]`);
      return ctx.signal.aborted ? 'cancelled' : undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const clientStepHandlers = {
  pullSteer,
  permission,
  permissionFlood,
  readFile,
  writeFile,
  terminal,
  elicit,
  elicitationComplete,
};
