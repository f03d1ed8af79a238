/**
 * `npm run bench`: the chat webview's rendering performance in real headless
 * Chromium, fed exactly what the host would post (real reducer, diffEntries
 * and its batching). Prints each figure with its goal and ends with one
 * `BENCH {json}` line. Missed goals are reported, not failures: the process
 * exits non-zero only when the bench itself breaks.
 *
 * Options: --runs=N (repeats of each page measurement, default 3; the median
 * is reported), --no-build (measure dist/ as it is), --only=webview (skip
 * the bridge and workbench figures), --only=bridge (only the bridge figures:
 * no browser), --only=workbench (only the workbench figures: code-server),
 * --only=agents (only the real agents' connect times), --only=checkpoints (the
 * Changes bar's checkpoints on a 20,000-file folder: no browser), --only=worktrees (a chat's worktree made ready
 * and Apply of 100 files, on a 20,000-file repository: no browser; not in the full run yet), --only=queue
 * (a queued prompt's way to the agent after a turn: code-server), --only=editorContext (the editor server's
 * round trips with VS Code's TypeScript: code-server), --only=longChats
 * (issue 45's long chats: the page's figures, the ten chats' heap in Node, then
 * the extension host idle in code-server; needs `npm run build`),
 * --scroll-minutes=N (how long its scroll may take before it stops short of the top, default 5).
 */
import * as os from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../harness/paths.mjs';
import { prepare } from './build.mjs';
import { measureStream, measureSwitch, measureTranscript } from './measure.mjs';
import { benchLine, goalsMet, print, printWorkbench, summarize } from './report.mjs';
import { benchBridge, printBridge } from './bridge.mjs';
import { benchWorkbench } from './workbench.mjs';
import { benchAgents, printAgents } from './agents.mjs';
import { benchCheckpoints, printCheckpoints } from './checkpoints.mjs';
import { benchWorktrees, printWorktrees } from './worktrees.mjs';
import { benchQueue, printQueue } from './queue.mjs';
import { benchEditorContext, printEditorContext } from './editorContext.mjs';
import { startServer } from './server.mjs';
import { benchLongChats, longChatData, longChatFigures, printLongChats } from './longChats.mjs';
import { benchIdleHost } from './idleHost.mjs';

const argv = process.argv.slice(2);
const RUNS = Math.max(1, Number(/^--runs=(\d+)$/.exec(argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 3));
const BUILD = !argv.includes('--no-build');
const ONLY = /^--only=(\w+)$/.exec(argv.find((a) => a.startsWith('--only=')) ?? '')?.[1];
/** How long the long chat's scroll may take before it stops short of the top (longChatsPage.mjs). */
const SCROLL_MINUTES = Number(
  /^--scroll-minutes=(\d+)$/.exec(argv.find((a) => a.startsWith('--scroll-minutes=')) ?? '')?.[1] ?? 5,
);
/** How long after its last message a stream may take to be painted. */
const STREAM_SLACK_MS = 60_000;
const TRANSCRIPT_TIMEOUT_MS = 120_000;
const OVERALL_TIMEOUT_MS = 60 * 60_000;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const log = (line) => console.log(line);

/**
 * Per run: the webview's 10k, 1k and transcript measurements, then the 10k
 * stream on the no-op page (the floor: the frame wait and the browser's least
 * work per frame), interleaved so that a busy spell of the machine hits all alike.
 */
async function measureAll(browser, server, data, problems) {
  const large = [],
    small = [],
    transcript = [],
    noop = [],
    switches = [],
    forms = [];
  for (let i = 1; i <= RUNS; i++) {
    large.push(await measureStream(browser, server.url, problems, data.large, STREAM_SLACK_MS));
    small.push(await measureStream(browser, server.url, problems, data.small, STREAM_SLACK_MS));
    transcript.push(
      await measureTranscript(browser, server.url, problems, data.transcript, data.marker, TRANSCRIPT_TIMEOUT_MS),
    );
    noop.push(await measureStream(browser, server.noopUrl, problems, data.large, STREAM_SLACK_MS));
    switches.push(
      await measureSwitch(browser, server.url, problems, data.transcript, data.marker, TRANSCRIPT_TIMEOUT_MS),
    );
    const { status, form } = data.elicitation;
    forms.push(
      await measureTranscript(browser, server.url, problems, { status, entries: form }, data.elicitationMarker, 30_000),
    );
    const [l, s, t, n] = [large.at(-1), small.at(-1), transcript.at(-1), noop.at(-1)];
    log(
      `run ${i}/${RUNS}: 10k chunks ${l.main.cpuMs.toFixed(0)} ms CPU (p95 ${l.latency.p95.toFixed(1)} ms, without the frame wait ${l.working.p95.toFixed(1)} ms; ` +
        `no-op page ${n.latency.p95.toFixed(1)} ms, ${n.working.p95.toFixed(1)} ms), 1k chunks ${s.main.cpuMs.toFixed(0)} ms CPU, transcript ${t.firstPaintMs.toFixed(0)} ms, switch ${switches.at(-1).switchMs.toFixed(0)} ms, 50-field form ${forms.at(-1).firstPaintMs.toFixed(0)} ms, load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
  return { large, small, transcript, noop, switches, forms };
}

function generate(generator) {
  const text = generator.streamText();
  const large = generator.streamMessages(text, 10_000);
  const small = generator.streamMessages(text, 1_000);
  const transcript = generator.transcriptMessages(2_000);
  const host = {
    stream10kMs: Math.round(large.hostMs * 10) / 10,
    stream1kMs: Math.round(small.hostMs * 10) / 10,
    transcriptParseMs: Math.round(Math.min(...[0, 1, 2].map(() => generator.parseMs(transcript.entries))) * 10) / 10,
    transcriptKB: Math.round(transcript.bytes / 1024),
    sessions: generator.sessionFigures(2_000),
  };
  log(
    `Generated: ${text.length} characters of Markdown; ${large.messages.length} and ${small.messages.length} host messages; transcript ${JSON.stringify(transcript.kinds)}, ${host.transcriptKB} KB`,
  );
  const elicitation = generator.elicitationMessages(50);
  return {
    data: {
      large,
      small,
      transcript,
      marker: generator.TRANSCRIPT_MARKER,
      elicitation,
      elicitationMarker: generator.ELICITATION_MARKER,
    },
    host,
  };
}

async function main() {
  if (ONLY === 'bridge') {
    const bridge = await benchBridge({ runs: RUNS, build: BUILD, log });
    printBridge(bridge, log);
    return log(`BENCH ${JSON.stringify({ bridge, met: bridge.met })}`);
  }
  if (ONLY === 'workbench') return workbenchOnly();
  if (ONLY === 'longChats') return longChatsOnly();
  if (ONLY === 'checkpoints') {
    const checkpoints = await benchCheckpoints({ runs: RUNS, log });
    printCheckpoints(checkpoints, log);
    return log(`BENCH ${JSON.stringify({ checkpoints, met: checkpoints.met })}`);
  }
  if (ONLY === 'worktrees') {
    const worktrees = await benchWorktrees({ runs: RUNS, log });
    printWorktrees(worktrees, log);
    return log(`BENCH ${JSON.stringify({ worktrees, met: worktrees.met })}`);
  }
  if (ONLY === 'queue') {
    const queue = await benchQueue({ runs: RUNS, log });
    printQueue(queue, log);
    return log(`BENCH ${JSON.stringify({ queue, met: { queueSend: queue.met } })}`);
  }
  if (ONLY === 'editorContext') {
    const editorContext = await benchEditorContext({ runs: RUNS, log });
    printEditorContext(editorContext, log);
    return log(
      `BENCH ${JSON.stringify({ editorContext, met: { editorProblems: editorContext.met.problems, editorReferences: editorContext.met.references } })}`,
    );
  }
  if (ONLY === 'agents') {
    const agents = await benchAgents({ runs: RUNS, log });
    printAgents(agents, log);
    return log(`BENCH ${JSON.stringify({ agents })}`);
  }
  if (BUILD) log('Building dist/webview/webview.js and dist/web/extension.js (webpack, production)...');
  const { generator, generatorPath, webviewDir, sizes, cleanup } = await prepare({ build: BUILD });
  let server, browser;
  try {
    const { data, host } = generate(generator);
    host.attachments = await generator.attachmentFigures();
    server = await startServer(webviewDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
    log(`Chromium ${browser.version()}, page ${server.url}, ${RUNS} run(s) of each measurement`);
    const problems = new Set();
    const loadBefore = Math.round(os.loadavg()[0] * 10) / 10;
    const runs = await measureAll(browser, server, data, problems).catch((error) => {
      throw problems.size
        ? new Error(`${error.message}\nThe page reported:\n  ${[...problems].slice(0, 10).join('\n  ')}`)
        : error;
    });
    const machine = { cpus: os.cpus().length, loadBefore, loadAfter: Math.round(os.loadavg()[0] * 10) / 10 };
    const figures = summarize({ ...runs, sizes, host, machine });
    const met = goalsMet(figures);
    print(figures, met, log);
    if (problems.size) {
      log(`Page reported (first 10 of ${problems.size}):\n  ${[...problems].slice(0, 10).join('\n  ')}`);
    }
    if (ONLY === 'webview') return log(benchLine(figures, met));
    const longData = longChatData(generator, log);
    const longRuns = await benchLongChats({
      browser,
      server,
      data: longData,
      generatorPath,
      runs: RUNS,
      scrollMinutes: SCROLL_MINUTES,
      log,
    });
    // The bridge figures (issue 5): no browser needed, and less noise without it.
    await browser.close().catch(() => undefined);
    browser = undefined;
    const bridge = await benchBridge({ runs: RUNS, build: BUILD, log });
    printBridge(bridge, log);
    const checkpoints = await benchCheckpoints({ runs: RUNS, log });
    printCheckpoints(checkpoints, log);
    // The workbench figures last: code-server and its own Chromium, the longest part.
    const workbench = await benchWorkbench({ runs: RUNS, generator, log });
    printWorkbench(workbench, log);
    const queue = await benchQueue({ runs: RUNS, log });
    printQueue(queue, log);
    const editorContext = await benchEditorContext({ runs: RUNS, log });
    printEditorContext(editorContext, log);
    const agents = await benchAgents({ runs: RUNS, log });
    printAgents(agents, log);
    const longChats = longChatFigures(longRuns, longData, await benchIdleHost({ generator, log }));
    printLongChats(longChats, log);
    log(
      benchLine(
        { ...figures, bridge, checkpoints, workbench, queue, editorContext, agents, longChats },
        {
          ...met,
          ...bridge.met,
          ...checkpoints.met,
          ...workbench.met,
          queueSend: queue.met,
          editorProblems: editorContext.met.problems,
          editorReferences: editorContext.met.references,
          ...longChats.met,
        },
      ),
    );
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close();
    cleanup();
  }
}

/** `--only=workbench`: the generator (for the transcript's Markdown) and dist/ as built, then code-server. */
async function workbenchOnly() {
  if (BUILD) log('Building dist/webview/webview.js and dist/web/extension.js (webpack, production)...');
  const { generator, cleanup } = await prepare({ build: BUILD });
  try {
    const workbench = await benchWorkbench({ runs: RUNS, generator, log });
    printWorkbench(workbench, log);
    log(`BENCH ${JSON.stringify({ workbench, met: workbench.met })}`);
  } finally {
    cleanup();
  }
}

/** `--only=longChats`: the page's figures and the heap (one browser), then the workbench's idle host (code-server). */
async function longChatsOnly() {
  if (BUILD) log('Building dist/webview/webview.js and dist/web/extension.js (webpack, production)...');
  const { generator, generatorPath, webviewDir, cleanup } = await prepare({ build: BUILD });
  let server, browser;
  try {
    const data = longChatData(generator, log);
    server = await startServer(webviewDir);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
    const runs = await benchLongChats({
      browser,
      server,
      data,
      generatorPath,
      runs: RUNS,
      scrollMinutes: SCROLL_MINUTES,
      log,
    });
    await browser.close();
    browser = undefined;
    const longChats = longChatFigures(runs, data, await benchIdleHost({ generator, log }));
    printLongChats(longChats, log);
    log(`BENCH ${JSON.stringify({ longChats, met: longChats.met })}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close();
    cleanup();
  }
}

const watchdog = setTimeout(() => {
  console.error(`bench: no result after ${OVERALL_TIMEOUT_MS / 60_000} minutes`);
  process.exit(2);
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

main().catch((error) => {
  console.error(`bench failed: ${error?.stack ?? error}`);
  process.exitCode = 1;
});
