/**
 * Old answers rendered after the first paint. A reloaded view gets its whole
 * transcript at once (thousands of entries); lexing and rendering every old
 * answer's Markdown before showing anything took most of a second. So the
 * list marks entries far from the newest end as deferred: such an entry
 * shows its text plain until it comes near the viewport (see ChatEntry) or
 * the page is idle. Idle time renders them all, newest first, a few at a
 * time, so after a moment every entry is whole again: its links, code blocks
 * and tables are in the tab order and the accessibility tree as before.
 */

/** An entry whose Markdown waits; `renderDeferred` renders it and resolves when it is rendered. */
export interface DeferredEntry {
  readonly isConnected: boolean;
  renderDeferred(): Promise<unknown>;
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
      // Awaited so that its Markdown (rendered in the microtasks after it) counts against this idle period.
      if (entry.isConnected) await entry.renderDeferred();
    }
  } finally {
    scheduled = waiting.length > 0;
    if (scheduled) requestIdleCallback(renderSome);
  }
}
