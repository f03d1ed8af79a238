/**
 * Newline-delimited framing over raw bytes, for an agent's stdout behind the
 * bridge: each line is found without decoding what came before it, and the
 * size limit counts bytes.
 */

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines (without their '\n'; a '\r' before it is
 * kept) and hands each one that is not blank to `onLine`. A line that grows
 * past `maxLineBytes` calls `onTooLong` once, and nothing is emitted after it.
 */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private broken = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onTooLong: () => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.broken) return;
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      if (this.pendingBytes + (end - start) > this.maxLineBytes) return this.break();
      const line = this.complete(chunk.subarray(start, end));
      start = end + 1;
      if (!isBlank(line)) this.onLine(line);
      if (this.broken) return;
    }
    if (start === chunk.length) return;
    // Only the new bytes are searched for '\n': a long line costs one copy, when it completes.
    this.pending.push(start === 0 ? chunk : chunk.subarray(start));
    this.pendingBytes += chunk.length - start;
    if (this.pendingBytes > this.maxLineBytes) this.break();
  }

  private complete(last: Buffer): Buffer {
    if (this.pending.length === 0) return last;
    this.pending.push(last);
    const line = Buffer.concat(this.pending, this.pendingBytes + last.length);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }

  private break(): void {
    this.broken = true;
    this.pending = [];
    this.pendingBytes = 0;
    this.onTooLong();
  }
}

/** True when the line is only whitespace, as `String.prototype.trim` sees it. */
export function isBlank(line: Buffer): boolean {
  for (let i = 0; i < line.length; i++) {
    const byte = line[i];
    if (byte === 0x20 || (byte >= 0x09 && byte <= 0x0d)) continue;
    // Non-ASCII: trim() also removes U+00A0, U+FEFF, U+2028 and the like: let the decoder decide (rare).
    return byte >= 0x80 ? line.toString('utf8').trim() === '' : false;
  }
  return true;
}
