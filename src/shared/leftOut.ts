/**
 * How many items of a list an agent sent were cut before the message was read (connection/wire/wireBounds.ts): the
 * count rides in the update's `_meta` under LEFT_OUT_KEY, by the list's name, and the thread adds it to what it
 * says was left out.
 */

export const LEFT_OUT_KEY = 'vscode-acp/leftOut';

/** How many items of `list` were cut from the update whose `_meta` this is (0 when none, or not said as a count). */
export function leftOutOf(meta: unknown, list: string): number {
  const counts = (meta as Record<string, unknown> | null | undefined)?.[LEFT_OUT_KEY];
  const count = (counts as Record<string, unknown> | null | undefined)?.[list];
  return Number.isSafeInteger(count) && (count as number) > 0 ? (count as number) : 0;
}
