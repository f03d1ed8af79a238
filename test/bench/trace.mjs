/**
 * The renderer main thread's CPU time from a Chrome trace: the sum of its
 * top-level tasks' thread time (`tdur`). TaskDuration (Performance.getMetrics)
 * is wall time, which grows when the machine is busy with other work; CPU
 * time does not, so it is the figure to compare between runs and machines.
 */

const TASK = 'ThreadControllerImpl::RunTask';

/**
 * Starts a trace of top-level tasks; `stop()` resolves to the busiest renderer
 * main thread's `{ cpuMs, wallMs }`; `abandon()` ends a trace not stopped.
 */
export async function traceMainThread(browser, page) {
  await browser.startTracing(page, { categories: ['toplevel'] });
  let stopped = false;
  return {
    async abandon() {
      if (!stopped) await browser.stopTracing().catch(() => undefined);
      stopped = true;
    },
    async stop() {
      stopped = true;
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
      const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
      const sums = new Map();
      for (const e of events) {
        const key = `${e.pid}:${e.tid}`;
        if (e.ph !== 'X' || e.name !== TASK || !mainThreads.has(key)) continue;
        const sum = sums.get(key) ?? { cpuMs: 0, wallMs: 0 };
        sum.cpuMs += (e.tdur ?? 0) / 1000;
        sum.wallMs += e.dur / 1000;
        sums.set(key, sum);
      }
      // Other renderers (pages closed earlier) are idle: the page's is the busiest.
      return [...sums.values()].sort((a, b) => b.cpuMs - a.cpuMs)[0] ?? { cpuMs: NaN, wallMs: NaN };
    },
  };
}
