/**
 * Which of the list's older entries are in the page. Entries are laid out in
 * groups of GROUP, and all but the newest are `far`: a far group is
 * `content-visibility: auto`, and holds its entry elements only while the
 * browser says it is near the viewport (`contentvisibilityautostatechange`);
 * off screen it is an empty box of the height it last had with them (or an
 * estimate). So the page holds the entries around the view and the newest
 * ones, whatever the chat's length, and a frame costs what is in view:
 *
 * - Blink computes, every frame that scrolls, whether each
 *   content-visibility: auto element of the page is near the viewport,
 *   skipped subtrees included (measured on 10,000 entries, one element each:
 *   ~35 ms a frame, frames of 100-250 ms); a group is GROUP entries.
 * - A change of an element's content-visibility state costs Chromium a style
 *   pass over every element of the page (measured: ~13 ms at 2,000 entries,
 *   ~65 ms at 10,000, with every entry in the page): with only the entries
 *   near the view in it, the pass is short (the longest task of a 10,000-entry
 *   scroll, end to end, went from 340 ms to ~96: V8's collections now).
 * - A group coming near lays out GROUP entries (16: ~7 ms of layout and
 *   ~10 ms of Lit and Markdown; 8 doubled the groups and the frames' cost).
 *
 * What an entry element keeps only in itself (an expanded thought, a tool
 * card opened) is forgotten when its group leaves the page, as in VS Code's
 * own lists; the text and every link come back with it.
 */

/** Entries per group. */
export const GROUP = 16;
/** An empty far group's height before it was ever laid out: 80 px an entry (far groups are whole: GROUP entries). */
export const ESTIMATED_GROUP_PX = GROUP * 80;

export class FarGroups {
  /** Far groups holding their entries (by their first entry's index): those near the viewport. */
  private readonly near = new Set<number>();
  /** Far groups' heights as last laid out with their entries (by their first entry's index), for when they are empty. */
  private readonly heights = new Map<number, number>();
  /** How many entries were far at the last update. */
  private farBefore = 0;

  /** `changed`: a group came near or went off screen, so the list renders again. */
  constructor(private readonly changed: () => void) {}

  /**
   * The list now has `count` entries (`before` at the last update): how many of
   * the oldest are far. Groups that turn far keep their entries until the
   * browser says they are off screen (they are where the view is); a list
   * that arrives whole holds none until the browser says which are near.
   */
  update(before: number, count: number): number {
    const far = farCount(count);
    if (count === 0) {
      this.near.clear();
      this.heights.clear();
    } else if (before > 0) {
      for (let at = this.farBefore; at < far; at += GROUP) this.near.add(at);
    }
    this.farBefore = far;
    return far;
  }

  /** Whether the group starting at entry `at` holds its entries (`far`: how many of the list's oldest are far). */
  holds(at: number, far: number): boolean {
    return at >= far || this.near.has(at);
  }

  /** Which far groups from `start` to `end` hold their entries, as a string to guard a render on. */
  marks(start: number, end: number): string {
    let marks = '';
    for (let at = start; at < end; at += GROUP) marks += this.near.has(at) ? '1' : '0';
    return marks;
  }

  /**
   * A `ref` callback that sets an empty group's height (its entries' as last
   * laid out, or an estimate), through CSSOM: the CSP refuses style attributes
   * in markup, and a style on the one element touches only it (a rule per
   * group in a sheet made every group's style be matched again at each change).
   */
  sized(at: number, held: boolean) {
    const height = held ? '' : `${this.heights.get(at) ?? ESTIMATED_GROUP_PX}px`;
    return (element?: Element) => {
      if (element instanceof HTMLElement && element.style.height !== height) element.style.height = height;
    };
  }

  /** A far group's `contentvisibilityautostatechange`: near, it takes its entries; off screen, it lets them go and keeps its height. */
  readonly onState = (event: Event): void => {
    const group = event.currentTarget as HTMLElement;
    const at = Number(group.dataset['at']);
    const { skipped } = event as ContentVisibilityAutoStateChangeEvent;
    if (skipped !== this.near.has(at)) return;
    if (skipped) {
      // Its size as last laid out (a skipped element keeps it: no layout to force).
      this.heights.set(at, group.getBoundingClientRect().height);
      this.near.delete(at);
    } else {
      this.near.add(at);
    }
    this.changed();
  };
}

/** The newest entries, never far: enough to fill the view, so that the newest end is always laid out exactly. */
const EAGER_ENTRIES = 20;

/** How many of the oldest of `count` entries are far: whole groups, aligned to the list's start (as its runs are). */
function farCount(count: number): number {
  return Math.max(0, Math.floor((count - EAGER_ENTRIES) / GROUP) * GROUP);
}
