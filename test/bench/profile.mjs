/**
 * `node test/bench/profile.mjs [--chunks=10000] [--noop]`: where the frames of
 * one streamed reply spend the renderer main thread's time. Traces the stream
 * with Chrome's timeline categories (which slow it down: read the shares and
 * the long frames, not the latencies) and prints the CPU time of each phase
 * (script, style, layout, pre-paint, paint, layerize, GC) in total and per
 * frame, then every frame whose main-thread part took over 16.7 ms, with its
 * phases: which frames miss, and on what. Measures dist/ as it is.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../harness/paths.mjs';
import { prepare } from './build.mjs';
import { installProbe, runStream, waitForApp } from './probe.mjs';
import { startServer } from './server.mjs';

const argv = process.argv.slice(2);
const CHUNKS = Number(/^--chunks=(\d+)$/.exec(argv.find((a) => a.startsWith('--chunks=')) ?? '')?.[1] ?? 10_000);
const NOOP = argv.includes('--noop');
const FRAME_MS = 1000 / 60;
const CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'blink.user_timing'];

/** Trace event name -> phase. Only the outermost event of a phase counts (they nest). */
const PHASES = {
  TimerFire: 'script',
  FunctionCall: 'script',
  RunMicrotasks: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'prepaint',
  Paint: 'paint',
  Layerize: 'layerize',
  MinorGC: 'gc',
  MajorGC: 'gc',
};
/** A top-level task that makes a frame (the `toplevel` category names what posted it). */
const isFrame = (e) =>
  e.name === 'ThreadControllerImpl::RunTask' && e.args?.src_func === 'ScheduledActionSendBeginMainFrame';

async function traceStream(url, stream) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    headless: true,
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 400, height: 900 } })).newPage();
    await page.addInitScript(installProbe);
    await page.goto(url);
    await page.evaluate(waitForApp);
    await page.evaluate(
      (d) => {
        window.__benchData = d;
      },
      {
        times: stream.messages.map((m) => m.at),
        messages: stream.messages.map((m) => m.message),
        waits: stream.messages.map((m) => m.chunkTimes.length > 0),
        timeoutMs: 120_000,
      },
    );
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.evaluate(runStream);
    return JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  } finally {
    await browser.close();
  }
}

/** The page's main thread: the one that made the probe's clock mark. */
function mainThreadEvents(events) {
  const mark = events.find((e) => e.name === 'bench-clock');
  if (!mark) throw new Error('profile: no clock mark in the trace');
  return events
    .filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
}

/** CPU ms per phase of the events within [from, to) (all of them without bounds). */
function phases(events, from = -Infinity, to = Infinity) {
  const out = {};
  const openUntil = {};
  for (const e of events) {
    const phase = PHASES[e.name];
    if (!phase || e.ts < from || e.ts >= to || (openUntil[phase] ?? -Infinity) > e.ts) continue;
    openUntil[phase] = e.ts + e.dur;
    out[phase] = (out[phase] ?? 0) + (e.tdur ?? e.dur) / 1000;
  }
  return out;
}

const fmt = (p) =>
  Object.entries(p)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(', ');
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const { generator, webviewDir, cleanup } = await prepare({ build: false });
  const server = await startServer(webviewDir);
  try {
    const stream = generator.streamMessages(generator.streamText(), CHUNKS);
    const events = mainThreadEvents(await traceStream(NOOP ? server.noopUrl : server.url, stream));
    const tasks = events.filter((e) => e.name === 'ThreadControllerImpl::RunTask');
    const frames = events.filter(isFrame);
    const cpu = (list) => list.reduce((sum, e) => sum + (e.tdur ?? 0) / 1000, 0);
    console.log(
      `${CHUNKS} chunks in ${stream.messages.length} messages${NOOP ? ' (no-op page)' : ''}: main thread ${cpu(tasks).toFixed(0)} ms CPU, ` +
        `of which frames ${cpu(frames).toFixed(0)} ms in ${frames.length}`,
    );
    console.log(`by phase (ms CPU): ${fmt(phases(events))}`);
    const perFrame = frames.map((f) => (f.tdur ?? 0) / 1000).sort((a, b) => a - b);
    console.log(
      `per frame (ms CPU): p50 ${pct(perFrame, 50).toFixed(1)}, p95 ${pct(perFrame, 95).toFixed(1)}, max ${perFrame.at(-1).toFixed(1)}`,
    );
    const long = frames.filter((f) => f.dur / 1000 > FRAME_MS);
    const t0 = tasks[0]?.ts ?? 0;
    console.log(`frames over ${FRAME_MS.toFixed(1)} ms (wall): ${long.length}`);
    for (const f of long) {
      console.log(
        `  at ${((f.ts - t0) / 1000).toFixed(0).padStart(6)} ms: ${(f.dur / 1000).toFixed(1)} ms wall, ${((f.tdur ?? 0) / 1000).toFixed(1)} ms CPU: ${fmt(phases(events, f.ts, f.ts + f.dur))}`,
      );
    }
  } finally {
    await server.close();
    cleanup();
  }
}

main().catch((error) => {
  console.error(`profile failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
