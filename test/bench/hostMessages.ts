/**
 * What the host would post to the webview, made with the real reducer and
 * diffEntries and batched the way ChatViewProvider batches (nextFlushAt): a
 * change is posted at once when nothing was posted for FLUSH_INTERVAL_MS, else
 * that long after the last post; one flush posts the status (if it changed) and one
 * `entries` patch with every chunk that arrived meanwhile.
 *
 * Runs in Node (bundled by build.mjs through generate.ts).
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { diffEntries, FLUSH_INTERVAL_MS, nextFlushAt } from '../../src/shared/page/entryPatches';
import {
  emptySessionControls,
  hostMessageSchema,
  viewStatusSchema,
  type HostMessage,
  type ViewStatus,
} from '../../src/shared/page/protocol';
import { emptyThread, type Entry, type Thread } from '../../src/shared/thread/thread';
import { reduceThread, type ThreadAction } from '../../src/shared/thread/threadReducer';
import { markdown, seededRandom, splitChunks } from './corpus';

/** A message and when the host posts it (ms from the start); `chunkTimes`: when its chunks arrived from the agent. */
export interface TimedMessage {
  at: number;
  message: HostMessage;
  chunkTimes: number[];
}

/** The status the chat view would get for `thread`, connected to a bench agent. */
export function statusOf(thread: Thread): ViewStatus {
  return withDefaults({
    agents: [{ id: 'bench', name: 'Bench Agent', available: true }],
    selectedAgentId: 'bench',
    connection: 'connected',
    agentLabel: 'Bench Agent 1.0.0',
    turn: thread.turn,
    title: thread.title,
    plan: [...thread.plan],
    controls: emptySessionControls,
  });
}

/**
 * Status fields added to the protocol since this was written get the first empty value their schema accepts;
 * optional ones stay absent, as the host leaves them (an empty `pendingPrompt` would show a prompt waiting to be sent).
 */
function withDefaults(known: Partial<ViewStatus>): ViewStatus {
  const status: Record<string, unknown> = { ...known };
  for (const [key, field] of Object.entries(viewStatusSchema.shape)) {
    if (key in status || field.safeParse(undefined).success) continue;
    const empty = [[], {}, false, ''].find((value) => field.safeParse(value).success);
    if (empty !== undefined) status[key] = empty;
  }
  return status as ViewStatus;
}

/** The host side of one stream: events in, timed messages out. Mirrors ChatViewProvider.scheduleFlush/flush. */
class HostSimulation {
  private thread: Thread = emptyThread;
  private sentEntries: readonly Entry[] = [];
  private sentStatus = '';
  private timerAt: number | undefined;
  private lastFlushAt = -Infinity;
  private pendingChunks: number[] = [];
  readonly messages: TimedMessage[] = [];
  /** Time spent in reducer, diff and status serialisation: the host's own per-stream cost. */
  hostMs = 0;

  event(at: number, action: ThreadAction, isChunk: boolean): void {
    if (this.timerAt !== undefined && this.timerAt <= at) this.flush(this.timerAt);
    const start = performance.now();
    const next = reduceThread(this.thread, action);
    this.hostMs += performance.now() - start;
    if (isChunk) this.pendingChunks.push(at);
    // A timer of 0 ms fires after 1 ms in Node (the extension host).
    if (next !== this.thread && this.timerAt === undefined) {
      this.timerAt = Math.max(nextFlushAt(at, this.lastFlushAt), at + 1);
    }
    this.thread = next;
  }

  finish(): TimedMessage[] {
    if (this.timerAt !== undefined) this.flush(this.timerAt);
    return this.messages;
  }

  private flush(at: number): void {
    this.timerAt = undefined;
    this.lastFlushAt = at;
    const start = performance.now();
    const status = statusOf(this.thread);
    const statusJson = JSON.stringify(status);
    // No SHOWN_TEXT_LIMIT: the bench measures rendering a whole 1 MB reply, as it did before the
    // product began to show only the first 256 KiB of a message.
    const patch = diffEntries(this.sentEntries, this.thread.entries, Infinity);
    this.sentEntries = this.thread.entries;
    this.hostMs += performance.now() - start;
    if (statusJson !== this.sentStatus) {
      this.sentStatus = statusJson;
      this.messages.push({ at, message: { type: 'status', status }, chunkTimes: [] });
    }
    // A copy, as postMessage makes: a kept slice of the reply would keep the whole reply alive.
    if (patch) {
      this.messages.push({
        at,
        message: JSON.parse(JSON.stringify({ type: 'entries', ...patch })),
        chunkTimes: this.pendingChunks,
      });
    }
    this.pendingChunks = [];
  }
}

const messageChunk = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
});

/**
 * A prompt, then `text` streamed as `chunkCount` agent message chunks, one
 * every `intervalMs`, then the end of the turn.
 */
export function streamMessages(
  text: string,
  chunkCount: number,
  intervalMs = 1,
): { messages: TimedMessage[]; hostMs: number } {
  const host = new HostSimulation();
  host.event(0, { type: 'prompt', id: 'u1', text: 'Explain the thread model, with examples.' }, false);
  const first = FLUSH_INTERVAL_MS + 4;
  splitChunks(text, chunkCount).forEach((chunk, i) => {
    host.event(first + i * intervalMs, { type: 'update', id: `a${i}`, update: messageChunk(chunk) }, true);
  });
  host.event(first + chunkCount * intervalMs, { type: 'turnEnded', id: 'end', stopReason: 'end_turn' }, false);
  return { messages: checked(host.finish()), hostMs: host.hostMs };
}

/** The ~1 MB Markdown reply that both stream sizes carry. */
export function streamText(chars = 1_000_000): string {
  return markdown(seededRandom(1), chars);
}

/** Every message must pass the webview's own schema, or the webview would drop it and the bench measure nothing. */
export function checked(messages: TimedMessage[]): TimedMessage[] {
  for (const { message } of messages) {
    const parsed = hostMessageSchema.safeParse(message);
    if (!parsed.success) throw new Error(`generated a message the webview would drop: ${parsed.error.message}`);
  }
  return messages;
}
