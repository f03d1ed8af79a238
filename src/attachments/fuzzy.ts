/**
 * Fuzzy matching of a typed query against paths, as the `@` popup needs it:
 * the query's characters in order (case ignored); a match scores higher when
 * its characters run together and fall in the file name rather than its
 * folders. VS Code's own scorer is not exposed to extensions, and this is
 * all the popup needs.
 */

/** The score of `query` in `path` (higher is better), or undefined when it does not match. */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  if (q === '') return 0;
  const text = path.toLowerCase();
  const nameStart = text.lastIndexOf('/') + 1;
  let score = 0;
  // From the end backwards, each character at its last place before the next: the match leans
  // to the file name, and "chat.ts" in src/chat/chat.ts is one run there, not scattered over "src".
  let at = text.length;
  let run = 0;
  for (let i = q.length - 1; i >= 0; i--) {
    const found = text.lastIndexOf(q[i], at - 1);
    if (found < 0) return undefined;
    run = found === at - 1 ? run + 1 : 0;
    // Runs count more the longer they are; the file name counts double; a word's start counts extra.
    score += 1 + run * 2 + (found >= nameStart ? 2 : 0) + (found === 0 || '/._-'.includes(text[found - 1]) ? 3 : 0);
    at = found;
  }
  // Of equal matches, the shorter path first.
  return score - path.length / 1000;
}

/** The `limit` best of `items` for `query`, best first. */
export function bestMatches<T>(query: string, items: readonly T[], key: (item: T) => string, limit: number): T[] {
  const scored: Array<{ item: T; score: number }> = [];
  for (const item of items) {
    const score = fuzzyScore(query, key(item));
    if (score !== undefined) scored.push({ item, score });
  }
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.item);
}
