/**
 * Picks lines out of a file's bytes for `fs/read_text_file`'s `line` and
 * `limit`. Lines end at "\n", which is kept (and any "\r" before it), so
 * CRLF content comes back byte for byte. The bytes are cut before decoding:
 * 0x0A never occurs inside a multi-byte UTF-8 sequence, so a cut at "\n"
 * cannot split a character, and only the selected part is decoded.
 */

/**
 * UTF-8 text of lines `line` .. `line + limit - 1` (1-based; `line` 0 is
 * taken as 1, which the ACP schema allows). No `limit`: to the end. A start
 * past the last line gives "". Invalid UTF-8 becomes U+FFFD; a BOM is kept.
 */
export function selectLines(bytes: Buffer, line?: number, limit?: number): string {
  const start = offsetAfterNewlines(bytes, 0, Math.max(line ?? 1, 1) - 1);
  if (start === undefined) return '';
  const end = limit === undefined ? bytes.length : (offsetAfterNewlines(bytes, start, limit) ?? bytes.length);
  return bytes.subarray(start, end).toString('utf8');
}

/** The offset just past the `count`-th "\n" at or after `from`; undefined when there are fewer. */
function offsetAfterNewlines(bytes: Buffer, from: number, count: number): number | undefined {
  let at = from;
  for (let i = 0; i < count; i++) {
    const newline = bytes.indexOf(0x0a, at);
    if (newline === -1) return undefined;
    at = newline + 1;
  }
  return at;
}
