/**
 * An agent's long lines are parsed off the extension host's thread. `JSON.parse` of one 9 MB message of 300,000
 * small objects (a tool call with 100,000 content items and as many locations) took 90 to 540 ms here, all of it a
 * stall of every extension in the window, for items the thread then leaves out anyway (wireBounds.ts). A line over
 * LARGE_LINE_BYTES goes to a worker thread (lineWorker.ts) that parses it and cuts its lists to the wire bounds;
 * what comes back, much shorter, is what the SDK parses. A line the worker has nothing to cut in (one long text:
 * a few milliseconds to parse) or cannot read passes on as it came, and so does every line when the worker cannot
 * start. Order is kept: the lines after a long one wait for it. And short lines are passed on LINES_PER_TASK a task,
 * so that thousands of them arriving at once are not all handled in one.
 */
import * as path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { Worker } from 'node:worker_threads';

/** Past this, a line is parsed by the worker. */
export const LARGE_LINE_BYTES = 1024 * 1024;
/** A worker left without a line this long ends (it is started again by the next). */
const WORKER_IDLE_MS = 30_000;
const NEWLINE = 0x0a;
/**
 * Lines passed on in one task at most: the SDK and the chat handle them (in microtasks) before the next task, so a
 * backlog of thousands of small messages (10,000 compaction boundaries took the host 119 ms in one chunk's task) is
 * handled this many a task, with the extension host free between.
 */
const LINES_PER_TASK = 50;
const nextTask = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface LineAsked {
  id: number;
  bytes: Uint8Array;
}
export interface LineAnswered {
  id: number;
  /** The line cut to the wire bounds, or nothing when it stays as it was. */
  line?: Uint8Array;
}

/**
 * Passes an agent's output on, each line over LARGE_LINE_BYTES as the worker shortened it. A line past `maxLineBytes`
 * goes on as it comes, for the SDK to refuse (StrayLineDetector has the agent ended by then).
 */
export class LargeLineRelay extends Transform {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The current line is past `maxLineBytes`. */
  private passing = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly worker = sharedLineWorker,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.relayChunk(chunk).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    this.endLine().then(() => done(), done);
  }

  private async relayChunk(chunk: Buffer): Promise<void> {
    let from = 0;
    let lines = 0;
    while (from < chunk.length) {
      if (lines === LINES_PER_TASK) {
        lines = 0;
        await nextTask();
      }
      const end = chunk.indexOf(NEWLINE, from);
      const to = end < 0 ? chunk.length : end + 1;
      const piece = chunk.subarray(from, to);
      from = to;
      if (this.passing) {
        this.push(piece);
        this.passing = end < 0;
      } else if (end >= 0 && this.heldBytes === 0 && piece.length <= LARGE_LINE_BYTES) {
        this.push(piece);
        lines++;
      } else {
        this.held.push(piece);
        this.heldBytes += piece.length;
        if (end >= 0) {
          await this.endLine();
          lines++;
        } else if (this.heldBytes > this.maxLineBytes) {
          this.push(this.takeHeld());
          this.passing = true;
        }
      }
    }
  }

  private takeHeld(): Buffer {
    const line = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    return line;
  }

  private async endLine(): Promise<void> {
    if (this.heldBytes === 0) return;
    const line = this.takeHeld();
    const shorter = line.length > LARGE_LINE_BYTES ? await this.worker.shorten(line) : undefined;
    this.push(shorter ? Buffer.concat([shorter, Buffer.from('\n')]) : line);
  }
}

/** The worker thread, started on the first long line and ended when idle; `shorten` never rejects. */
export class LineWorker {
  private worker?: Worker;
  private readonly waiting = new Map<number, (line: Uint8Array | undefined) => void>();
  private nextId = 0;
  private idle?: NodeJS.Timeout;
  /** The worker could not start or failed: lines pass on as they come from then on. */
  private broken = false;

  constructor(private readonly file = path.join(__dirname, 'lineWorker.js')) {}

  /** `line` cut to the wire bounds, or undefined when it is to pass on as it is. */
  shorten(line: Uint8Array): Promise<Uint8Array | undefined> {
    const worker = this.started();
    if (!worker) return Promise.resolve(undefined);
    clearTimeout(this.idle);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (shorter) => {
        this.waiting.delete(id);
        if (this.waiting.size === 0 && this.worker) this.idle = setTimeout(() => this.end(), WORKER_IDLE_MS).unref();
        resolve(shorter);
      });
      const asked: LineAsked = { id, bytes: line };
      worker.postMessage(asked);
    });
  }

  /** Ends the worker; lines still with it pass on as they came. */
  end(): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    for (const resolve of [...this.waiting.values()]) resolve(undefined);
    void worker?.terminate();
  }

  private started(): Worker | undefined {
    if (this.worker || this.broken) return this.worker;
    try {
      const worker = new Worker(this.file);
      worker.unref();
      worker.on('message', ({ id, line }: LineAnswered) => this.waiting.get(id)?.(line));
      // A worker that fails (its file missing, out of memory) hands every line back as it came.
      const failed = () => {
        if (this.worker !== worker) return;
        this.broken = true;
        this.end();
      };
      worker.on('error', failed);
      // Ended by `end` (then no longer this.worker) or by itself: the latter is a failure too.
      worker.on('exit', failed);
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return undefined;
    }
  }
}

const sharedLineWorker = new LineWorker();
