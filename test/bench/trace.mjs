/**
 * The renderer main thread's CPU time from a Chrome trace: the sum of its
 * top-level tasks' thread time (`tdur`). TaskDuration (Performance.getMetrics)
 * is wall time, which grows when the machine is busy with other work; CPU
 * time does not, so it is the figure to compare between runs and machines.
 *
 * The trace also gives when that thread was busy, in the page's own clock
 * (`performance.now()`), so that a latency can be split into the time the
 * thread worked and the time it sat idle waiting for the next frame.
 */

const TASK = 'ThreadControllerImpl::RunTask';
/** A performance.mark the page makes while traced: its trace time and startTime align the two clocks. */
export const CLOCK_MARK = 'bench-clock';

/**
 * Starts a trace of top-level tasks; `stop()` resolves to the busiest renderer
 * main thread's `{ cpuMs, wallMs, longest, busy }` (`longest`: its longest task's
 * CPU time and, maybe another task's, longest wall time; `busy`: its tasks as sorted
 * `[start, end]` pairs in the page's clock, when the page made a
 * {@link CLOCK_MARK}); `abandon()` ends a trace not stopped.
 */
export async function traceMainThread(browser, page) {
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  let stopped = false;
  return {
    async abandon() {
      if (!stopped) await browser.stopTracing().catch(() => undefined);
      stopped = true;
    },
    async stop() {
      stopped = true;
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
      const mainThreads = new Set(
        events
          .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
          .map((e) => `${e.pid}:${e.tid}`),
      );
      const threads = new Map();
      for (const e of events) {
        const key = `${e.pid}:${e.tid}`;
        if (e.ph !== 'X' || e.name !== TASK || !mainThreads.has(key)) continue;
        const thread = threads.get(key) ?? { cpuMs: 0, wallMs: 0, tasks: [], longest: { cpuMs: 0, wallMs: 0 } };
        thread.cpuMs += (e.tdur ?? 0) / 1000;
        thread.wallMs += e.dur / 1000;
        thread.longest.cpuMs = Math.max(thread.longest.cpuMs, (e.tdur ?? 0) / 1000);
        thread.longest.wallMs = Math.max(thread.longest.wallMs, e.dur / 1000);
        thread.tasks.push(e);
        threads.set(key, thread);
      }
      // Other renderers (pages closed earlier) are idle: the page's is the busiest.
      const [key, main] = [...threads].sort((a, b) => b[1].cpuMs - a[1].cpuMs)[0] ?? [];
      if (!main) return { cpuMs: NaN, wallMs: NaN };
      const mark =
        events.find(
          (e) => e.name === CLOCK_MARK && `${e.pid}:${e.tid}` === key && e.args?.data?.startTime !== undefined,
        ) ?? events.find((e) => e.name === CLOCK_MARK && `${e.pid}:${e.tid}` === key);
      return {
        cpuMs: main.cpuMs,
        wallMs: main.wallMs,
        longest: main.longest,
        busy: mark ? busyIntervals(main.tasks, mark) : undefined,
      };
    },
  };
}

/** The tasks as `[start, end]` in the page's clock, sorted; the mark's `startTime` is its page time. */
function busyIntervals(tasks, mark) {
  const offset = mark.ts / 1000 - markTime(mark);
  return tasks.map((e) => [e.ts / 1000 - offset, (e.ts + e.dur) / 1000 - offset]).sort((a, b) => a[0] - b[0]);
}

function markTime(mark) {
  const data = mark.args?.data;
  if (typeof data?.startTime === 'number') return data.startTime;
  throw new Error(`bench: the trace's ${CLOCK_MARK} mark carries no startTime: ${JSON.stringify(mark).slice(0, 300)}`);
}

/** Time within [from, to] during which none of the sorted `busy` intervals ran. */
export function idleWithin(busy, from, to) {
  if (!(to > from)) return 0;
  let idle = to - from;
  // Binary search for the first interval that may end after `from`.
  let lo = 0,
    hi = busy.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (busy[mid][0] < from - 1000) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < busy.length && busy[i][0] < to; i++) {
    const start = Math.max(from, busy[i][0]),
      end = Math.min(to, busy[i][1]);
    if (end > start) idle -= end - start;
  }
  return Math.max(0, idle);
}
