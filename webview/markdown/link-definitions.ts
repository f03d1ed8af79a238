/**
 * The reference definitions (`[x]: url`) of a streamed message, and when the
 * blocks completed before one arrived must be lexed again: a definition can
 * turn `[text][x]` in any earlier block into a link.
 *
 * Both checks are bounded. Whether the definitions changed is told from the
 * open part's own (its tokens, lexed anyway), never from all of them: turning
 * the whole set into a key on each update cost every update the length of all
 * definitions so far. And the re-lexing has a budget in the length of the
 * text: an agent that puts a definition after each of 400 blocks, each
 * with a reference, made the view lex 4 MB for 15 KB, quadratic in the
 * blocks. Past the budget a definition applies to the blocks after it only.
 */
import type { Links, MarkedToken, Token } from 'marked';

/** Earlier blocks may be lexed again for new definitions up to this many times the completed text's length... */
const RELINK_FACTOR = 2;
/** ...plus this much: a short message may be relinked as often as its definitions grow. */
const RELINK_ALLOWANCE = 64 * 1024;

export class LinkDefinitions {
  /** Definitions of completed blocks, first one wins (as in CommonMark). */
  readonly completed: Links = Object.create(null);
  /** The open part's own definitions (not completed ones) at the last update, as JSON by label. */
  private open = new Map<string, string>();
  /** How much re-lexing has been done, in characters. */
  private spent = 0;

  /** Adds the definitions of a completed block's tokens. */
  complete(tokens: readonly Token[]): void {
    collectDefs(tokens, this.completed);
  }

  /**
   * Whether the definitions changed with this update, whose open part lexed to
   * `tokens` (before its completed blocks are added): one of the open part's
   * is new or different, or one it had is gone without having completed.
   */
  changed(tokens: readonly Token[]): boolean {
    const found: Links = Object.create(null);
    collectDefs(tokens, found);
    const open = new Map<string, string>();
    for (const tag of Object.keys(found)) {
      if (!Object.hasOwn(this.completed, tag)) open.set(tag, JSON.stringify(found[tag]));
    }
    let changed = false;
    for (const [tag, json] of open) if (this.open.get(tag) !== json) changed = true;
    for (const [tag, json] of this.open) {
      const completedAs = Object.hasOwn(this.completed, tag) ? JSON.stringify(this.completed[tag]) : undefined;
      if (!open.has(tag) && completedAs !== json) changed = true;
    }
    this.open = open;
    return changed;
  }

  /** Takes `cost` from the budget, when it has that much left for `completedLength` characters of completed text. */
  mayRelex(cost: number, completedLength: number): boolean {
    if (this.spent + cost > RELINK_FACTOR * completedLength + RELINK_ALLOWANCE) return false;
    this.spent += cost;
    return true;
  }
}

/** Definitions that marked registered while lexing `tokens` (they stay in the tree as `def` tokens). */
function collectDefs(tokens: readonly Token[], into: Links): void {
  for (const t of tokens as MarkedToken[]) {
    if (t.type === 'def') {
      if (!Object.hasOwn(into, t.tag)) into[t.tag] = { href: t.href, title: t.title };
    } else if (t.type === 'blockquote') {
      collectDefs(t.tokens, into);
    } else if (t.type === 'list') {
      for (const item of t.items) collectDefs(item.tokens, into);
    }
  }
}
