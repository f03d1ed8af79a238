/** Line ranges of text, as `fs/read_text_file` asks for them. */

/**
 * ACP `line` is 1-based; `limit` counts lines. Lines keep their "\n", as the
 * disk reader does, so both sources give the same text.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (!line && (limit === undefined || limit === null)) return text;
  const lines = text.split(/(?<=\n)/);
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined || limit === null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('');
}
