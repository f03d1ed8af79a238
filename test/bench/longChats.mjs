/**
 * Issue 45, long chats that stay light: people leave the chat open all day.
 * The figures (each with its goal, under `longChats` in the BENCH line):
 *
 * - idleRendererCpuPct: a 2,000-entry chat shown, nothing streaming: the
 *   page's main thread over 10 s (longChatsPage.mjs); idleHostCpuPct: the
 *   extension host's process over 10 s with a 2,010-entry chat shown in a real
 *   workbench (idleHost.mjs). Goal <= 1 % of a core each.
 * - scrollP95Ms, scrollLongestTaskMs: a 10,000-entry chat scrolled end to end
 *   by PageUp at the side bar's width: p95 frame time <= 16 ms, no task over 50 ms
 *   (beside them, the same scroll of a 300-entry chat: a frame's cost on this
 *   machine whatever the length);
 * - tenChatsHeapMiB: ten open 10,000-entry chats, the host's heap growth after
 *   GC (tenChats.ts, a Node of its own) <= 300 MiB; tenChatsSwitchMs: showing
 *   another of them, the host's part of its first post (newest first,
 *   newestFirst.ts) plus the page's first frame showing it <= 50 ms.
 * - dayReopenMs: a day of work (300 turns with tool calls and diffs) saved and
 *   reopened: the host's part plus the page's first render <= 300 ms.
 *
 * `benchLongChats({ browser, server, generator, generatorPath, runs, log })`
 * (`scrollMinutes`: how long the scroll may take, longChatsPage.mjs) measures all but the workbench's (`benchIdleHost`, run after the browser is
 * closed: one browser at a time); `longChatFigures` puts them together.
 */
import { spawnSync } from 'node:child_process';
import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import { measureTranscript } from './measure.mjs';
import { measureIdle, measureScroll, measureSwitchAway, SIDE_BAR } from './longChatsPage.mjs';
import { median } from './report.mjs';

export const LONG_CHAT_GOALS = {
  idleCpuPct: 1,
  scrollP95Ms: 16,
  scrollLongestTaskMs: 50,
  tenChatsHeapMiB: 300,
  tenChatsSwitchMs: 50,
  dayReopenMs: 300,
};
const HEAP_TIMEOUT_MS = 30 * 60_000;
/** Entries of the short chat whose scroll is measured beside the long one's. */
const SHORT_CHAT = 300;

const round = (x) => Math.round(x * 10) / 10;
const med = (runs, pick) => round(median(runs.map(pick)));
const load = () => os.loadavg()[0].toFixed(1);

/** The chats the page figures show, made with the real reducer (longChats.ts, transcript.ts). */
export function longChatData(generator, log) {
  const idle = generator.transcriptMessages(2_000);
  const ten = generator.transcriptMessages(10_000);
  // The same scroll on a short chat: what a frame costs on this machine whatever the chat's length.
  const short = generator.transcriptMessages(SHORT_CHAT);
  const day = generator.dayOfWork();
  const switchAway = generator.switchAway(ten.entries, ten.status);
  log(
    `Long chats: 2,000 entries (${Math.round(idle.bytes / 1024)} KB), 10,000 entries (${Math.round(ten.bytes / 1024)} KB), ` +
      `a day of ${day.dayEntries} entries saved as ${day.savedEntries} (${day.savedKB} KB); load ${load()}`,
  );
  return { idle, ten, short, day, switchAway, marker: generator.TRANSCRIPT_MARKER, dayMarker: generator.DAY_MARKER };
}

/**
 * Ten chats' heap in a Node of its own (--expose-gc: collections forced before
 * each look), `shown` while they streamed or `hidden`.
 */
function tenChatsHeap(generatorPath, shown) {
  const code = `const g = await import(${JSON.stringify(pathToFileURL(generatorPath).href)});
console.log(JSON.stringify(g.tenChatsHeap(${JSON.stringify(shown)})));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], {
    encoding: 'utf8',
    timeout: HEAP_TIMEOUT_MS,
    maxBuffer: 1024 * 1024,
  });
  if (r.status !== 0) {
    throw new Error(`bench: the ten chats' heap failed (${r.error?.message ?? r.status}):\n${r.stderr}`);
  }
  return JSON.parse(r.stdout.trim().split('\n').at(-1));
}

/** The page figures, `runs` times each (the scroll once: it takes minutes), and the ten chats' heap. */
export async function benchLongChats({ browser, server, data, generatorPath, runs, scrollMinutes, log }) {
  const problems = new Set();
  const idle = [],
    switches = [],
    reopens = [];
  for (let i = 1; i <= runs; i++) {
    idle.push(await measureIdle(browser, server.url, problems, data.idle, data.marker));
    switches.push(await measureSwitchAway(browser, server.url, problems, data.ten, data.switchAway.first, data.marker));
    const day = { status: data.day.status, entries: data.day.entries };
    reopens.push(await measureTranscript(browser, server.url, problems, day, data.dayMarker, 60_000, SIDE_BAR));
    const [a, s, r] = [idle.at(-1), switches.at(-1), reopens.at(-1)];
    log(
      `long chats run ${i}/${runs}: idle ${a.cpuPct.toFixed(2)} % (${a.cpuMs.toFixed(0)} ms CPU in 10 s; timers ${a.animationFrames} rAF, ${a.timeouts} timeouts, ` +
        `${a.intervals} intervals, ${a.idleCallbacks} idle callbacks; ${a.mutations} DOM changes; ${a.runningAnimations} animations), ` +
        `switch ${s.switchMs.toFixed(0)} ms, day reopened ${r.firstPaintMs.toFixed(0)} ms; load ${load()}`,
    );
  }
  const floor = await measureScroll(browser, server.url, problems, data.short, data.marker, { minutes: 1, log });
  const scroll = await measureScroll(browser, server.url, problems, data.ten, data.marker, {
    minutes: scrollMinutes,
    log,
  });
  log(
    `long chats: scrolled ${scroll.presses} PageUp repeats (${scroll.dropped} dropped) in ${scroll.wallS.toFixed(0)} s: frames p95 ${scroll.p95.toFixed(1)} ms, ` +
      `longest task ${scroll.longestTaskCpuMs.toFixed(0)} ms CPU (${scroll.longestTaskWallMs.toFixed(0)} ms wall); load ${load()}`,
  );
  const heap = { shown: tenChatsHeap(generatorPath, 'shown'), hidden: tenChatsHeap(generatorPath, 'hidden') };
  log(
    `long chats: ten chats' heap ${heap.shown.heapMiB} MiB (streamed while hidden: ${heap.hidden.heapMiB}); load ${load()}`,
  );
  if (problems.size) log(`Page reported (first 10 of ${problems.size}):\n  ${[...problems].slice(0, 10).join('\n  ')}`);
  return { idle, switches, reopens, scroll, floor, heap };
}

/** The figures and goals from the page's runs, the heap, the host's parts and the workbench's idle (undefined: not run). */
export function longChatFigures({ idle, switches, reopens, scroll, floor, heap }, data, workbench) {
  const g = LONG_CHAT_GOALS;
  const f = {
    idleRendererCpuPct: Math.round(median(idle.map((r) => r.cpuPct)) * 1000) / 1000,
    idleHostCpuPct: workbench ? workbench.idlePct.host : null,
    scrollP95Ms: round(scroll.p95),
    scrollLongestTaskMs: round(scroll.longestTaskCpuMs),
    tenChatsHeapMiB: heap.shown.heapMiB,
    tenChatsSwitchMs: Math.round(data.switchAway.hostMs + median(switches.map((r) => r.switchMs))),
    dayReopenMs: Math.round(data.day.openHostMs + median(reopens.map((r) => r.firstPaintMs))),
  };
  const detail = longChatDetail({ idle, switches, reopens, scroll, floor, heap }, data, workbench);
  const met = {
    idleRendererCpu: f.idleRendererCpuPct <= g.idleCpuPct,
    idleHostCpu: f.idleHostCpuPct === null ? null : f.idleHostCpuPct <= g.idleCpuPct,
    scrollP95: f.scrollP95Ms <= g.scrollP95Ms,
    scrollLongestTask: f.scrollLongestTaskMs <= g.scrollLongestTaskMs,
    tenChatsHeap: f.tenChatsHeapMiB <= g.tenChatsHeapMiB,
    tenChatsSwitch: f.tenChatsSwitchMs <= g.tenChatsSwitchMs,
    dayReopen: f.dayReopenMs <= g.dayReopenMs,
  };
  return { ...f, detail, goals: g, met };
}

/** What the figures are made of, printed beside them. */
function longChatDetail({ idle, switches, reopens, scroll, floor, heap }, data, workbench) {
  return {
    idle: {
      cpuMs: med(idle, (r) => r.cpuMs),
      longestTaskMs: med(idle, (r) => r.longestTaskMs),
      settleMs: med(idle, (r) => r.settleMs),
      settled: idle.every((r) => r.settled),
      ran: Object.fromEntries(
        ['animationFrames', 'timeouts', 'intervals', 'idleCallbacks', 'mutations', 'runningAnimations'].map((k) => [
          k,
          Math.max(...idle.map((r) => r[k])),
        ]),
      ),
    },
    workbench,
    scroll: {
      ...scroll,
      p50: round(scroll.p50),
      max: round(scroll.max),
      longestTaskWallMs: round(scroll.longestTaskWallMs),
    },
    scrollShort: {
      entries: floor.entries,
      p50: round(floor.p50),
      p95: round(floor.p95),
      longestTaskCpuMs: round(floor.longestTaskCpuMs),
      atTop: floor.atTop,
    },
    heap,
    switchHostMs: data.switchAway.hostMs,
    switchPosts: data.switchAway.posts,
    switchRestHostMs: data.switchAway.restMs,
    switchPageMs: med(switches, (r) => r.switchMs),
    day: { ...dayFacts(data.day), pageMs: med(reopens, (r) => r.firstPaintMs) },
  };
}

const dayFacts = (day) => ({
  entries: day.dayEntries,
  savedEntries: day.savedEntries,
  savedKB: day.savedKB,
  hostMs: day.openHostMs,
});

const verdict = (ok) => (ok === null ? 'not measured' : ok ? 'met' : 'MISSED');

/** Prints the long-chat figures with their goals. */
export function printLongChats(f, log = console.log) {
  const { detail: d, goals: g, met } = f;
  const i = d.idle;
  log('');
  log(`Long chats (issue 45; the page at ${SIDE_BAR.width}x${SIDE_BAR.height}, the side bar):`);
  log(
    `  a 2,000-entry chat left alone: the page's main thread ${f.idleRendererCpuPct} % of a core (${i.cpuMs} ms CPU in 10 s, longest task ${i.longestTaskMs} ms)  ` +
      `(goal <= ${g.idleCpuPct} %: ${verdict(met.idleRendererCpu)}); in those 10 s ${i.ran.animationFrames} animation frames, ${i.ran.timeouts} timeouts, ` +
      `${i.ran.intervals} intervals, ${i.ran.idleCallbacks} idle callbacks, ${i.ran.mutations} DOM changes, ${i.ran.runningAnimations} CSS animations running; ` +
      `${i.settled ? `settled ${i.settleMs} ms after its first paint` : 'never settled'}`,
  );
  const w = d.workbench;
  log(
    w
      ? `  ${w.entries} entries shown in a real workbench, left alone: the extension host over 10 s ${w.idlePct.host} % of a core  (goal <= ${g.idleCpuPct} %: ${verdict(met.idleHostCpu)}); ` +
          `${w.settleS} s after the last turn; with an empty chat ${w.baselinePct.host} %; the workbench's renderer ${w.idlePct.renderer} % (empty chat ${w.baselinePct.renderer} %), code-server's server ${w.idlePct.server} % (${w.baselinePct.server} %)`
      : '  the extension host left alone with a long chat: not measured (the workbench did not run)',
  );
  const s = d.scroll;
  log(
    `  a 10,000-entry chat scrolled by PageUp held from its newest end: ${s.atTop ? 'to the top' : `${s.scrolledEntries.toLocaleString('en-US')} entries back when the time was up`} ` +
      `(${s.presses} repeats in ${Math.round(s.wallS)} s, ${s.dropped} more dropped while the page was behind; ${s.heightBefore.toLocaleString('en-US')} px high at first, ` +
      `${s.heightAfter.toLocaleString('en-US')} px at the top): frames p50 ${s.p50} ms, p95 ${f.scrollP95Ms} ms  (goal <= ${g.scrollP95Ms} ms: ${verdict(met.scrollP95)}), ` +
      `max ${s.max} ms, ${s.late} of ${s.frames} over 16.7 ms; longest task ${f.scrollLongestTaskMs} ms CPU  (goal <= ${g.scrollLongestTaskMs} ms: ${verdict(met.scrollLongestTask)}), ${s.longestTaskWallMs} ms wall`,
  );
  const f0 = d.scrollShort;
  log(
    `  the same scroll of a ${f0.entries}-entry chat (${f0.atTop ? 'to the top' : 'for a minute'}), what a frame costs here whatever the length: frames p50 ${f0.p50} ms, p95 ${f0.p95} ms; longest task ${f0.longestTaskCpuMs} ms CPU`,
  );
  const h = d.heap;
  log(
    `  ten open chats of 10,000 entries (${h.shown.entries.toLocaleString('en-US')} entries, ${h.shown.textMiB} MiB of entries and ${h.shown.terminalMiB} MiB of terminal output): ` +
      `the host's heap +${f.tenChatsHeapMiB} MiB after GC  (goal <= ${g.tenChatsHeapMiB} MiB: ${verdict(met.tenChatsHeap)}), each streamed while shown; ` +
      `+${h.hidden.heapMiB} MiB when each streamed while hidden (played in ${h.shown.playS} s and ${h.hidden.playS} s)`,
  );
  log(
    `  showing another of them (a chat the page does not keep): ${f.tenChatsSwitchMs} ms  (goal <= ${g.tenChatsSwitchMs} ms: ${verdict(met.tenChatsSwitch)}) = ` +
      `the host ${d.switchHostMs} ms (the newest part of the list diffed and serialised, Node) + the page ${d.switchPageMs} ms (arrival to the first frame showing it); ` +
      `the rest comes in ${d.switchPosts - 1} more posts, one a flush (the host's part of them all: ${d.switchRestHostMs} ms)`,
  );
  log(
    `  a day of work (${d.day.entries} entries; saved: the newest ${d.day.savedEntries}, ${d.day.savedKB} KB) reopened: ${f.dayReopenMs} ms  (goal <= ${g.dayReopenMs} ms: ${verdict(met.dayReopen)}) = ` +
      `the host ${d.day.hostMs} ms (parse, check, new ids, diff, serialise; Node) + the page's first render ${d.day.pageMs} ms`,
  );
}
