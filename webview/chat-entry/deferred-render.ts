/**
 * Old answers rendered after the first paint. A reloaded view gets its whole
 * transcript at once (thousands of entries); lexing and rendering every old
 * answer's Markdown before showing anything took most of a second. So the
 * list marks entries far from the newest end as deferred: such an entry
 * shows its text plain until it comes near the viewport (see ChatEntry) or
 * the page is idle. Idle time renders them all, newest first, a few at a
 * time, so after a moment every entry is whole again: its links, code blocks
 * and tables are in the tab order and the accessibility tree as before.
 *
 * Up to a budget. Rendered Markdown costs the page tens of times its text
 * in memory (DOM nodes, their layout, Lit's parts: 4 MiB of the bench's
 * Markdown rendered took ~270 MiB while code blocks were Lit templates,
 * ~70 MiB since, see highlight.ts). So off-screen answers keep their Markdown only while all of
 * them together are at most RENDERED_BUDGET_CHARS: past it, the ones longest
 * off screen go back to plain text (rendered again when they come near the
 * viewport), and idle time renders no more than fits. A long chat then costs
 * its text plus the budget, however long it gets, and its oldest answers'
 * links are reached by scrolling to them, as in VS Code's own lists.
 */

/** Characters of off-screen answers that may stay rendered as Markdown. */
export const RENDERED_BUDGET_CHARS = 2 * 1024 * 1024;

/** An entry whose Markdown waits; `renderDeferred` renders it and resolves when it is rendered. */
export interface DeferredEntry {
  readonly isConnected: boolean;
  /** Characters its Markdown renders. */
  readonly markdownChars: number;
  renderDeferred(): Promise<unknown>;
  /** Shows its text plain again, dropping the Markdown's DOM. */
  unrender(): void;
}

/** Off-screen entries showing Markdown, with the characters they were counted for, in the order they went off screen. */
const offScreen = new Map<DeferredEntry, number>();
let offScreenChars = 0;

/** `entry` (showing Markdown) went off screen: it counts against the budget; the longest off screen go plain past it. */
export function wentOffScreen(entry: DeferredEntry): void {
  if (offScreen.has(entry)) return;
  offScreen.set(entry, entry.markdownChars);
  offScreenChars += entry.markdownChars;
  for (const oldest of offScreen.keys()) {
    if (offScreenChars <= RENDERED_BUDGET_CHARS) break;
    cameBack(oldest);
    oldest.unrender();
  }
}

/** `entry` is near the viewport again, or gone, or plain: it no longer counts. */
export function cameBack(entry: DeferredEntry): void {
  const counted = offScreen.get(entry);
  if (counted === undefined) return;
  offScreen.delete(entry);
  offScreenChars -= counted;
}

const waiting: DeferredEntry[] = [];
let scheduled = false;

/** Queues `entry` for idle time. Entries are queued oldest first (document order) and rendered newest first. */
export function renderWhenIdle(entry: DeferredEntry): void {
  waiting.push(entry);
  if (!scheduled) {
    scheduled = true;
    requestIdleCallback(renderSome);
  }
}

async function renderSome(deadline: IdleDeadline): Promise<void> {
  try {
    while (waiting.length > 0 && deadline.timeRemaining() > 0) {
      const entry = waiting.pop()!;
      if (!entry.isConnected) continue;
      // Full: the rest stay plain until scrolled to.
      if (offScreenChars + entry.markdownChars > RENDERED_BUDGET_CHARS) {
        waiting.length = 0;
        break;
      }
      // Awaited so that its Markdown (rendered in the microtasks after it) counts against this idle period.
      await entry.renderDeferred();
      // Rendered off screen: it counts at once (its content-visibility state does not change).
      wentOffScreen(entry);
    }
  } finally {
    scheduled = waiting.length > 0;
    if (scheduled) requestIdleCallback(renderSome);
  }
}
