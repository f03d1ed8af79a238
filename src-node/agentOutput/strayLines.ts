/**
 * Spots lines on an agent's stdout that cannot be a JSON-RPC message: a stray
 * log line, an npm notice, or a message cut short (an agent that exited or
 * was interrupted mid-write). The SDK skips them silently; we tell the user.
 *
 * A line longer than the message limit is reported once, as too long (the
 * agent is then ended: what it sends after is not read).
 *
 * A line counts as a message when it starts with `{` and ends with `}`
 * (whitespace aside). That is one byte at each end, not a parse: the SDK
 * parses every line anyway, and answers the few that pass this check but are
 * still not JSON with a parse error.
 */

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
/** How much of a stray line is reported. */
const MAX_SHOWN = 200;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === NEWLINE;

export class StrayLineDetector {
  private readonly decoder = new TextDecoder();
  /** The first bytes of the current line, from its first non-space byte. */
  private readonly head = new Uint8Array(MAX_SHOWN);
  private headLength = 0;
  private started = false;
  private first = 0;
  private last = 0;
  private lineBytes = 0;
  private tooLong = false;

  constructor(
    private readonly report: (line: string) => void,
    private readonly maxLineBytes = Infinity,
    private readonly onTooLong: () => void = () => undefined,
  ) {}

  /** Scans one chunk; cost is one native search per line plus a few bytes at its ends. */
  scan(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      const end = chunk.indexOf(NEWLINE, i);
      this.take(chunk, i, end < 0 ? chunk.length : end);
      if (end < 0) return;
      this.endLine();
      i = end + 1;
    }
  }

  /** The output ended: a line without its newline is judged as it is. */
  end(): void {
    this.endLine();
  }

  private take(chunk: Uint8Array, from: number, to: number): void {
    this.lineBytes += to - from;
    if (this.lineBytes > this.maxLineBytes && !this.tooLong) {
      this.tooLong = true;
      this.onTooLong();
    }
    let start = from;
    if (!this.started) {
      while (start < to && isSpace(chunk[start])) start++;
      if (start === to) return;
      this.started = true;
      this.first = chunk[start];
    }
    const room = MAX_SHOWN - this.headLength;
    if (room > 0) {
      const piece = chunk.subarray(start, Math.min(to, start + room));
      this.head.set(piece, this.headLength);
      this.headLength += piece.length;
    }
    let stop = to;
    while (stop > start && isSpace(chunk[stop - 1])) stop--;
    if (stop > start) this.last = chunk[stop - 1];
  }

  private endLine(): void {
    if (this.started && !this.tooLong && (this.first !== OPEN_BRACE || this.last !== CLOSE_BRACE)) {
      this.report(this.decoder.decode(this.head.subarray(0, this.headLength)).trimEnd());
    }
    this.started = false;
    this.headLength = 0;
    this.lineBytes = 0;
  }
}
