// stdio plumbing: the ACP stream (with a tap that logs every received method),
// raw line writes for garbage/malformed-message steps, and stderr logging.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

/** Writes `[test-agent] <message>` to stderr. */
export function log(message: string): void {
  process.stderr.write(`[test-agent] ${message}\n`);
}

/** Writes raw bytes to stdout, bypassing the SDK's JSON framing. */
export function writeRaw(bytes: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

/** Writes one raw line to stdout, bypassing the SDK's JSON framing. */
export function writeRawLine(line: string): Promise<void> {
  return writeRaw(`${line}\n`);
}

/** Once set, nothing more is read from stdin: the client's writes pile up in the pipe. */
let readingStopped = false;

/** Stops reading stdin for good (the misbehaviour of an agent stuck in a loop). */
export function stopReading(): void {
  readingStopped = true;
}

/** Writes `text` to stderr, then exits with `code` once stderr has flushed. */
export function crash(code: number, text: string | undefined): Promise<never> {
  return new Promise(() => {
    const message = text === undefined ? '' : text.endsWith('\n') ? text : `${text}\n`;
    process.stderr.write(message, () => process.exit(code));
  });
}

/** Raw requests of the fuzz step carry ids starting with this; their answers are counted, not passed on. */
export const FUZZ_ID_PREFIX = 'fuzz-';
export const fuzzAnswers = { count: 0 };

function logIncoming(): TransformStream<acp.AnyMessage, acp.AnyMessage> {
  return new TransformStream({
    async transform(message, controller) {
      // Never resolves once reading stopped: the stream's backpressure stops reading the pipe.
      if (readingStopped) await new Promise<never>(() => undefined);
      if (
        'id' in message &&
        typeof message.id === 'string' &&
        message.id.startsWith(FUZZ_ID_PREFIX) &&
        !('method' in message)
      ) {
        fuzzAnswers.count++;
        return;
      }
      if ('method' in message && typeof message.method === 'string') log(message.method);
      // The client's answer to our garbage (parse error, id null): log it instead of
      // letting the SDK print "Got response to unknown request null".
      if ('error' in message && message.id === null) return log(`error response: ${JSON.stringify(message.error)}`);
      controller.enqueue(message);
    },
  });
}

/** The agent's stdio ACP stream; every received request/notification method is logged. */
export function stdioStream(): acp.Stream {
  const output = Writable.toWeb(process.stdout) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const base = acp.ndJsonStream(output, input);
  return { writable: base.writable, readable: base.readable.pipeThrough(logIncoming()) };
}
