/**
 * Turns the runs into figures (medians), prints them with their goals, and
 * makes the final `BENCH {json}` line. A missed goal is reported, not fatal.
 */

export const GOALS = {
  streamRatio: 12,
  /**
   * Issue 45 (was issue 27's 2,000 ms): the main thread's CPU for a 1 MB reply in 10,000 chunks, at most this many
   * times the no-op page's for the same stream in the same run. The same code measured 1.82 s on one machine and
   * 3.27 s on another: an absolute figure says more about the machine than the code.
   */
  stream10kCpuNoopFactor: 3,
  latencyP95Ms: 16,
  /** Issue 27 (was 1,500). */
  transcriptFirstPaintMs: 200,
  webviewKB: 300,
  webExtensionKB: 400,
  /** Issue 12: a saved 2,000-entry chat opened, and a switch to an open chat, each to first paint. */
  openSavedMs: 300,
  switchChatMs: 100,
  /** Issue 13: the host's time to prepare a prompt with ten 1 MiB files. */
  tenAttachmentsMs: 150,
  /** Issue 30: an elicitation form of 50 fields, the status's arrival to its first paint. */
  elicitationFormMs: 100,
};

/** The workbench figures (workbench.mjs): the longest main-thread task; memory growth as a multiple of the transcript's size. */
export const WORKBENCH_GOALS = { longTaskMs: 100, memoryFactor: 4 };

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of `pick(run)` over runs, rounded to 0.1. */
const med = (runs, pick) => Math.round(median(runs.map(pick)) * 10) / 10;

/** Figures from the raw runs: `{ large, small, transcript, noop }` are arrays of runs, `sizes` bytes. */
export function summarize({ large, small, transcript, noop, switches, forms, sizes, host, machine }) {
  const main = (runs) => ({
    cpuMs: med(runs, (r) => r.main.cpuMs),
    taskMs: med(runs, (r) => r.main.taskMs),
    scriptMs: med(runs, (r) => r.main.scriptMs),
    styleMs: med(runs, (r) => r.main.styleMs),
    layoutMs: med(runs, (r) => r.main.layoutMs),
    layouts: med(runs, (r) => r.main.layouts),
  });
  const stream = (runs) => ({ ...main(runs), wallMs: med(runs, (r) => r.wallMs), messages: runs[0].messages });
  const big = { ...stream(large), noopCpuMs: med(noop, (r) => r.main.cpuMs) };
  const little = stream(small);
  const ratio = (a, b) => Math.round((a / b) * 100) / 100;
  const spread = (runs, pick) => ({
    p50: med(runs, (r) => pick(r).p50),
    p95: med(runs, (r) => pick(r).p95),
    max: med(runs, (r) => pick(r).max),
  });
  const frames = (runs) => ({
    count: med(runs, (r) => r.frames.count),
    late: med(runs, (r) => r.frames.late),
    p50: med(runs, (r) => r.frames.p50),
    p95: med(runs, (r) => r.frames.p95),
  });
  return {
    stream10k: big,
    stream1k: little,
    streamRatio: ratio(big.cpuMs, little.cpuMs),
    streamRatioTaskDuration: ratio(big.taskMs, little.taskMs),
    latencyMs: {
      ...spread(large, (r) => r.latency),
      endToEndP50: med(large, (r) => r.endToEnd.p50),
      endToEndP95: med(large, (r) => r.endToEnd.p95),
      firstTenthP50: med(large, (r) => r.firstTenthP50),
      lastTenthP50: med(large, (r) => r.lastTenthP50),
      frames: frames(large),
      noop: spread(noop, (r) => r.latency),
    },
    /** The same latencies less the time the main thread sat idle waiting for the frame (see measure.mjs). */
    workingLatencyMs: { ...spread(large, (r) => r.working), noop: spread(noop, (r) => r.working) },
    transcript: {
      firstPaintMs: med(transcript, (r) => r.firstPaintMs),
      handlerMs: med(transcript, (r) => r.handlerMs),
      ...main(transcript),
    },
    elicitationForm: { firstPaintMs: med(forms, (r) => r.firstPaintMs), ...main(forms) },
    sizes: {
      webviewKB: Math.round(sizes.webview / 102.4) / 10,
      webExtensionKB: Math.round(sizes.webExtension / 102.4) / 10,
      ...sizes,
    },
    host,
    // The host's part (Node) plus the page's first render of the same 2,000 entries.
    sessions: {
      openSavedMs: Math.round(host.sessions.openHostMs + med(transcript, (r) => r.firstPaintMs)),
      switchChatMs: Math.round(host.sessions.switchHostMs + med(switches, (r) => r.switchMs)),
    },
    machine,
    runs: { stream10k: large.length, stream1k: small.length, transcript: transcript.length, noop: noop.length },
  };
}

/** Which goals are met. */
export function goalsMet(f) {
  return {
    streamRatio: f.streamRatio <= GOALS.streamRatio,
    stream10kCpu: f.stream10k.cpuMs <= GOALS.stream10kCpuNoopFactor * f.stream10k.noopCpuMs,
    // Judged without the display's frame wait: see README.md.
    latencyP95: f.workingLatencyMs.p95 <= GOALS.latencyP95Ms,
    transcriptFirstPaint: f.transcript.firstPaintMs <= GOALS.transcriptFirstPaintMs,
    webviewSize: f.sizes.webviewKB <= GOALS.webviewKB,
    webExtensionSize: f.sizes.webExtensionKB <= GOALS.webExtensionKB,
    openSaved: f.sessions.openSavedMs <= GOALS.openSavedMs,
    switchChat: f.sessions.switchChatMs <= GOALS.switchChatMs,
    tenAttachments: f.host.attachments.tenFilesMs <= GOALS.tenAttachmentsMs,
    elicitationForm: f.elicitationForm.firstPaintMs <= GOALS.elicitationFormMs,
  };
}

const verdict = (ok) => (ok ? 'met' : 'MISSED');

/** Prints the human-readable table. */
export function print(f, met, log = console.log) {
  const m = (x) =>
    `main thread ${x.cpuMs} ms CPU, ${x.taskMs} ms TaskDuration (script ${x.scriptMs}, style ${x.styleMs}, layout ${x.layoutMs} in ${x.layouts} layouts)`;
  const s = (x) => `${m(x)}; ${x.messages} messages, wall ${x.wallMs} ms`;
  log('');
  const noopTimes = GOALS.stream10kCpuNoopFactor;
  log(
    `Streamed reply, 1 MB in 10,000 chunks: ${s(f.stream10k)}  (goal <= ${noopTimes} x the no-op page's ${f.stream10k.noopCpuMs} ms = ` +
      `${Math.round(noopTimes * f.stream10k.noopCpuMs)} ms CPU: ${verdict(met.stream10kCpu)})`,
  );
  log(`Streamed reply, 1 MB in  1,000 chunks: ${s(f.stream1k)}`);
  log(
    `  ratio 10k/1k main-thread CPU: ${f.streamRatio}  (goal <= ${GOALS.streamRatio}: ${verdict(met.streamRatio)}); by TaskDuration ${f.streamRatioTaskDuration}`,
  );
  const l = f.latencyMs,
    w = f.workingLatencyMs;
  log(
    `Chunk apply-to-paint at 1,000 chunks/s, 60 Hz vsync: p50 ${l.p50} ms, p95 ${l.p95} ms, max ${l.max} ms; no-op page p50 ${l.noop.p50} ms, p95 ${l.noop.p95} ms`,
  );
  log(
    `  without the frame wait (the main thread's idle time before the frame taken out): p50 ${w.p50} ms, p95 ${w.p95} ms, max ${w.max} ms  ` +
      `(goal p95 <= ${GOALS.latencyP95Ms} ms: ${verdict(met.latencyP95)}); no-op page p50 ${w.noop.p50} ms, p95 ${w.noop.p95} ms`,
  );
  log(
    `  frames that painted a chunk: ${l.frames.late} of ${l.frames.count} done over 16.7 ms after their vsync (p50 ${l.frames.p50} ms, p95 ${l.frames.p95} ms)`,
  );
  log(`  per message, first tenth of the reply p50 ${l.firstTenthP50} ms, last tenth p50 ${l.lastTenthP50} ms`);
  log(
    `  agent-sent-to-paint (adds the host's batching, at most one post per 33 ms, and queueing): p50 ${f.latencyMs.endToEndP50} ms, p95 ${f.latencyMs.endToEndP95} ms`,
  );
  log(
    `2,000-entry transcript, arrival to first paint: ${f.transcript.firstPaintMs} ms  (goal <= ${GOALS.transcriptFirstPaintMs} ms: ${verdict(met.transcriptFirstPaint)})`,
  );
  log(`  message handler (parse, apply, render microtasks) ${f.transcript.handlerMs} ms; ${m(f.transcript)}`);
  log(
    `An elicitation form of 50 fields (every kind), arrival to first paint: ${f.elicitationForm.firstPaintMs} ms  (goal <= ${GOALS.elicitationFormMs} ms: ${verdict(met.elicitationForm)}); ${m(f.elicitationForm)}`,
  );
  const h = f.host.sessions;
  log(
    `Open a saved 2,000-entry chat (${h.savedKB} KB saved, ${h.savedEntries} entries) to first paint: ${f.sessions.openSavedMs} ms  (goal <= ${GOALS.openSavedMs} ms: ${verdict(met.openSaved)}): ` +
      `host ${h.openHostMs} ms (parse, check, new ids, diff, serialise; Node) + the page's first render`,
  );
  log(
    `Switch to an open 2,000-entry chat to first paint: ${f.sessions.switchChatMs} ms  (goal <= ${GOALS.switchChatMs} ms: ${verdict(met.switchChat)}): host ${h.switchHostMs} ms + the page showing the list it kept (the host sends a patch of what the chat gained meanwhile)`,
  );
  log(
    `  three hidden chats streaming 1,000 chunks/s each: ${h.hiddenStreamMsPerSecond} ms of host reducer time per second, and nothing posted to the view`,
  );
  log(
    `Prepare a prompt with ten 1 MiB files: ${f.host.attachments.tenFilesMs} ms host time  (goal <= ${GOALS.tenAttachmentsMs} ms: ${verdict(met.tenAttachments)}): ` +
      `each read through the descriptor walk, checked as UTF-8, embedded, and the ${f.host.attachments.promptMiB} MiB session/prompt serialised (Node)`,
  );
  log(`dist/webview/webview.js: ${f.sizes.webviewKB} KB  (goal <= ${GOALS.webviewKB} KB: ${verdict(met.webviewSize)})`);
  log(
    `dist/web/extension.js:   ${f.sizes.webExtensionKB} KB  (goal <= ${GOALS.webExtensionKB} KB: ${verdict(met.webExtensionSize)})`,
  );
  log(
    `Host side in Node (reducer + diffEntries + status JSON): 10k chunks ${f.host.stream10kMs} ms, 1k chunks ${f.host.stream1kMs} ms; ` +
      `the webview's schema parsing the ${f.host.transcriptKB} KB transcript message (Node): ${f.host.transcriptParseMs} ms`,
  );
  log(
    `(medians of ${f.runs.stream10k} runs of each; KB = 1024 bytes; ${f.machine.cpus} CPUs, load average ${f.machine.loadBefore} before, ${f.machine.loadAfter} after)`,
  );
  if (Math.max(f.machine.loadBefore, f.machine.loadAfter) > f.machine.cpus) {
    log(
      'warning: the machine was busy with other work: wall-clock figures (latencies, first paint, TaskDuration) are inflated; CPU times much less so.',
    );
  }
}

/** The workbench figures (workbench.mjs). */
export function printWorkbench(f, log = console.log) {
  const { goals, met } = f;
  log('');
  log(`Workbench (code-server, Node extension host, scripted agent; a new chat per chunk; medians of ${f.runs} runs):`);
  log('  the chat webview is same-origin with the workbench: one renderer main thread and one V8 heap run both');
  for (const [key, label] of [
    ['chunk8MiB', '8 MiB chunk'],
    ['chunk16MiB', '16 MiB chunk (less 1 KiB: its JSON line stays under the 16 MiB limit)'],
  ]) {
    const c = f[key];
    log(
      `  ${label}, ${c.chars.toLocaleString('en-US')} characters in one agent_message_chunk; prompt sent to shown ${c.shownMs} ms:`,
    );
    log(
      `    longest main-thread task ${c.longestMs} ms  (goal <= ${goals.longTaskMs} ms: ${verdict(met[key === 'chunk8MiB' ? 'workbenchLongTask8MiB' : 'workbenchLongTask16MiB'])}); ` +
        `longest working for the workbench ${c.workbenchMs} ms, for the webview ${c.webviewMs} ms; ${c.over100} task(s) over 100 ms; per run ${c.perRun.join(', ')} ms`,
    );
    for (const l of c.long) {
      log(
        `    median run's task of ${l.ms} ms for the ${l.owner}, begun by ${l.first}: script ${l.scriptMs} ms, style+layout ${l.styleLayoutMs} ms, paint ${l.paintMs} ms, GC ${l.gcMs} ms`,
      );
    }
    log(
      `    slowest answer to page.evaluate(() => 1), every 100 ms: workbench ${c.probeMs.workbench} ms, chat webview ${c.probeMs.webview} ms`,
    );
  }
  const w = f.shapes.worst;
  log(
    `  hostile shapes (8 MiB of one letter, base64, CJK, emoji and combining marks, RTL, Thai, mixed directions; one chunk and 10,000), longest renderer task by CPU:`,
  );
  log(
    `    worst ${w.cpuMs} ms (${w.case})  (goal <= ${goals.longTaskMs} ms: ${verdict(met.workbenchShapes)}); ${f.shapes.cases.map((c) => `${c.case.replace(/^shape /, '')} ${c.cpuMs}`).join(', ')}`,
  );
  const t = f.transcript,
    limit = goals.memoryFactor * t.mib;
  const grew = (x, unit = 'MiB') => `${x.before} -> ${x.after} ${unit} (${x.delta >= 0 ? '+' : ''}${x.delta})`;
  log(
    `  ${t.mib} MiB transcript: ${t.turns} turns of ${t.messages / t.turns} messages of ${t.messageKiB} KiB of Markdown, a tool call after each; ` +
      `${t.shown.entries} entries, ${t.shown.chars.toLocaleString('en-US')} characters in the view (${t.shown.markdownEntries} answers in the page, ${t.shown.markdownFar} of them far); arrived and shown in ${t.wallS} s`,
  );
  if (t.host) {
    log(
      `    extension host: JS heap after GC ${grew(t.host.heapMiB)}  (goal: growth <= ${limit} MiB: ${verdict(met.workbenchHostMemory)}); RSS ${grew(t.host.rssMiB)}`,
    );
  } else {
    log(`    extension host: not measured (${t.hostError})`);
  }
  const r = t.renderer;
  log(
    `    webview (the renderer's heap, the workbench's included): JS heap after GC ${grew(r.heapMiB)}, DOM (Blink objects in V8's heap) ${grew(r.embedderMiB)}; ` +
      `together +${Math.round((r.heapMiB.delta + r.embedderMiB.delta) * 10) / 10} MiB  (goal: growth <= ${limit} MiB: ${verdict(met.workbenchWebviewMemory)}); renderer RSS ${grew(r.rssMiB)}`,
  );
  log(`  (${f.machine.cpus} CPUs, load average ${f.machine.loadBefore} before, ${f.machine.loadAfter} after)`);
}

export function benchLine(f, met) {
  return `BENCH ${JSON.stringify({ ...f, goals: GOALS, met })}`;
}
