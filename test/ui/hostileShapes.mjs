/**
 * The shapes of text an agent really sends in one piece, each 8 MiB (of
 * UTF-8) as one `agent_message_chunk` (with a short chunk before and after
 * it) and as 10,000 chunks, plus one line of 16 MiB less 1 KiB: the view must lay each
 * out without blocking the workbench. Chromium's time to lay out one block
 * of text depends on what the text is, not only on its length (34 s for
 * 262,144 characters of Thai, 22 s for alternating Latin and Hebrew, 36 ms
 * for as many `x`: see webview/shared/text-pieces.ts), so an 8 MiB chunk of
 * `x` being fine said nothing about the rest.
 *
 * Used by the UI tests of both hosts and by the workbench bench.
 */
import { runCommand } from '../harness/code-server.mjs';

const MiB = 1024 * 1024;
const SIZE = 8 * MiB;
const CHUNKS = 10_000;

export const SHAPES = [
  { name: 'letter', fill: 'a' },
  { name: 'base64', fill: 'QmFzZTY0IGVuY29kZWQrZGF0YS9saWtlPQ' },
  { name: 'cjk', fill: '漢字かなカナ한국어中文没有空格' },
  { name: 'emoji-combining', fill: '👩‍👩‍👧e\u0301\u0323😀🏳️‍🌈a\u0308' },
  { name: 'rtl', fill: 'שלוםעולםمرحباالعالم' },
  { name: 'thai', fill: 'ภาษาไทยไม่เว้นวรรค' },
  { name: 'bidi-mixed', fill: 'aא' },
];

/** Each case: a shape, sent as one chunk or as many; and the 16 MiB-less-1-KiB line. */
export const CASES = [
  ...SHAPES.flatMap((s) => [
    { ...s, how: 'one' },
    { ...s, how: 'many' },
  ]),
  { name: 'line16MiB', fill: 'a', how: 'one', size: 16 * MiB - 1024 },
  // Markdown paragraphs just under the length at which one is shown as plain text.
  { name: 'bidi-paragraphs', fill: `${'aא'.repeat(1000)}\n\n`, how: 'one' },
  { name: 'thai-paragraphs', fill: `${'ภาษาไทยไม่เว้นวรรค'.repeat(110)}\n\n`, how: 'one' },
  // One Markdown block that keeps growing as it streams: each update lexes and lays out the open block.
  { name: 'one-list', fill: '- an item of one endless list\n', how: 'many' },
  { name: 'one-table', fill: '| a | table that never ends |\n|---|---|\n', how: 'many' },
  { name: 'one-quote', fill: '> a quote that never ends\n', how: 'many' },
  // What an agent sends besides text (issue 45): each was bounded where it is applied, and the view must stay light.
  ...agentShapes(),
];

/** Updates, not text: lists an agent can grow, names that hide what they are, a cycle in the subagents' parents. */
function agentShapes() {
  const many = (count, make) => Array.from({ length: count }, (_, i) => make(i));
  const update = (u) => ({ update: u });
  const of = (parent) => ({ _meta: { claudeCode: { parentToolUseId: parent } } });
  const zalgo = `a${'\u0301'.repeat(10_000)}`;
  const call = (id, title, extra = {}) => ({
    toolCall: { toolCallId: id, title, kind: 'read', status: 'in_progress', ...extra },
  });
  return [
    {
      name: 'plan-100k',
      steps: [
        update({
          sessionUpdate: 'plan',
          entries: many(100_000, (i) => ({ content: `Step ${i}`, priority: 'low', status: 'pending' })),
        }),
      ],
    },
    {
      name: 'compactions-10k',
      steps: many(10_000, (i) =>
        update({ sessionUpdate: 'compaction_update', compactionId: `k${i}`, status: 'completed' }),
      ),
    },
    {
      name: 'notices-10k',
      steps: many(10_000, (i) => update({ sessionUpdate: 'notice', severity: 'info', title: `Notice ${i}` })),
    },
    {
      name: 'hidden-names',
      steps: [
        call('bidi', 'Open photo\u202egnp.exe', { locations: [{ path: '/w/photo\u202egnp.exe' }] }),
        call('marks', `Read ${zalgo}`, { rawInput: { command: zalgo } }),
        { text: `Renamed to photo\u202egnp.exe ${zalgo}` },
      ],
    },
    {
      name: 'subagent-cycle',
      steps: [
        call('B', 'B'),
        call('A', 'A', of('B')),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'B', ...of('A') }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'A', status: 'failed', ...of('B') }),
      ],
    },
  ].map((c) => ({ ...c, fill: '', how: 'steps' }));
}

export const caseName = (c) => `shape ${c.name} ${c.how}`;

/**
 * Characters of `fill` in `bytes` of UTF-8: a message is bounded in bytes
 * (16 MiB a line, src-node/agentOutput/messageLimit.ts), and 8 MiB of Thai characters
 * would be 24 MiB, a message the client refuses.
 */
const charsIn = (bytes, fill) => Math.floor(bytes / (Buffer.byteLength(fill) / fill.length));

/** The scenario turns that play every case (the prompt is the case's name). */
export function shapeTurns() {
  return CASES.map((c) => {
    if (c.how === 'steps') return { match: `^${caseName(c)}$`, steps: [...c.steps, { text: 'done' }] };
    if (c.how === 'one') {
      return {
        match: `^${caseName(c)}$`,
        steps: [
          { text: 'before ' },
          { bigText: { size: charsIn(c.size ?? SIZE, c.fill), fill: c.fill } },
          { text: ' after' },
        ],
      };
    }
    const repeat = c.fill.repeat(Math.ceil(charsIn(SIZE, c.fill) / CHUNKS / c.fill.length));
    return { match: `^${caseName(c)}$`, steps: [{ stream: { repeat, chunks: CHUNKS, intervalMs: 0 } }] };
  });
}

/** What a trace needs to give every task of the renderers' main threads with its CPU time. */
const CATEGORIES = ['toplevel', 'blink.user_timing', '__metadata', 'devtools.timeline'];
const TASK = 'ThreadControllerImpl::RunTask';

/**
 * The longest task of any renderer main thread (the workbench's, and the
 * webview's where it has a process of its own) between two marks, by CPU
 * time: the thread's own work, which the machine's load does not stretch.
 */
function longestTask(events, from, to) {
  const start = events.find((e) => e.name === from)?.ts,
    end = events.find((e) => e.name === to)?.ts;
  if (start === undefined || end === undefined) throw new Error('the trace lacks the marks');
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let longest;
  for (const e of events) {
    if (e.name !== TASK || e.ph !== 'X' || !mains.has(`${e.pid}:${e.tid}`) || e.ts + e.dur < start || e.ts > end) {
      continue;
    }
    if (!longest || (e.tdur ?? e.dur) > (longest.tdur ?? longest.dur)) longest = e;
  }
  if (!longest) return { cpuMs: 0, wallMs: 0, did: '' };
  // What the task spent its time on: the timeline events inside it, by name (nested ones count in each).
  const did = new Map();
  for (const e of events) {
    if (
      e.ph !== 'X' ||
      e.pid !== longest.pid ||
      e.tid !== longest.tid ||
      e === longest ||
      e.ts < longest.ts ||
      e.ts > longest.ts + longest.dur
    ) {
      continue;
    }
    did.set(e.name, (did.get(e.name) ?? 0) + e.dur / 1000);
  }
  const top = [...did]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, ms]) => `${name} ${Math.round(ms)} ms`)
    .join(', ');
  return {
    cpuMs: Math.round((longest.tdur ?? longest.dur) / 100) / 10,
    wallMs: Math.round(longest.dur / 100) / 10,
    did: top,
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Plays every case in a new chat of the open workbench and returns, per
 * case, the longest renderer task from Enter until the turn has ended and
 * been painted. `chat` is the chat view's frame, `box` its prompt box.
 */
export async function measureShapes({ page, chat, box, log = () => undefined, cases = CASES }) {
  const browser = page.context().browser();
  const results = [];
  for (const c of cases) {
    await runCommand(page, 'ACP: New Chat');
    await chat.waitForFunction(() => document.querySelector('acp-chat-app')?.entries.length === 0, undefined, {
      timeout: 20_000,
    });
    await sleep(1000); // the agent's session/new
    await box.fill(caseName(c));
    await browser.startTracing(page, { categories: CATEGORIES });
    let events;
    const started = Date.now();
    try {
      await page.evaluate(() => performance.mark('shape-sent'));
      await box.press('Enter');
      await chat.waitForFunction(
        () => {
          const app = document.querySelector('acp-chat-app');
          return app.entries.some((e) => e.kind === 'assistant') && app.status.turn === 'idle';
        },
        undefined,
        { timeout: 180_000, polling: 100 },
      );
      // The message itself, not a refusal of it (an agent ended for a message over the limit also ends the turn).
      const failed = await chat.evaluate(() =>
        document
          .querySelector('acp-chat-app')
          .entries.filter((e) => e.kind === 'notice' && e.level !== 'info')
          .map((e) => e.text),
      );
      if (failed.length > 0) throw new Error(`${caseName(c)}: the turn did not end well: ${failed.join('; ')}`);
      await chat.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.evaluate(() => performance.mark('shape-shown'));
    } finally {
      events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    }
    const r = { case: caseName(c), shownMs: Date.now() - started, ...longestTask(events, 'shape-sent', 'shape-shown') };
    log(
      `${r.case}: shown after ${r.shownMs} ms; longest renderer task ${r.cpuMs} ms CPU (${r.wallMs} ms wall${r.did ? `: ${r.did}` : ''})`,
    );
    results.push(r);
  }
  return results;
}
