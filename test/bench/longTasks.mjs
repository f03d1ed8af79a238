/**
 * The long tasks of the renderer main thread that runs the workbench and the
 * chat webview, from a Chrome trace.
 *
 * In code-server the webview is served from the workbench's own origin, so
 * its iframes live in the workbench's renderer process and share its main
 * thread (and its V8 heap): a long task in either blocks both. A
 * PerformanceObserver for 'longtask' sees only tasks that ran script (the
 * 174 ms style-and-layout task that shows an 8 MiB message was not reported
 * to the page nor to the frame), so the tasks come from the trace:
 * `toplevel` gives every task, `devtools.timeline` what ran inside it and for
 * which frame (FunctionCall, UpdateLayoutTree and Layout name their frame),
 * `v8` the script a posted message's handler runs (`v8.callFunction`: the
 * timeline category has no FunctionCall for it).
 */

/** What the trace needs: every task, what ran inside it, and the frame of that work. */
export const LONG_TASK_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8', 'blink.user_timing'];
const TASK = 'ThreadControllerImpl::RunTask';
/** Tasks at least this long are listed (the Long Tasks API's threshold). */
export const LONG_TASK_MS = 50;

/** Work inside a task, by kind. Script events nest (FunctionCall holds v8.callFunction): kinds are unions of intervals. */
const KINDS = {
  scriptMs: new Set([
    'FunctionCall',
    'EvaluateScript',
    'v8.callFunction',
    'v8.evaluateModule',
    'BlinkScheduler_PerformMicrotaskCheckpoint',
    'TimerFire',
    'EventDispatch',
  ]),
  styleLayoutMs: new Set(['UpdateLayoutTree', 'Layout']),
  paintMs: new Set(['PrePaint', 'Paint', 'Layerize']),
  gcMs: new Set(['MinorGC', 'MajorGC']),
};
/** Events that name the frame whose script or document they worked on. */
const FRAMED = new Set([
  'FunctionCall',
  'EvaluateScript',
  'UpdateLayoutTree',
  'Layout',
  'ParseHTML',
  'TimerFire',
  'EventDispatch',
]);

const frameOf = (e) => e.args?.data?.frame ?? e.args?.beginData?.frame;

/** Total length of the union of `[start, end]` intervals. */
function unionMs(intervals) {
  let total = 0,
    end = -Infinity;
  for (const [s, e] of intervals.sort((a, b) => a[0] - b[0])) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total / 1000;
}

const round = (x) => Math.round(x * 10) / 10;

/**
 * The tasks between the page's performance marks `from` and `to` (made in the
 * workbench page: they also tell which thread is its main thread), each with
 * who it worked for (`webview` when any of its work names `chatFrameId`, else
 * `workbench`) and its script, style-and-layout, paint and GC time.
 * Returns `{ longestMs, workbenchMs, webviewMs, over100, long }`: the
 * longest task overall and of each owner, how many took over 100 ms, and the
 * tasks of at least LONG_TASK_MS described, longest first.
 */
export function longTasks(events, { from, to, chatFrameId }) {
  const fromMark = events.find((e) => e.name === from),
    toMark = events.find((e) => e.name === to);
  if (!fromMark || !toMark) throw new Error(`bench: the trace lacks the page's marks ${from} and ${to}`);
  const onMain = (e) => e.pid === fromMark.pid && e.tid === fromMark.tid;
  const complete = events.filter((e) => e.ph === 'X' && onMain(e)).sort((a, b) => a.ts - b.ts);
  const tasks = complete.filter((e) => e.name === TASK && e.ts + e.dur > fromMark.ts && e.ts < toMark.ts);
  const described = tasks.filter((t) => t.dur >= LONG_TASK_MS * 1000).map((t) => describe(t, complete, chatFrameId));
  const longestOf = (owner) =>
    round(
      Math.max(
        0,
        ...tasks.filter((t) => !owner || ownerOf(t, complete, chatFrameId) === owner).map((t) => t.dur / 1000),
      ),
    );
  return {
    longestMs: longestOf(),
    workbenchMs: longestOf('workbench'),
    webviewMs: longestOf('webview'),
    over100: tasks.filter((t) => t.dur > 100_000).length,
    long: described.sort((a, b) => b.ms - a.ms),
  };
}

/** The events that ran inside `task` (binary search: `complete` is sorted by start). */
function inside(task, complete) {
  let lo = 0,
    hi = complete.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (complete[mid].ts < task.ts) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let i = lo; i < complete.length && complete[i].ts < task.ts + task.dur; i++) {
    if (complete[i] !== task && complete[i].name !== TASK) out.push(complete[i]);
  }
  return out;
}

function ownerOf(task, complete, chatFrameId) {
  return inside(task, complete).some((e) => FRAMED.has(e.name) && frameOf(e) === chatFrameId) ? 'webview' : 'workbench';
}

function describe(task, complete, chatFrameId) {
  const work = inside(task, complete);
  const out = {
    ms: round(task.dur / 1000),
    cpuMs: round((task.tdur ?? 0) / 1000),
    owner: ownerOf(task, complete, chatFrameId),
  };
  for (const [kind, names] of Object.entries(KINDS)) {
    out[kind] = round(unionMs(work.filter((e) => names.has(e.name)).map((e) => [e.ts, e.ts + e.dur])));
  }
  // What the task was started by: its first event (a message from the host, a posted message, a frame...).
  out.first = work[0]?.name ?? '(nothing traced)';
  return out;
}
