/**
 * What the bridge says when it closes a WebSocket. A close frame holds at most
 * 125 bytes, 2 of them the code, and ws throws on a longer reason: thrown in
 * an upgrade's callback, that would end the bridge with every connection. So
 * every close of the bridge goes through closeSocket, which cuts its reason.
 */
import type { WebSocket } from 'ws';

/** The most bytes of UTF-8 a close reason may hold (RFC 6455, 5.5: a control frame's 125, less the code's 2). */
export const MAX_CLOSE_REASON_BYTES = 123;

const ELLIPSIS = '…';
const ELLIPSIS_BYTES = 3;

/** Closes `ws` with `code` and `text` as its reason, made to fit (closeReason). */
export function closeSocket(ws: WebSocket, code: number, text: string): void {
  ws.close(code, closeReason(text));
}

/**
 * `text` as a close reason: on one line (oneLine), and if longer than MAX_CLOSE_REASON_BYTES of UTF-8, cut at a
 * character's boundary and ended with "…".
 */
export function closeReason(text: string): string {
  return cutUtf8(oneLine(text), MAX_CLOSE_REASON_BYTES);
}

/**
 * `text` on one line: each run of white space and control characters becomes one space (a client or a log shows
 * no line breaks or terminal escapes it did not write), a lone surrogate U+FFFD (what its UTF-8 would say anyway).
 */
export function oneLine(text: string): string {
  return text
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .replace(/\p{Cs}/gu, '\uFFFD')
    .trim();
}

/**
 * `text` if its UTF-8 fits in `maxBytes`, else its longest start that fits with "…" after it. Cut between code
 * points, never inside one (a surrogate pair stays whole); reads at most `maxBytes` characters of a long `text`.
 */
export function cutUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  let fitsWithEllipsis = 0;
  for (const char of text) {
    bytes += utf8Bytes(char.codePointAt(0) ?? 0);
    if (bytes > maxBytes) return `${text.slice(0, fitsWithEllipsis)}${ELLIPSIS}`;
    end += char.length;
    if (bytes <= maxBytes - ELLIPSIS_BYTES) fitsWithEllipsis = end;
  }
  return text;
}

/** The length of a code point in UTF-8 (a lone surrogate is written as U+FFFD: 3 bytes). */
function utf8Bytes(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}
