/**
 * Issue 45's host figure: what an open long chat costs the extension host
 * while nothing happens. A real workbench (code-server, its Node extension
 * host, the extension from dist/) shows the chat; the scripted agent answers
 * ten prompts with 200 entries each (thoughts, answers of seeded Markdown,
 * edits with their diffs, reads, all finished): 2,010 entries. SETTLE_MS after
 * the last turn, the processes' CPU time (utime + stime from /proc/<pid>/stat) over 10 idle
 * seconds: the extension host, and beside it the workbench's renderer (the
 * workbench and the chat's webview: one process) and code-server's server.
 * The same before the first prompt (the chat open and connected, empty) is
 * the baseline: what code-server and the extension cost idle anyway. VS Code's
 * own port finder is turned off (QUIET_SETTINGS), so that the host's figure is the extensions'.
 *
 * `benchIdleHost({ generator, log })` returns the figures; longChats.mjs
 * prints them. Needs `npm run build` (dist/node, dist/test/agent.js).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openScenarioChat } from '../harness/scenarioChat.mjs';
import { extensionHostPid, rendererPid } from '../harness/inspector.mjs';

const TURNS = 10;
/** Each step makes one entry: a thought, an answer, an edit with its diff, a read. */
const GROUPS_PER_TURN = 50;
const IDLE_MS = 10_000;
/**
 * How long after the last turn (and after connecting, for the baseline) the idle seconds begin. A turn's end leaves
 * work behind it for a while: the history's save, the checkpoints' pass, and the host's garbage collector and other
 * native work (in a CPU profile of the host then, no script of ours). Measured 2026-12-06: 1.0-1.3 % of a core in the
 * 10 s right after a turn, 0-0.1 % from 15 s on. A chat left open all day is judged on the latter.
 */
const SETTLE_MS = 30_000;
const TURN_TIMEOUT_MS = 5 * 60_000;

/**
 * VS Code's remote port finder (findCandidatePorts in the extension host) looks
 * through /proc for ports to forward every second: ~3 % of a core in code-server's
 * extension host, with or without this extension (measured 2026-12-06). Told to take
 * ports from terminal output instead, it stops, and what is left is the extensions'.
 */
const QUIET_SETTINGS = { 'remote.autoForwardPorts': false, 'remote.autoForwardPortsSource': 'output' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** User plus system CPU time of `pid` in ms (fields 14 and 15 of /proc/<pid>/stat, after the name's ')'). */
function cpuMs(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** Each process's CPU over IDLE_MS of nothing, as a percentage of one core. */
async function idleCpu(pids) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const start = performance.now();
  await sleep(IDLE_MS);
  const seconds = (performance.now() - start) / 1000;
  return Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, Math.round((cpuMs(pid) - before[name]) / seconds) / 10]),
  );
}

/** One turn's steps: GROUPS_PER_TURN times a thought, an answer, an edit with its diff and a read, all finished. */
function turnSteps(generator, rng, t) {
  return Array.from({ length: GROUPS_PER_TURN }, (_, g) => {
    const file = `\${cwd}/src/module${g % 12}/file${t}.ts`;
    const before = generator.sourceFile(rng, 40 + Math.floor(rng() * 80));
    return [
      { thought: generator.markdown(rng, 200 + Math.floor(rng() * 400)) },
      { text: generator.markdown(rng, 300 + Math.floor(rng() * 2700)) },
      {
        toolCall: {
          toolCallId: `edit-${t}-${g}`,
          title: `Edit src/module${g % 12}/file${t}.ts`,
          kind: 'edit',
          status: 'completed',
          locations: [{ path: file }],
          content: [{ type: 'diff', path: file, oldText: before, newText: generator.editedFile(rng, before) }],
        },
      },
      {
        toolCall: {
          toolCallId: `read-${t}-${g}`,
          title: `Read src/module${g % 12}/index.ts`,
          kind: 'read',
          status: 'completed',
          locations: [{ path: `\${cwd}/src/module${g % 12}/index.ts`, line: 1 }],
        },
      },
    ];
  }).flat();
}

async function playTurns(session, log) {
  const entriesAfter = (t) => t * (1 + 4 * GROUPS_PER_TURN);
  for (let t = 1; t <= TURNS; t++) {
    await session.send(`long chat turn ${t}`);
    const deadline = Date.now() + TURN_TIMEOUT_MS;
    // Counted, not watched: a turn may start and end between two looks.
    while (
      !(await session.chat.evaluate((n) => {
        const app = document.querySelector('acp-chat-app');
        return app.entries.length >= n && app.status.turn === 'idle';
      }, entriesAfter(t)))
    ) {
      if (Date.now() > deadline) throw new Error(`bench: turn ${t} of the long chat not shown in time`);
      await sleep(250);
    }
    log(`long chat in the workbench: turn ${t}/${TURNS} shown; load ${os.loadavg()[0].toFixed(1)}`);
  }
  return session.chat.evaluate(() => document.querySelector('acp-chat-app').entries.length);
}

/** The idle figures (see the top of this file). */
export async function benchIdleHost({ generator, log = () => undefined }) {
  const rng = generator.seededRandom(4545);
  const turns = Array.from({ length: TURNS }, (_, t) => ({ steps: turnSteps(generator, rng, t + 1) }));
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-idle-'));
  const session = await openScenarioChat({
    folder,
    name: 'Bench Agent',
    scenario: { description: 'idle', turns },
    userSettings: QUIET_SETTINGS,
  });
  try {
    const { wb, page } = session;
    const pids = {
      host: extensionHostPid(wb.server.pid),
      renderer: await rendererPid(wb.browser, page),
      server: wb.server.pid,
    };
    await sleep(SETTLE_MS);
    const baseline = await idleCpu(pids);
    log(`long chat in the workbench: idle baseline (empty chat) ${JSON.stringify(baseline)} % of a core`);
    const entries = await playTurns(session, log);
    await sleep(SETTLE_MS);
    const idle = await idleCpu(pids);
    log(`long chat in the workbench: ${entries} entries, idle ${JSON.stringify(idle)} % of a core`);
    return { entries, baselinePct: baseline, idlePct: idle, idleS: IDLE_MS / 1000, settleS: SETTLE_MS / 1000 };
  } finally {
    await session.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
