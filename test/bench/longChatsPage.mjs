/**
 * The page's side of issue 45's figures (long chats that stay light), in
 * headless Chromium at the side bar's width (292 px, 800 high), fed what the
 * host posts (the real reducer and diffEntries, see longChats.ts):
 *
 * - idle: a 2,000-entry chat shown, then nothing: the main thread's CPU over
 *   10 s once the page has settled, and what its timers ran meanwhile;
 * - scroll: a 10,000-entry chat scrolled from its newest end to its top by
 *   PageUp held down (key repeat), every frame stamped and the main thread traced;
 * - switch: another 10,000-entry chat shown, one the page does not keep.
 */
import * as os from 'node:os';
import { openChat, withTimeout } from './measure.mjs';
import { traceMainThread } from './trace.mjs';
import {
  activity,
  atTop,
  installTimerCounts,
  runSwitchAway,
  scrollFrames,
  showTranscript,
  shownEntryCount,
  startScroll,
  stopScroll,
} from './longChatsProbe.mjs';

/** Where the chat first meets a user: the Secondary Side Bar of a 1440x900 window (HARNESS.md). */
export const SIDE_BAR = { width: 292, height: 800 };
const IDLE_MS = 10_000;
/** Settled: no timer ran and the DOM did not change for this long. */
const QUIET_MS = 2_000;
const SETTLE_TIMEOUT_MS = 60_000;
const SHOW_TIMEOUT_MS = 180_000;
/** A held key repeats about 30 times a second (Windows' default; X11's is 25). */
const KEY_REPEAT_MS = 33;
/** Repeats sent and not yet taken by the page, at most. */
const MAX_IN_FLIGHT = 4;
/**
 * The scroll stops after this long if the top is not reached by then (a
 * 10,000-entry chat is ~5.8 million px high at this width: ~9,800 pages, 5.5
 * minutes at 30 a second): the figures are then of the part scrolled.
 */
export const SCROLL_MINUTES = 5;
const FRAME_MS = 1000 / 60;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until nothing ran for QUIET_MS (looked at from outside: a look of ours is no page timer); how long that took. */
async function settle(page) {
  const start = Date.now();
  let before = await page.evaluate(activity);
  while (Date.now() - start < SETTLE_TIMEOUT_MS) {
    await sleep(QUIET_MS);
    const now = await page.evaluate(activity);
    const same = ['animationFrames', 'timeouts', 'intervals', 'idleCallbacks', 'mutations'].every(
      (k) => now[k] === before[k],
    );
    if (same) return { settleMs: Date.now() - start - QUIET_MS, settled: true };
    before = now;
  }
  return { settleMs: Date.now() - start, settled: false };
}

/** A fresh page at the side bar's width with `transcript` shown (and, with `all`, every entry element made), settled. */
async function shown(browser, url, problems, transcript, marker, all) {
  const chat = await openChat(browser, url, problems, { viewport: SIDE_BAR, init: [installTimerCounts] });
  try {
    await chat.page.evaluate(
      (d) => {
        window.__benchData = d;
      },
      { status: transcript.status, entries: transcript.entries, marker },
    );
    await withTimeout(chat.page.evaluate(showTranscript), SHOW_TIMEOUT_MS, 'long chat shown');
    const count = transcript.entries.length;
    const deadline = Date.now() + SHOW_TIMEOUT_MS;
    while (all && (await chat.page.evaluate(shownEntryCount)) < count) {
      if (Date.now() > deadline) throw new Error(`bench: not all ${count} entries were made in time`);
      await sleep(250);
    }
    return { ...chat, ...(await settle(chat.page)) };
  } catch (error) {
    await chat.close();
    throw error;
  }
}

/**
 * A 2,000-entry chat left alone: the renderer main thread's CPU (trace, as
 * the other figures) over IDLE_MS after the page settled, as a percentage of
 * one core; the timer callbacks and DOM changes in that time and the CSS
 * animations running at its end (a spinner, a rAF loop or a poll would show).
 */
export async function measureIdle(browser, url, problems, transcript, marker) {
  const chat = await shown(browser, url, problems, transcript, marker, true);
  let trace;
  try {
    const before = await chat.page.evaluate(activity);
    trace = await traceMainThread(browser, chat.page);
    await sleep(IDLE_MS);
    const { cpuMs, longest } = await trace.stop();
    const after = await chat.page.evaluate(activity);
    const ran = Object.fromEntries(Object.keys(before).map((k) => [k, after[k] - before[k]]));
    return {
      cpuPct: (cpuMs / IDLE_MS) * 100,
      cpuMs,
      longestTaskMs: longest.cpuMs,
      settleMs: chat.settleMs,
      settled: chat.settled,
      ...ran,
      runningAnimations: after.runningAnimations,
    };
  } finally {
    await trace?.abandon();
    await chat.close();
  }
}

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** PageUp as the keyboard sends it while held (a repeat: `autoRepeat`). */
const PAGE_UP = {
  key: 'PageUp',
  code: 'PageUp',
  windowsVirtualKeyCode: 33,
  nativeVirtualKeyCode: 33,
  autoRepeat: true,
};

/**
 * PageUp held from the newest end until the view is at the top, and a few
 * repeats more (or for `minutes` at most): a repeat every KEY_REPEAT_MS, not waiting for the
 * page to take the last one (a keyboard does not wait), but no more than
 * MAX_IN_FLIGHT waiting at once (past that, a repeat is dropped: the page
 * falls behind, which its late frames show). Returns the repeats sent and dropped.
 */
async function holdPageUp(page, minutes, log) {
  const cdp = await page.context().newCDPSession(page);
  const deadline = Date.now() + minutes * 60_000;
  let sent = 0,
    dropped = 0,
    inFlight = 0,
    failed;
  const press = () => {
    inFlight++;
    sent++;
    cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...PAGE_UP }).then(
      () => inFlight--,
      (error) => (failed ??= error),
    );
  };
  try {
    for (let more = 3, tick = 0; more > 0; tick++) {
      if (failed) throw failed;
      if (Date.now() > deadline) break;
      if (inFlight < MAX_IN_FLIGHT) press();
      else dropped++;
      await sleep(KEY_REPEAT_MS);
      // Looked at every tenth repeat: a look is a task in the page too.
      if (tick % 10 === 9 && (await page.evaluate(atTop))) more--;
      if (tick % 900 === 899) log(`long chats: ${sent} PageUp repeats so far; load ${os.loadavg()[0].toFixed(1)}`);
    }
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...PAGE_UP, autoRepeat: false });
  } finally {
    await cdp.detach().catch(() => undefined);
  }
  await sleep(1000); // the smooth scroll's last steps
  return { sent, dropped };
}

/**
 * A 10,000-entry chat, every entry made and the page settled, scrolled end
 * to end by PageUp (held: key repeat). Per frame, from its vsync (the rAF
 * time) to the end of its paint (probe.mjs): p50, p95, max, and how many
 * were over a vsync interval; the longest main-thread task (trace).
 */
export async function measureScroll(browser, url, problems, transcript, marker, { minutes = SCROLL_MINUTES, log }) {
  const chat = await shown(browser, url, problems, transcript, marker, true);
  let trace;
  try {
    trace = await traceMainThread(browser, chat.page);
    const start = await chat.page.evaluate(startScroll);
    const began = Date.now();
    const { sent: presses, dropped } = await holdPageUp(chat.page, minutes, log);
    const wallS = (Date.now() - began) / 1000;
    await chat.page.evaluate(stopScroll);
    const { cpuMs, longest } = await trace.stop();
    const end = await chat.page.evaluate(scrollFrames);
    const lengths = end.frames.map(([frameTime, painted]) => painted - frameTime).sort((a, b) => a - b);
    return {
      frames: lengths.length,
      p50: percentile(lengths, 50),
      p95: percentile(lengths, 95),
      max: lengths.at(-1),
      late: lengths.filter((d) => d > FRAME_MS).length,
      longestTaskCpuMs: longest.cpuMs,
      longestTaskWallMs: longest.wallMs,
      cpuMs,
      presses,
      dropped,
      wallS,
      heightBefore: start.scrollHeight,
      heightAfter: end.scrollHeight,
      scrollTop: end.scrollTop,
      /** Entries scrolled into view, from the newest (all of them when the top was reached). */
      scrolledEntries: end.topEntry < 0 ? NaN : transcript.entries.length - end.topEntry,
      atTop: end.scrollTop === 0,
      entries: transcript.entries.length,
      settleMs: chat.settleMs,
    };
  } finally {
    await trace?.abandon();
    await chat.close();
  }
}

/**
 * A 10,000-entry chat shown and settled, then another one the page does not
 * keep: its first post's arrival to first paint (`firstPost`: what the host
 * posts first, newestFirst.ts).
 */
export async function measureSwitchAway(browser, url, problems, transcript, firstPost, marker) {
  const first = {
    status: { ...transcript.status, status: { ...transcript.status.status, chatId: 'c1' } },
    entries: { ...transcript.entries, chatId: 'c1', keep: [] },
  };
  const chat = await shown(browser, url, problems, first, marker, true);
  try {
    await chat.page.evaluate(
      (d) => {
        window.__benchData = d;
      },
      { ...transcript, entries: firstPost, marker, timeoutMs: SHOW_TIMEOUT_MS },
    );
    return await withTimeout(chat.page.evaluate(runSwitchAway), SHOW_TIMEOUT_MS + 10_000, 'switch');
  } finally {
    await chat.close();
  }
}
