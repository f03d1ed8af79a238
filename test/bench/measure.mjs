/**
 * The measurements: each opens a fresh page with the webview, drives it with
 * host messages through window.postMessage (so the webview's own listener and
 * schema parse run, as in VS Code) and reads main-thread time from the Chrome
 * DevTools Protocol (Performance.getMetrics, and a trace for CPU time).
 */
import { installProbe, runStream, runTranscript, waitForApp } from './probe.mjs';
import { traceMainThread } from './trace.mjs';

/** Rejects when `promise` takes longer than `ms`. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A narrow page (a side bar) with the webview loaded and the probe installed. */
async function openChat(browser, url, problems) {
  const context = await browser.newContext({ viewport: { width: 400, height: 900 } });
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.add(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.add(`console ${m.type()}: ${m.text()}`); });
    await page.addInitScript(installProbe);
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

const METRICS = { TaskDuration: 'taskMs', ScriptDuration: 'scriptMs', LayoutDuration: 'layoutMs', RecalcStyleDuration: 'styleMs' };

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
 * a trace, the rest from Performance.getMetrics.
 */
async function timed(browser, url, problems, data, body) {
  const chat = await openChat(browser, url, problems);
  let trace;
  try {
    await chat.page.evaluate((d) => { window.__benchData = d; }, data);
    trace = await traceMainThread(browser, chat.page);
    const before = await metrics(chat.cdp);
    const result = await body(chat);
    const main = delta(await metrics(chat.cdp), before);
    return { ...result, main: { ...main, cpuMs: (await trace.stop()).cpuMs } };
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
 * DOM changed) and chunk-to-paint (the agent sent it -> that frame: adds the
 * host's 16 ms batching and any queueing while the page was busy).
 */
export async function measureStream(browser, url, problems, stream, slackMs) {
  const timeoutMs = stream.messages.at(-1).at + slackMs;
  const data = { times: stream.messages.map((m) => m.at), messages: stream.messages.map((m) => m.message), waits: stream.messages.map((m) => m.chunkTimes.length > 0), timeoutMs };
  return timed(browser, url, problems, data, async ({ page }) => {
    const wallStart = Date.now();
    const { start, arrival, painted } = await withTimeout(page.evaluate(runStream), timeoutMs + 10_000, 'stream');
    const apply = [], endToEnd = [];
    stream.messages.forEach((m, i) => {
      for (const t of m.chunkTimes) {
        apply.push(painted[i] - arrival[i]);
        endToEnd.push(painted[i] - (start + t));
      }
    });
    apply.sort((a, b) => a - b);
    endToEnd.sort((a, b) => a - b);
    // Per message, first and last tenth: growth means per-message cost grows with the text.
    const perMessage = stream.messages.map((m, i) => painted[i] - arrival[i]).filter((_, i) => stream.messages[i].chunkTimes.length > 0);
    const tenth = Math.max(1, Math.floor(perMessage.length / 10));
    const median = (xs) => percentile([...xs].sort((a, b) => a - b), 50);
    return {
      wallMs: Date.now() - wallStart,
      messages: stream.messages.length,
      latency: { p50: percentile(apply, 50), p95: percentile(apply, 95), max: apply.at(-1) },
      endToEnd: { p50: percentile(endToEnd, 50), p95: percentile(endToEnd, 95) },
      firstTenthP50: median(perMessage.slice(0, tenth)),
      lastTenthP50: median(perMessage.slice(-tenth)),
    };
  });
}

/** The 2,000-entry transcript as one message: arrival to the first frame that shows its newest entry. */
export async function measureTranscript(browser, url, problems, transcript, marker, timeoutMs) {
  const data = { status: transcript.status, entries: transcript.entries, marker, timeoutMs };
  return timed(browser, url, problems, data, ({ page }) => withTimeout(page.evaluate(runTranscript), timeoutMs + 10_000, 'transcript'));
}
