/**
 * <acp-message-list>: the transcript. Kept on the newest entry by the
 * browser's scroll anchoring (see end-pin.ts), never by reading layout per
 * chunk. How far the user scrolled back is saved with the view and restored
 * when it is shown again (for that chat only); scrolled back, a button goes to
 * the newest entry, and so does sending a prompt. Entries older than the
 * newest few are in the page only while near the view (far-groups.ts), an
 * update touches only the runs of entries that changed (RUN_LENGTH), and a
 * long transcript that arrives at once is shown newest first (BACKFILL_RUNS).
 */
import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { ref } from 'lit/directives/ref.js';
import { repeat } from 'lit/directives/repeat.js';
import type { Entry } from '../../src/shared/thread/thread';
import { loadUiState, saveUiState } from '../host';
import { codicon, codiconStyles } from '../shared/codicons';
import { toHost } from '../shared/to-host';
import '../chat-entry/chat-entry';
import { EndPin, type Placement } from './end-pin';
import { ESTIMATED_GROUP_PX, FarGroups, GROUP } from './far-groups';

/** Scroll positions are read at most this often, never per scroll event or chunk. */
const SCROLL_SAMPLE_MS = 250;
/**
 * Entries are rendered in runs of this many, each behind a `guard` on its
 * entries: a streamed chunk re-renders the newest run, not all of a long
 * transcript's entries (the reducer replaces and appends entries, so an
 * entry keeps its index and its run).
 */
const RUN_LENGTH = 64;
/**
 * A transcript that arrives whole (a chat opened from history, the view shown
 * again) first shows only its newest run or two (at least RUN_LENGTH
 * entries: more than a view holds), and the older runs this many at a time,
 * one step per frame after it is painted: its first paint costs what is in
 * view, not the elements of every entry (measured on 2,000 entries: the
 * message handler went from 162 ms to 57 ms, the first paint from 235 to 79). The view is at the newest end,
 * which the end pin keeps in place while entries appear above it. Not when
 * the view must come back to a distance from the end: that needs them all.
 */
const BACKFILL_RUNS = 4;

export class MessageList extends LitElement {
  static override properties = {
    entries: { attribute: false },
    running: { type: Boolean },
    kept: { attribute: false },
    checkpoints: { attribute: false },
    hint: { attribute: false },
    chatId: { attribute: false },
    atEnd: { state: true },
  };
  /** The chat this is the list of: a saved scroll position is restored only into its own chat's list. */
  declare chatId: string;
  /** Whether the view is at the newest end (else the button that goes there is shown). */
  declare atEnd: boolean;
  declare entries: readonly Entry[];
  /** The prompt entries that offer "Restore files to here". */
  declare checkpoints: readonly string[];
  private restorable: ReadonlySet<string> = new Set();
  /** The newest prompt's id (Retry is offered there). */
  private lastPrompt: string | undefined;
  declare running: boolean;
  /** What an empty chat says: the next thing to do (the app knows the connection). */
  declare hint: string;
  /** A chat's list the page keeps while another one is shown: hidden, and its backfill waits. */
  declare kept: boolean;
  /** The saved distance from the newest end, applied once the restored entries are laid out (read with the first entries). */
  private restore: number | undefined;
  private restoreRead = false;
  private scrollSample: ReturnType<typeof setTimeout> | undefined;
  private readonly endPin = new EndPin((atEnd) => {
    this.atEnd = atEnd;
    // A kept list (another chat's, hidden) is not where the user is.
    if (this.kept) return;
    if (atEnd) saveUiState({ scrollFromEnd: 0, scrollChat: this.chatId });
    else this.sampleScroll();
  });
  /** How many of the oldest runs are not rendered yet (see BACKFILL_RUNS), and how to cancel the step that renders the next ones. */
  private unshownRuns = 0;
  /** Which older entries are in the page. */
  private readonly groups = new FarGroups(() => this.requestUpdate());
  /** How many of the oldest entries are far (see far-groups.ts). */
  private far = 0;
  private cancelBackfill: (() => void) | undefined;

  static override styles = [
    codiconStyles,
    css`
    :host { display: flex; flex-direction: column; }
    .scroller { flex: 1 1 auto; min-height: 0; overflow-y: auto; display: flex; flex-direction: column; padding: 0 8px; }
    /*
     * A short transcript sits at the bottom, as in any chat. With the entries'
     * 2px margins and 2px padding (see .group), this padding and the 1px pin:
     * 8px from the ends, as between entries.
     */
    .content { margin-top: auto; padding: 4px 0 3px; }
    /* At the newest end the pin is the only scroll anchor (see end-pin.ts). */
    .pinned > .content { overflow-anchor: none; }
    /* A new scroller starts at the pin, laid out at the newest end (end-pin.ts also does it, for browsers without this). */
    .pin { flex: none; height: 1px; scroll-initial-target: nearest; }
    /*
     * Older entries are in groups that are skipped by style, layout and paint
     * while off screen and then hold no entries (far-groups.ts), so a frame
     * (of a streaming reply, say) costs what is near the viewport, not the
     * whole transcript. A skipped group keeps the size it was last laid out
     * with ('auto') until it is emptied and given that height; the estimate
     * is for groups not yet seen (above the view: scroll anchoring keeps what
     * is in view in place when they get their real size). The newest entries
     * are exempt: they are always laid out, so that restoring how far back
     * the user was (a distance from the end) is exact there, and the entry
     * being streamed into is never skipped. A class, not :nth-last-child: a
     * structural selector would restyle every group when one is added.
     *
     * A group is a flex column, so that margins never collapse through it
     * (the gap between entries is the same in a group and across groups:
     * 2px + 2px of margin and the entries' 2px of padding each, 8px), and
     * its 2px of side padding, taken back by its margins, keep the entries'
     * focus outlines whole when its paint is clipped (content-visibility).
     */
    .group { display: flex; flex-direction: column; margin: 0 -2px; padding: 0 2px; }
    .group > acp-chat-entry { margin: 2px -2px; }
    .group.far { content-visibility: auto; contain-intrinsic-block-size: auto ${ESTIMATED_GROUP_PX}px; }
    .scroller:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .empty { margin: auto; text-align: center; color: var(--vscode-descriptionForeground); padding: 16px; }
    .empty p { margin: 0 0 8px; }
    .link { background: none; border: none; padding: 0; font: inherit; color: var(--vscode-textLink-foreground); cursor: pointer; }
    .link:hover { color: var(--vscode-textLink-activeForeground); text-decoration: underline; }
    .link:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
    .busy { color: var(--vscode-descriptionForeground); padding: 4px 0; font-style: italic; }
    .to-end {
      position: absolute; right: 14px; bottom: 8px; display: inline-flex; padding: 4px; border-radius: 50%; cursor: pointer;
      color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground);
      border: 1px solid var(--vscode-contrastBorder, transparent); box-shadow: 0 1px 4px var(--vscode-widget-shadow, rgba(0, 0, 0, 0.36));
    }
    .to-end:hover { background: var(--vscode-button-secondaryHoverBackground); }
    .to-end:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
  `,
  ];

  constructor() {
    super();
    this.entries = [];
    this.running = false;
    this.kept = false;
    this.hint = '';
    this.chatId = '';
    this.atEnd = true;
  }

  /** Shows the newest entry, and stays there as more comes. */
  goToEnd(): void {
    this.endPin.goToEnd();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page: watch the scroller again, leaving the view where it is, and go on showing older entries.
    if (this.hasUpdated) this.watchScroller(undefined);
    if (this.unshownRuns > 0 && !this.kept) this.scheduleBackfill();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.endPin.detach();
    this.groups.unwatch();
    clearTimeout(this.scrollSample);
    this.scrollSample = undefined;
    // Taken out of the page: the older entries wait until it is back.
    this.stopBackfill();
  }

  override render() {
    const count = this.entries.length;
    if (count === 0) {
      return html`<div class="empty"><p>${this.hint}</p>
        <button class="link" @click=${() => toHost(this, { type: 'openWalkthrough' })}>Get started with ACP agents</button></div>`;
    }
    const far = this.far;
    this.restorable = new Set(this.checkpoints ?? []);
    this.lastPrompt = lastPromptId(this.entries);
    const runs = [];
    // A run not shown yet is an empty slot, so that each run keeps its place in the array (Lit matches them by index).
    for (let start = 0, run = 0; start < count; start += RUN_LENGTH, run++) {
      runs.push(run < this.unshownRuns ? nothing : this.renderRun(start, Math.min(count, start + RUN_LENGTH), far));
    }
    // aria-live off: a screen reader would otherwise read every streamed chunk;
    // the app announces when the turn ends instead.
    return html`<div class="scroller" tabindex="0" role="log" aria-live="off" aria-label="Conversation" @scroll=${this.onScroll}>
      <div class="content">${runs}${this.running ? html`<div class="busy" aria-hidden="true">Working…</div>` : nothing}</div>
      <div class="pin" aria-hidden="true"></div>
    </div>${
      this.atEnd
        ? nothing
        : html`<button class="to-end" aria-label="Go to the newest message" title="Go to the newest message" @click=${() => this.goToEnd()}>${codicon('arrow-down')}</button>`
    }`;
  }

  /** Entries `start` to `end` (the first `allFar` of the list are far): re-rendered only when one of them, or how many of them are far, changed. */
  private renderRun(start: number, end: number, allFar: number): unknown {
    const entries = this.entries.slice(start, end);
    const far = Math.min(Math.max(allFar - start, 0), end - start);
    const restorable = this.restorable;
    const editable = !this.running;
    const last = this.lastPrompt;
    // Which of the run's entries offer a restore, and which is the newest prompt: the run re-renders when that changes too.
    const marks = entries.map((e) => (restorable.has(e.id) ? '1' : '0') + (e.id === last ? 'L' : '')).join('');
    const entry = (e: Entry) => html`<acp-chat-entry
      .entry=${e} ?restorable=${restorable.has(e.id)} ?editable=${editable} ?last=${e.id === last}></acp-chat-entry>`;
    const groups = this.groups;
    const collapsed = groups.collapsed(start, end, allFar);
    return guard([far, marks, groups.marks(start, start + far), collapsed, editable, ...entries], () => {
      const made = [];
      for (let g = 0; !collapsed && g < entries.length; g += GROUP) {
        const at = start + g;
        const group = entries.slice(g, g + GROUP);
        // A group with an entry the host has not sent yet (a long chat comes newest first) waits empty.
        const held = groups.holds(at, start + far) && complete(group);
        made.push(
          html`<div class=${g < far ? 'group far' : 'group'} data-at=${at} ${ref(groups.sized(at, held))}
            @contentvisibilityautostatechange=${groups.onState}>${held ? repeat(group, (e) => e.id, entry) : nothing}</div>`,
        );
      }
      return html`<div class="run" data-run=${start} ${ref(groups.run(start, end, collapsed))}>${made}</div>`;
    });
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Shown again: the older entries go on appearing.
    if (changed.has('kept') && !this.kept && this.unshownRuns > 0 && !this.cancelBackfill) this.scheduleBackfill();
    if (!changed.has('entries')) return;
    const before = (changed.get('entries') as readonly Entry[] | undefined)?.length ?? 0;
    const count = this.entries.length;
    // The window's size (no layout read); a list that arrives whole may go back to where the user was, that far up.
    const fromEnd = before === 0 ? (this.readRestore() ?? 0) : 0;
    this.far = this.groups.update(before, this.entries, { width: innerWidth, height: innerHeight + fromEnd });
    if (count === 0) {
      this.stopBackfill();
      this.unshownRuns = 0;
    } else if (before === 0 && !(fromEnd > 0)) {
      // Whole runs before the newest RUN_LENGTH entries wait (runs stay aligned to the list's start).
      this.unshownRuns = Math.floor(Math.max(0, count - RUN_LENGTH) / RUN_LENGTH);
      if (this.unshownRuns > 0) this.scheduleBackfill();
    }
  }

  /** Once the next frame is painted: BACKFILL_RUNS more of the older runs, and so on until all are shown. */
  private scheduleBackfill(): void {
    this.stopBackfill();
    let step: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      step = setTimeout(() => {
        this.cancelBackfill = undefined;
        if (this.kept) return; // goes on when shown again
        this.unshownRuns = Math.max(0, this.unshownRuns - BACKFILL_RUNS);
        this.requestUpdate();
        if (this.unshownRuns > 0) this.scheduleBackfill();
      });
    });
    this.cancelBackfill = () => {
      cancelAnimationFrame(frame);
      clearTimeout(step);
    };
  }

  private stopBackfill(): void {
    this.cancelBackfill?.();
    this.cancelBackfill = undefined;
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('entries')) return;
    const before = (changed.get('entries') as readonly Entry[] | undefined)?.length ?? 0;
    if (before === 0 && this.entries.length > 0) {
      // A new scroller: at the newest end, or where the user was in this chat before the view was hidden.
      this.watchScroller({ fromEnd: this.readRestore() ?? 0 });
      this.restore = undefined;
    } else if (this.entries.length === 0 && before > 0) {
      // A new chat starts at its newest end.
      this.endPin.detach();
      saveUiState({ scrollFromEnd: 0, scrollChat: this.chatId });
    }
  }

  /** The saved distance from the end, if it is this chat's: read once, with the first entries. */
  private readRestore(): number | undefined {
    if (!this.restoreRead) {
      this.restoreRead = true;
      const saved = loadUiState();
      this.restore = saved.scrollChat === this.chatId ? saved.scrollFromEnd : undefined;
    }
    return this.restore;
  }

  private watchScroller(placement: Placement | undefined): void {
    const scroller = this.renderRoot.querySelector<HTMLElement>('.scroller');
    const pin = this.renderRoot.querySelector('.pin');
    if (scroller && pin) this.endPin.attach(scroller, pin, placement);
    if (scroller) this.groups.watch(scroller);
  }

  private onScroll(): void {
    // At the newest end the distance is 0, saved when the view got there: nothing to read.
    if (!this.endPin.pinned) this.sampleScroll();
  }

  private sampleScroll(): void {
    this.scrollSample ??= setTimeout(() => {
      this.scrollSample = undefined;
      saveUiState({ scrollFromEnd: this.endPin.pinned ? 0 : this.endPin.distanceFromEnd(), scrollChat: this.chatId });
    }, SCROLL_SAMPLE_MS);
  }
}

customElements.define('acp-message-list', MessageList);

declare global {
  interface HTMLElementTagNameMap {
    'acp-message-list': MessageList;
  }
}

/** The id of the newest prompt sent as a turn of its own (not one steered into a turn). */
function lastPromptId(entries: readonly Entry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.kind === 'user' && e.steered !== true) return e.id;
  }
  return undefined;
}

/** Whether every entry of `group` has come (the list has holes while a long chat arrives newest first). */
function complete(group: readonly Entry[]): boolean {
  for (let i = 0; i < group.length; i++) if (group[i] === undefined) return false;
  return true;
}
