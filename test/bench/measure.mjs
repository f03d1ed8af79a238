/**
 * The measurements: each opens a fresh page with the webview, drives it with
 * host messages through window.postMessage (so the webview's own listener and
 * schema parse run, as in VS Code) and reads main-thread time from the Chrome
 * DevTools Protocol (Performance.getMetrics, and a trace for CPU time).
 */
import { installProbe, runStream, runSwitch, runTranscript, waitForApp } from './probe.mjs';
import { idleWithin, traceMainThread } from './trace.mjs';

/** Rejects when `promise` takes longer than `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The page's size unless told: a narrow side bar. */
const SIDE_BAR = { width: 400, height: 900 };

/**
 * A narrow page (a side bar, or `viewport`) with the webview loaded and the
 * probe installed, and `init` (more init scripts) run before the webview's bundle.
 */
export async function openChat(browser, url, problems, { viewport = SIDE_BAR, init = [] } = {}) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.add(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.add(`console ${m.type()}: ${m.text()}`);
    });
    await page.addInitScript(installProbe);
    for (const script of init) await page.addInitScript(script);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { timeout: 30_000 });
    await withTimeout(page.evaluate(waitForApp), 35_000, 'webview start');
    return { page, cdp, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}

const METRICS = {
  TaskDuration: 'taskMs',
  ScriptDuration: 'scriptMs',
  LayoutDuration: 'layoutMs',
  RecalcStyleDuration: 'styleMs',
};

async function metrics(cdp) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const out = {};
  for (const { name, value } of list) {
    if (METRICS[name]) out[METRICS[name]] = value * 1000;
    if (name === 'LayoutCount') out.layouts = value;
  }
  return out;
}

function delta(after, before) {
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
}

/**
 * Opens a fresh page, hands it `data` (before measuring: shipping megabytes
 * through the DevTools protocol is not the webview's work), runs `body(chat)`
 * and returns its result plus the main-thread time it took: `main.cpuMs` from
 * a trace, the rest from Performance.getMetrics. `body`'s result may be a
 * function of the main thread's busy intervals (see trace.mjs).
 */
async function timed(browser, url, problems, data, body, viewport) {
  const chat = await openChat(browser, url, problems, { viewport });
  let trace;
  try {
    await chat.page.evaluate((d) => {
      window.__benchData = d;
    }, data);
    trace = await traceMainThread(browser, chat.page);
    const before = await metrics(chat.cdp);
    const result = await body(chat);
    const main = delta(await metrics(chat.cdp), before);
    const { cpuMs, busy } = await trace.stop();
    return { ...(typeof result === 'function' ? result(busy) : result), main: { ...main, cpuMs } };
  } finally {
    await trace?.abandon();
    await chat.close();
  }
}

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * One streamed reply in real time (failing when it is not painted `slackMs`
 * after the last message was due). Per chunk: apply-to-paint latency (the
 * message carrying it arrived in the webview -> first frame painted after the
 * DOM changed); the same without the frame wait (less the time the main
 * thread sat idle between the arrival and the next vsync: what is left is
 * the page's own work, any other work of the page it queued behind, and any
 * frame the page made late); and chunk-to-paint (the agent sent it -> that
 * frame: adds the host's batching and any queueing while the page was busy).
 */
export async function measureStream(browser, url, problems, stream, slackMs) {
  const timeoutMs = stream.messages.at(-1).at + slackMs;
  const data = {
    times: stream.messages.map((m) => m.at),
    messages: stream.messages.map((m) => m.message),
    waits: stream.messages.map((m) => m.chunkTimes.length > 0),
    timeoutMs,
  };
  return timed(browser, url, problems, data, async ({ page }) => {
    const wallStart = Date.now();
    const stamps = await withTimeout(page.evaluate(runStream), timeoutMs + 10_000, 'stream');
    const wallMs = Date.now() - wallStart;
    return (busy) => streamFigures(stream, { ...stamps, busy, wallMs });
  });
}

/** The figures of one stream from the probe's stamps and the main thread's busy intervals. */
function streamFigures(stream, { start, arrival, painted, began, frameTimes, vsyncs, busy, wallMs }) {
  if (!busy) throw new Error('bench: the trace has no clock mark, so the frame wait cannot be taken out');
  const nextVsync = vsyncAfter(vsyncs);
  const apply = [],
    working = [],
    endToEnd = [];
  stream.messages.forEach((m, i) => {
    // The frame wait: the main thread idle from the arrival until the next vsync
    // (or its frame began, if sooner). Idle time after that vsync is not the
    // display's: a frame that did not start then was held up by the page.
    const wait = Number.isFinite(painted[i])
      ? idleWithin(busy, arrival[i], Math.min(began[i], nextVsync(arrival[i])))
      : NaN;
    for (const t of m.chunkTimes) {
      apply.push(painted[i] - arrival[i]);
      working.push(painted[i] - arrival[i] - wait);
      endToEnd.push(painted[i] - (start + t));
    }
  });
  for (const list of [apply, working, endToEnd]) list.sort((a, b) => a - b);
  // Per message, first and last tenth: growth means per-message cost grows with the text.
  const perMessage = stream.messages
    .map((m, i) => painted[i] - arrival[i])
    .filter((_, i) => stream.messages[i].chunkTimes.length > 0);
  const tenth = Math.max(1, Math.floor(perMessage.length / 10));
  const median = (xs) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const spread = (sorted) => ({ p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) });
  return {
    wallMs,
    messages: stream.messages.length,
    latency: spread(apply),
    working: spread(working),
    frames: paintFrames(painted, frameTimes),
    endToEnd: { p50: percentile(endToEnd, 50), p95: percentile(endToEnd, 95) },
    firstTenthP50: median(perMessage.slice(0, tenth)),
    lastTenthP50: median(perMessage.slice(-tenth)),
  };
}

/** One vsync interval at 60 Hz. */
const FRAME_MS = 1000 / 60;

/**
 * A function giving the first vsync at or after a time, from the frame times
 * (rAF timestamps: vsync ticks) the probe saw: the ticks continue on a 60 Hz
 * grid from the latest one seen before that time.
 */
function vsyncAfter(vsyncs) {
  const ticks = [...new Set(vsyncs)].sort((a, b) => a - b);
  return (t) => {
    let lo = 0,
      hi = ticks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ticks[mid] <= t) lo = mid + 1;
      else hi = mid;
    }
    const before = ticks[lo - 1];
    if (before === undefined) return ticks[0] ?? t;
    return before + Math.ceil((t - before) / FRAME_MS) * FRAME_MS;
  };
}

/**
 * The frames that painted a message: how long after its frame time (vsync)
 * each was done; `late` counts those done more than one interval after it,
 * which made the next frame start late (a missed frame).
 */
function paintFrames(painted, frameTimes) {
  const byFrame = new Map();
  painted.forEach((t, i) => {
    if (Number.isFinite(t)) byFrame.set(t, t - frameTimes[i]);
  });
  const lengths = [...byFrame.values()].sort((a, b) => a - b);
  return {
    count: lengths.length,
    late: lengths.filter((d) => d > FRAME_MS).length,
    p50: percentile(lengths, 50),
    p95: percentile(lengths, 95),
  };
}

/** The 2,000-entry transcript as one message: arrival to the first frame that shows its newest entry. */
export async function measureTranscript(browser, url, problems, transcript, marker, timeoutMs, viewport) {
  const data = { status: transcript.status, entries: transcript.entries, marker, timeoutMs };
  return timed(
    browser,
    url,
    problems,
    data,
    ({ page }) => withTimeout(page.evaluate(runTranscript), timeoutMs + 10_000, 'transcript'),
    viewport,
  );
}

/** Switching back to a chat whose list the page kept (two 2,000-entry chats): arrival to the first frame that shows it. */
export async function measureSwitch(browser, url, problems, transcript, marker, timeoutMs) {
  const data = { status: transcript.status, entries: transcript.entries, marker, timeoutMs };
  return timed(browser, url, problems, data, ({ page }) =>
    withTimeout(page.evaluate(runSwitch), timeoutMs + 10_000, 'switch'),
  );
}
