/**
 * Spots lines on an agent's stdout that cannot be JSON-RPC (a stray log
 * line, an npm notice). The SDK skips them silently; we tell the user.
 */

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const MAX_SHOWN = 200;

export class StrayLineDetector {
  private atLineStart = true;
  private readonly decoder = new TextDecoder();

  constructor(private readonly report: (line: string) => void) {}

  /** Scans one chunk; cost is one native search per line plus a byte or two. */
  scan(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.atLineStart) {
        const b = chunk[i];
        if (b === 0x20 || b === 0x09 || b === 0x0d || b === NEWLINE) { i++; continue; }
        this.atLineStart = false;
        if (b !== OPEN_BRACE) this.reportFrom(chunk, i);
      }
      const end = chunk.indexOf(NEWLINE, i);
      if (end < 0) return;
      this.atLineStart = true;
      i = end + 1;
    }
  }

  private reportFrom(chunk: Uint8Array, start: number): void {
    const end = chunk.indexOf(NEWLINE, start);
    const stop = Math.min(end < 0 ? chunk.length : end, start + MAX_SHOWN);
    this.report(this.decoder.decode(chunk.subarray(start, stop)).trimEnd());
  }
}
