/**
 * A long mixed transcript, made by playing agent turns through the real
 * reducer, and the message a (re)loaded view gets for it: the host's flush
 * after `ready` diffs against nothing, so every entry is one `set` op.
 */
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import { diffEntries } from '../../src/shared/page/entryPatches';
import { hostMessageSchema, type HostMessage } from '../../src/shared/page/protocol';
import { emptyThread, type Entry, type Thread } from '../../src/shared/thread/thread';
import { reduceThread, type ThreadAction } from '../../src/shared/thread/threadReducer';
import { editedFile, markdown, seededRandom, sourceFile, splitChunks, terminalOutput } from './corpus';
import { checked, statusOf } from './hostMessages';
import { savedTranscriptSchema, transcriptToSave, withFreshIds } from '../../src/shared/saved/savedSessions';

/** Text that the transcript's newest entry ends with: the bench waits until it is painted. */
export const TRANSCRIPT_MARKER = 'Bench transcript end marker 4f1d';

export type Rng = () => number;

/** How a Player hands on its actions: by default to the reducer; longChats.ts plays into a chat's own ChatTranscript. */
export interface PlayerOptions {
  /** The thread after `action` (default: reduceThread). */
  reduce?: (thread: Thread, action: ThreadAction) => Thread;
  /** Streams text in pieces of this many characters (default: two halves). */
  chunkChars?: number;
  /** A terminal tool call started: the host would stream its output (default: nothing, see withTerminalOutput). */
  terminalStarted?: (p: Player, terminalId: string) => void;
}

/** Plays actions through the reducer with fresh ids. */
export class Player {
  thread: Thread = emptyThread;
  private n = 0;
  constructor(readonly options: PlayerOptions = {}) {}
  private id(): string {
    return `e${++this.n}`;
  }
  private act(action: ThreadAction): void {
    this.thread = (this.options.reduce ?? reduceThread)(this.thread, action);
  }
  prompt(text: string): void {
    this.act({ type: 'prompt', id: this.id(), text });
  }
  update(update: SessionUpdate): void {
    this.act({ type: 'update', id: this.id(), update });
  }
  end(stopReason: StopReason): void {
    this.act({ type: 'turnEnded', id: this.id(), stopReason });
  }
  terminal(terminalId: string, data: string): void {
    this.act({ type: 'terminal', id: this.id(), terminalId, data, exit: { exitCode: 0, signal: null } });
  }
}

const text = (t: string) => ({ type: 'text' as const, text: t });

function streamText(p: Player, kind: 'agent_message_chunk' | 'agent_thought_chunk', body: string): void {
  const size = p.options.chunkChars;
  const cut = Math.floor(body.length / 2);
  const parts = size ? splitChunks(body, Math.ceil(body.length / size)) : [body.slice(0, cut), body.slice(cut)];
  for (const part of parts) p.update({ sessionUpdate: kind, content: text(part) });
}

/** One finished tool call: an edit with its diff, a command with its terminal, or a read. */
export function toolCall(p: Player, rng: Rng, callId: string): void {
  const r = rng();
  const path = `src/module${Math.floor(rng() * 50)}/file${Math.floor(rng() * 20)}.ts`;
  if (r < 0.4) {
    const before = rng() < 0.15 ? null : sourceFile(rng, 40 + Math.floor(rng() * 80));
    const after = before === null ? sourceFile(rng, 30) : editedFile(rng, before);
    p.update({
      sessionUpdate: 'tool_call',
      toolCallId: callId,
      title: `Edit ${path}`,
      kind: 'edit',
      status: 'in_progress',
      locations: [{ path }],
      rawInput: { path },
    });
    p.update({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: 'completed',
      content: [{ type: 'diff', path, oldText: before, newText: after }],
    });
  } else if (r < 0.75) {
    p.update({
      sessionUpdate: 'tool_call',
      toolCallId: callId,
      title: 'npm test',
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command: 'npm', args: ['test', '--', `--grep=${callId}`] },
      content: [{ type: 'terminal', terminalId: `term-${callId}` }],
    });
    p.options.terminalStarted?.(p, `term-${callId}`);
    p.update({ sessionUpdate: 'tool_call_update', toolCallId: callId, status: rng() < 0.85 ? 'completed' : 'failed' });
  } else {
    p.update({
      sessionUpdate: 'tool_call',
      toolCallId: callId,
      title: `Read ${path}`,
      kind: 'read',
      status: 'completed',
      locations: [{ path, line: 1 }],
      content: [{ type: 'content', content: text('```ts\n' + sourceFile(rng, 30) + '\n```') }],
    });
  }
}

/** A prompt, maybe a thought and a plan, `toolCalls` tool calls (default: 0 to 3), and the answer. */
export function turn(p: Player, rng: Rng, index: number, toolCalls?: number): void {
  p.prompt(markdown(rng, rng() < 0.2 ? 1500 : 80 + Math.floor(rng() * 500)));
  if (rng() < 0.7) streamText(p, 'agent_thought_chunk', markdown(rng, 200 + Math.floor(rng() * 600)));
  if (rng() < 0.3) {
    p.update({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Read the code', priority: 'high', status: 'completed' },
        { content: 'Make the change', priority: 'medium', status: 'in_progress' },
        { content: 'Run the tests', priority: 'low', status: 'pending' },
      ],
    });
  }
  for (let t = toolCalls ?? Math.floor(rng() * 4); t > 0; t--) toolCall(p, rng, `call-${index}-${t}`);
  streamText(p, 'agent_message_chunk', markdown(rng, 500 + Math.floor(rng() * 4500)));
  const r = rng();
  p.end(r < 0.08 ? 'cancelled' : r < 0.14 ? 'max_tokens' : 'end_turn');
}

/** The reducer leaves terminal output to the host (it streams from the terminal): fill it like a finished command. */
export function withTerminalOutput(entries: readonly Entry[], rng: Rng): Entry[] {
  return entries.map((e) =>
    e.kind !== 'tool' || !e.content.some((c) => c.type === 'terminal')
      ? e
      : {
          ...e,
          content: e.content.map((c) =>
            c.type === 'terminal' ? { ...c, output: terminalOutput(rng, 10 + Math.floor(rng() * 40)), exitCode: 0 } : c,
          ),
        },
  );
}

export interface Transcript {
  status: HostMessage;
  entries: HostMessage;
  kinds: Record<string, number>;
  bytes: number;
}

/** `entryCount` entries of every kind, the last one ending with {@link TRANSCRIPT_MARKER}. */
export function transcriptMessages(entryCount = 2000): Transcript {
  const rng = seededRandom(2);
  const p = new Player();
  for (let i = 0; p.thread.entries.length < entryCount; i++) turn(p, rng, i);
  p.thread = { ...p.thread, entries: p.thread.entries.slice(0, entryCount - 2) };
  p.prompt('And finally?');
  p.update({ sessionUpdate: 'agent_message_chunk', content: text(`${markdown(rng, 800)}\n\n${TRANSCRIPT_MARKER}`) });
  p.end('end_turn');
  const entries = withTerminalOutput(p.thread.entries, rng);
  const patch = diffEntries([], entries);
  if (!patch) throw new Error('empty transcript');
  const kinds: Record<string, number> = {};
  for (const e of entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
  const message: HostMessage = { type: 'entries', ...patch };
  checked([{ at: 0, message, chunkTimes: [] }]);
  return {
    status: { type: 'status', status: statusOf(p.thread) },
    entries: message,
    kinds,
    bytes: JSON.stringify(message).length,
  };
}

/** Milliseconds for the webview's schema to parse `message` (here in Node's V8: an estimate of the webview's cost). */
export function parseMs(message: HostMessage): number {
  const start = performance.now();
  hostMessageSchema.parse(message);
  return performance.now() - start;
}

/** Median of `runs` timings of `work`, in ms, one decimal. */
export function medianMs(runs: number, work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)] * 10) / 10;
}

/**
 * The host's part of opening a saved chat, median of 5: `entries` saved as the
 * history saves them (their newest MAX_SAVED_CHARS), that file parsed and
 * checked against its schema, ids renewed, the whole list diffed and
 * serialised as the view is sent it. Also what the reopened view is sent.
 */
export function reopenHost(entries: readonly Entry[]): {
  savedKB: number;
  savedEntries: number;
  openHostMs: number;
  message: HostMessage;
} {
  const file = JSON.stringify(transcriptToSave({ entries, terminals: {} }));
  let message: HostMessage | undefined;
  const openHostMs = medianMs(5, () => {
    const saved = savedTranscriptSchema.parse(JSON.parse(file));
    const fresh = withFreshIds(saved, 'c2');
    message = { type: 'entries', ...(diffEntries([], fresh) ?? { length: 0, ops: [] }) };
    JSON.stringify(message);
  });
  const savedEntries = message?.type === 'entries' ? message.length : 0;
  return { savedKB: Math.round(file.length / 1024), savedEntries, openHostMs, message: message! };
}

/**
 * The extension host's part of issue 12's figures (the webview's part is the
 * page's first render of the same entries): opening a saved chat (its file
 * parsed and checked, ids renewed, the whole list diffed and serialised as
 * the view is sent it), switching to an open chat the page kept (the list
 * diffed against what the page holds, and serialised), and the reducer's work for three hidden chats streaming
 * 1,000 chunks/s each (they post nothing to the view).
 */
export function sessionFigures(entryCount = 2000): {
  savedKB: number;
  savedEntries: number;
  openHostMs: number;
  switchHostMs: number;
  hiddenStreamMsPerSecond: number;
} {
  const { entries } = transcriptMessages(entryCount);
  if (entries.type !== 'entries') throw new Error('no entries');
  const thread = entries.ops
    .map((op) => (op.op === 'set' ? op.entry : undefined))
    .filter((e): e is Entry => e !== undefined);
  const { savedKB, savedEntries, openHostMs } = reopenHost(thread);
  // The page kept the chat's list: the host sends what changed since (here: nothing), not the list.
  const switchHostMs = medianMs(5, () =>
    JSON.stringify({ type: 'entries', ...(diffEntries(thread, thread) ?? { length: thread.length, ops: [] }) }),
  );
  // One second of three hidden chats at 1,000 chunks/s: 3,000 reducer steps, no diffing, no posting.
  const chunk = (i: number): SessionUpdate => ({
    sessionUpdate: 'agent_message_chunk',
    content: { type: 'text', text: `word ${i} `.repeat(10) },
  });
  const hiddenStreamMsPerSecond = medianMs(3, () => {
    for (let c = 0; c < 3; c++) {
      let t: Thread = reduceThread(emptyThread, { type: 'prompt', id: `p${c}`, text: 'go' });
      for (let i = 0; i < 1_000; i++) t = reduceThread(t, { type: 'update', id: `u${c}-${i}`, update: chunk(i) });
    }
  });
  return { savedKB, savedEntries, openHostMs, switchHostMs, hiddenStreamMsPerSecond };
}
