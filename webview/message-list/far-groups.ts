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
 * - Far from the view, a run of groups (the list's runs of 64 entries) none
 *   of which holds entries is one empty box, watched by one observer of ours
 *   with a margin of SOON_VIEWS views: with 625 far groups in a 10,000-entry
 *   chat, Blink's computing which were near was a quarter of the main thread
 *   while it scrolled (a minute of PageUp held: 17.8 s of CPU, 4.5 s of it
 *   that; 10.4 s and 0.7 s as runs).
 *
 * What an entry element keeps only in itself (an expanded thought, a tool
 * card opened) is forgotten when its group leaves the page, as in VS Code's
 * own lists; the text and every link come back with it.
 */

import type { Entry } from '../../src/shared/thread/thread';

/** Entries per group. */
export const GROUP = 16;
/** An empty far group's height before it was ever laid out: 80 px an entry (far groups are whole: GROUP entries). */
export const ESTIMATED_GROUP_PX = GROUP * 80;

/**
 * How far from the view (in views' heights, above and below) a run of far
 * groups is made of its groups; farther, with none of them near, it is one
 * empty box of their heights (see `collapsed`).
 */
const SOON_VIEWS = 3;

export class FarGroups {
  /** Far groups holding their entries (by their first entry's index): those near the viewport. */
  private readonly near = new Set<number>();
  /** Runs within SOON_VIEWS of the view (by their first entry's index), as the runs' observer last said. */
  private readonly soon = new Set<number>();
  /** Each run's element (by its first entry's index), observed while it is in the page. */
  private readonly runElements = new Map<number, HTMLElement>();
  private observer: IntersectionObserver | undefined;
  /** Far groups' heights as last laid out with their entries (by their first entry's index), for when they are empty. */
  private readonly heights = new Map<number, number>();
  /** How many entries were far at the last update. */
  private farBefore = 0;

  /** `changed`: a group came near or went off screen, so the list renders again. */
  constructor(private readonly changed: () => void) {}

  /**
   * The list is now `entries` (`before` long at the last update): how many of
   * the oldest are far (`view`: see eagerCount). Groups that turn far
   * keep their entries until the browser says they are off screen (they are
   * where the view is); a list that arrives whole holds none until the
   * browser says which are near.
   */
  update(
    before: number,
    entries: readonly (Entry | undefined)[],
    view: { readonly width: number; readonly height: number },
  ): number {
    const count = entries.length;
    const far = Math.max(0, Math.floor((count - eagerCount(entries, view)) / GROUP) * GROUP);
    if (count === 0) {
      this.near.clear();
      this.heights.clear();
    }
    // Runs the list no longer has (a new chat, turns taken back) are not watched. Only a list that got shorter
    // has lost runs: a streamed chunk (every update while an answer streams) does not walk them.
    for (const [start, element] of count < before ? this.runElements : []) {
      if (start < count) continue;
      this.observer?.unobserve(element);
      this.runElements.delete(start);
      this.soon.delete(start);
    }
    if (count > 0 && before > 0) {
      for (let at = this.farBefore; at < far; at += GROUP) this.near.add(at);
    }
    this.farBefore = far;
    return far;
  }

  /** Watches which runs are within SOON_VIEWS of `scroller`'s view (again for each new scroller). */
  watch(scroller: Element): void {
    this.observer?.disconnect();
    this.soon.clear();
    this.observer = new IntersectionObserver(this.onRuns, { root: scroller, rootMargin: `${SOON_VIEWS * 100}% 0px` });
    for (const element of this.runElements.values()) this.observer.observe(element);
  }

  unwatch(): void {
    this.observer?.disconnect();
    this.observer = undefined;
  }

  /**
   * Whether the run of entries `start` to `end` is one empty box: all of its
   * groups far (`far`: how many of the list's oldest are), none of them near,
   * and the run not within SOON_VIEWS of the view. Blink computes every frame
   * that scrolls whether each content-visibility: auto element is near the
   * view: with a far group each, that was a quarter of the main thread while
   * a 10,000-entry chat scrolled (625 groups); an empty run is watched by one
   * observer of ours, a run's four groups only a few screens from the view.
   */
  collapsed(start: number, end: number, far: number): boolean {
    if (end > far || this.soon.has(start)) return false;
    for (let at = start; at < end; at += GROUP) if (this.near.has(at)) return false;
    return true;
  }

  /** A `ref` callback for the element of the run `start` to `end`: watched, and when `collapsed`, as high as its groups. */
  run(start: number, end: number, collapsed: boolean) {
    let px = 0;
    for (let at = start; collapsed && at < end; at += GROUP) px += this.heights.get(at) ?? ESTIMATED_GROUP_PX;
    const height = collapsed ? `${px}px` : '';
    return (element?: Element) => {
      if (!(element instanceof HTMLElement)) return;
      if (element.style.height !== height) element.style.height = height;
      const before = this.runElements.get(start);
      if (before === element) return;
      if (before) this.observer?.unobserve(before);
      this.runElements.set(start, element);
      this.observer?.observe(element);
    };
  }

  private readonly onRuns = (entries: IntersectionObserverEntry[]): void => {
    let changed = false;
    for (const entry of entries) {
      const start = Number((entry.target as HTMLElement).dataset['run']);
      if (entry.isIntersecting === this.soon.has(start)) continue;
      if (entry.isIntersecting) this.soon.add(start);
      else this.soon.delete(start);
      changed = true;
    }
    if (changed) this.changed();
  };

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

/** The newest entries never far, at most (a chat of empty entries would otherwise make them all). */
const EAGER_MAX = 64;
/** Low estimates, for eagerCount: an entry's first row (or all of a folded one), a line of text, a character's width. */
const ROW_PX = 28;
const LINE_PX = 19.5;
const CHAR_PX = 8;

/**
 * How many of the newest entries are never far (far groups are whole groups
 * aligned to the list's start, so up to GROUP - 1 more are not far either):
 * enough to fill `view` (the window's size, and how far back the view is to
 * go), so that the newest end is always laid out exactly, and not many more,
 * as each costs its Markdown and layout when a long chat is shown (showing
 * another 10,000-entry chat took 55 ms with the newest 20 to 35 entries made,
 * where a few answers fill the view). Their heights are estimated low (the
 * window is wider than the text, and tool calls and thoughts are folded), and
 * must add up to a quarter more than the view's.
 */
export function eagerCount(
  entries: readonly (Entry | undefined)[],
  view: { readonly width: number; readonly height: number },
): number {
  const lineChars = Math.max(1, Math.floor(view.width / CHAR_PX));
  let px = 0;
  for (let n = 1; n <= Math.min(EAGER_MAX, entries.length); n++) {
    const entry = entries[entries.length - n];
    px += ROW_PX;
    if (entry?.kind === 'user' || entry?.kind === 'assistant') px += Math.ceil(entry.text.length / lineChars) * LINE_PX;
    if (px >= view.height * 1.25) return n;
  }
  return EAGER_MAX;
}
