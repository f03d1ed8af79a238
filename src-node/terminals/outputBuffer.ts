/**
 * A terminal's output: stdout and stderr in arrival order, the newest
 * `limit` bytes kept, cut at the start on a UTF-8 character boundary (ACP
 * says the retained output may be a little under the limit for that).
 */

/** How many bytes a UTF-8 sequence starting with `byte` has; 0 for a continuation or invalid byte. */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/**
 * Holds back a character split across two reads of one stream, so that a
 * chunk of the other stream arriving in between cannot land inside it.
 */
export class Utf8Splitter {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete characters of what has arrived so far. */
  push(chunk: Buffer): Buffer {
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const cut = completeLength(data);
    this.pending = Buffer.from(data.subarray(cut));
    return data.subarray(0, cut);
  }

  /** Whatever is left at the end of the stream (an incomplete character, as is). */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }
}

/** The length of `data` without a trailing incomplete sequence. */
function completeLength(data: Buffer): number {
  for (let back = 1; back <= Math.min(4, data.length); back++) {
    const byte = data[data.length - back];
    if (isContinuation(byte)) continue;
    const need = sequenceLength(byte);
    return need > back ? data.length - back : data.length;
  }
  return data.length;
}

export interface OutputSnapshot {
  readonly output: string;
  readonly truncated: boolean;
}

export class OutputBuffer {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private dropped = false;

  constructor(readonly limit: number) {}

  /** How many bytes the buffer holds now: never more than `limit` (a command's output is bounded in memory). */
  get heldBytes(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.trim();
    // Many tiny reads would make every snapshot concatenate thousands of pieces.
    if (this.chunks.length > 256) this.chunks = [Buffer.concat(this.chunks)];
  }

  snapshot(): OutputSnapshot {
    const all = Buffer.concat(this.chunks);
    // Only a cut can split a character; output that starts oddly by itself is kept as is.
    const start = this.dropped ? boundaryAtOrAfter(all, 0) : 0;
    let text = all.subarray(start).toString('utf8');
    // Invalid bytes decode to U+FFFD (3 bytes each): keep the text itself within the limit too.
    if (Buffer.byteLength(text) > this.limit) {
      const encoded = Buffer.from(text);
      text = encoded.subarray(boundaryAtOrAfter(encoded, encoded.length - this.limit)).toString('utf8');
    }
    return { output: text, truncated: this.dropped };
  }

  private trim(): void {
    while (this.bytes > this.limit) {
      this.dropped = true;
      const first = this.chunks[0];
      const excess = this.bytes - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.bytes -= excess;
      }
    }
  }
}

/** The first index >= `from` that does not fall inside a character (skips at most 3 continuation bytes). */
function boundaryAtOrAfter(data: Buffer, from: number): number {
  let i = from;
  while (i < data.length && i < from + 3 && isContinuation(data[i])) i++;
  return i;
}
