/**
 * Issue 30's queue figure, in a real workbench (code-server, its Node
 * extension host, checkpoints on: Workspace Trust is off) with the scripted
 * agent: a prompt queued while a turn runs must be sent within 50 ms of that
 * turn's end. The agent stamps the moment it ends the turn (its last step,
 * just before it answers `session/prompt`) and the moment the queued prompt
 * reaches it (its first step); the figure is the time between, everything
 * the extension does in between included (the turn's updates drained, the
 * checkpoint after the turn, the one before the next, the prompt put
 * together). One stamp file, one clock: the agent's.
 *
 * `benchQueue({ runs, log })` returns `{ sendMs: median, perRun, goalMs, met }`;
 * `node test/bench/queue.mjs [--runs=N]` runs it alone (after `npm run build`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../harness/code-server.mjs';
import { openScenarioChat } from '../harness/scenarioChat.mjs';
import { median } from './report.mjs';

export const QUEUE_GOAL_MS = 50;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`bench: ${what} not within ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

export async function benchQueue({ runs = 3, log = () => undefined }) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-queue-'));
  const stamps = `${folder}-stamps`;
  // A workspace of 2,000 files, so that the checkpoints before and after each turn have something to look at.
  for (let d = 0; d < 20; d++) {
    fs.mkdirSync(path.join(folder, `mod${d}`));
    for (let i = 0; i < 100; i++) {
      fs.writeFileSync(path.join(folder, `mod${d}`, `file${i}.ts`), `export const v${i} = ${i};\n`.repeat(40));
    }
  }
  const read = () =>
    fs.existsSync(stamps)
      ? fs
          .readFileSync(stamps, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split(' '))
      : [];
  const session = await openScenarioChat({
    folder,
    name: 'Bench Agent',
    scenario: {
      description: 'queue bench',
      turns: [
        {
          match: '^queue-first',
          steps: [{ text: 'Working.' }, { sleep: 1500 }, { stamp: { file: stamps, name: 'end' } }],
        },
        { match: '^queue-next', steps: [{ stamp: { file: stamps, name: 'start' } }, { text: 'Next done.' }] },
      ],
    },
  });
  const perRun = [];
  try {
    for (let i = 1; i <= runs; i++) {
      await session.send(`queue-first ${i}`);
      await session.chat.getByText('Working.').last().waitFor({ timeout: 20_000 });
      await session.send(`queue-next ${i}`);
      await session.chat.getByRole('region', { name: 'Queued prompts' }).waitFor({ timeout: 10_000 });
      await until('the queued prompt at the agent', () => read().filter(([name]) => name === 'start').length === i);
      const lines = read();
      const end = Number(lines.filter(([name]) => name === 'end')[i - 1][1]);
      const start = Number(lines.filter(([name]) => name === 'start')[i - 1][1]);
      const ms = Math.round((start - end) * 10) / 10;
      perRun.push(ms);
      log(
        `queue run ${i}/${runs}: turn end to the queued prompt at the agent ${ms} ms; load ${os.loadavg()[0].toFixed(1)}`,
      );
      await session.chat.getByText('Next done.').last().waitFor({ timeout: 20_000 });
      await runCommand(session.page, 'ACP: New Chat');
      await sleep(1000); // the agent's session/new
    }
  } finally {
    await session.close();
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(stamps, { force: true });
  }
  const sendMs = Math.round(median(perRun) * 10) / 10;
  return { sendMs, perRun, goalMs: QUEUE_GOAL_MS, met: sendMs <= QUEUE_GOAL_MS };
}

export function printQueue(f, log = console.log) {
  log('');
  log(
    `Queue (code-server, Node extension host, checkpoints on, scripted agent): a prompt queued during a turn reaches the agent ` +
      `${f.sendMs} ms after the turn's end, median of ${f.perRun.length}  (goal <= ${f.goalMs} ms: ${f.met ? 'met' : 'MISSED'}); per run ${f.perRun.join(', ')} ms`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 3);
  const figures = await benchQueue({ runs, log: console.log });
  printQueue(figures);
  process.exit(0);
}
