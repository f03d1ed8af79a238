/**
 * An agent's stderr: copied to the bridge's own stderr (the terminal it runs
 * in), and its end kept for the exit report (its last line for the close
 * reason) when the agent exits.
 */
import type { Readable } from 'node:stream';
import { MAX_STDERR_TAIL_CHARS, MAX_STDERR_TAIL_LINES } from '../../src/shared/bridgeProtocol';

/**
 * Agents that log a line per message would otherwise cost one write (and a
 * wake-up of whoever reads our stderr) per message: what arrives within this
 * long goes out as one write. Nobody reads a log line 20 ms sooner.
 */
const BATCH_MS = 20;
const BATCH_BYTES = 64 * 1024;
/** How much of the end of stderr is kept to find its last line. */
const TAIL_BYTES = 4 * 1024;

export interface StderrTap {
  /** Writes out what is waiting now (before a log line of ours, to keep the order). */
  flush(): void;
  /** The last line that is not blank, so far. */
  lastLine(): string;
  /** The last lines that are not blank (as many as the client shows), so far. */
  tail(): string;
}

/** Reads `stream` (an agent's stderr) as it comes; `write` gets it in batches, in order. */
export function tapStderr(stream: Readable, write: (bytes: Buffer) => void): StderrTap {
  let waiting: Buffer[] = [];
  let waitingBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waitingBytes === 0) return;
    const bytes = waiting.length === 1 ? waiting[0] : Buffer.concat(waiting, waitingBytes);
    waiting = [];
    waitingBytes = 0;
    write(bytes);
  };
  stream.on('data', (chunk: Buffer) => {
    waiting.push(chunk);
    waitingBytes += chunk.length;
    if (waitingBytes >= BATCH_BYTES) flush();
    else timer ??= setTimeout(flush, BATCH_MS).unref();
    tail.push(chunk);
    tailBytes += chunk.length;
    while (tailBytes - tail[0].length >= TAIL_BYTES) {
      tailBytes -= tail[0].length;
      tail.shift();
    }
  });
  stream.once('end', flush);
  const lines = () =>
    Buffer.concat(tail, tailBytes)
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
  return {
    flush,
    lastLine: () => lines().at(-1) ?? '',
    tail: () => lines().slice(-MAX_STDERR_TAIL_LINES).join('\n').slice(-MAX_STDERR_TAIL_CHARS),
  };
}
