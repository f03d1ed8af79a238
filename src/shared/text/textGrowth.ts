/**
 * How a text entry grew. Each version made by appending remembers the version
 * it grew from and the piece added, so the view's patch can be the pieces
 * added since the last post. Slicing the tail off the whole text instead makes
 * V8 flatten the long concatenated string: work in the length of the reply on
 * every post, quadratic over a long reply.
 */

interface Growth {
  readonly from: object;
  readonly piece: string;
  /** Links behind this one: the chain is cut at MAX_CHAIN (a diff across the cut slices instead). */
  readonly depth: number;
}

/** Bounds what an unwatched reply (no view to post to) keeps alive. */
const MAX_CHAIN = 10_000;

const growth = new WeakMap<object, Growth>();

/** `to` is `from` with `piece` appended. */
export function recordGrowth(from: object, to: object, piece: string): void {
  const depth = (growth.get(from)?.depth ?? 0) + 1;
  if (depth <= MAX_CHAIN) growth.set(to, { from, piece, depth });
}

/**
 * The text appended from version `from` to version `to`, or undefined when
 * `to` did not grow from `from` by recorded appends. Forgets what lies behind
 * `to`: the caller posts `to`, so the next diff starts there. (Keeping `to`'s
 * link kept every version since the last post alive as long as the entry,
 * each with its text: in ten 10,000-entry chats, a copy of most answers as
 * they were at their first post, flattened by that post's serialisation.)
 */
export function grownSince(from: object, to: object): string | undefined {
  const pieces: string[] = [];
  for (let version = to; version !== from;) {
    const step = growth.get(version);
    if (!step) return undefined;
    pieces.push(step.piece);
    version = step.from;
  }
  growth.delete(from);
  growth.delete(to);
  return pieces.reverse().join('');
}
