/**
 * Checkpoint figures (issue 15): the real WorkspaceCheckpoints on a generated
 * folder of 20,000 source files (plus 2,000 ignored ones in node_modules).
 * - turn start: the pass every prompt waits for, nothing changed since the
 *   last turn (goal <= 200 ms); and after the user edited 100 files.
 * - turn end: the pass after the agent edited 100 files.
 * - Undo All of those 100 files (goal <= 500 ms).
 * - the first pass (every file copied once), with no goal: it runs when a
 *   chat connects, before its first prompt; and the first pass of the next
 *   window, which starts from the index the last one kept.
 * - a prompt sent while a new window's first pass runs (issue 32): a second
 *   into it (goal <= 100 ms), and as the chat connects (its scan is waited for).
 * The median over runs. `node test/bench/checkpoints.mjs [--runs=N]` runs it
 * alone; `npm run bench` calls `benchCheckpoints({ runs, log })`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { importForNode } from './build.mjs';

const GOALS = { turnStartMs: 200, undoAll100Ms: 500, promptDuringFirstPassMs: 100 };
/** In a clean Git checkout (issue 32): the first pass copies nothing. */
const GIT_GOALS = {
  firstPassMs: 1000,
  firstPassMB: 0,
  turnStartMs: 100,
  turnStartAfterEditsMs: 150,
  undoAll100Ms: 500,
};
const KEYS = [
  'firstPassMs',
  'reloadPassMs',
  'turnStartMs',
  'turnStartAfterEditsMs',
  'turnEndMs',
  'undoAll100Ms',
  'storeMB',
  'firstPassMB',
  'promptAtConnectMs',
  'promptDuringFirstPassMs',
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x) => Math.round(x * 10) / 10;

export async function benchCheckpoints({ runs, log, files = 20_000 }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-checkpoint-code-'));
  try {
    const { checkpointRun } = await importForNode('checkpointWork.ts', path.join(dir, 'checkpointWork.mjs'));
    const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim() || undefined;
    const all = { plain: [], git: [] };
    for (let i = 1; i <= runs; i++) {
      for (const kind of git ? ['plain', 'git'] : ['plain']) {
        const run = await checkpointRun(files, kind === 'git' ? git : undefined);
        all[kind].push(run);
        log(
          `checkpoints run ${i}/${runs}${kind === 'git' ? ' (Git checkout)' : ''}: first pass ${run.firstPassMs.toFixed(0)} ms, ${run.firstPassMB.toFixed(1)} MB copied (${run.reloadPassMs.toFixed(0)} ms in the next window), turn start ${run.turnStartMs.toFixed(0)} ms ` +
            `(${run.turnStartAfterEditsMs.toFixed(0)} ms after 100 user edits), turn end ${run.turnEndMs.toFixed(0)} ms, Undo All 100 ${run.undoAll100Ms.toFixed(0)} ms, a prompt during the first pass ${run.promptDuringFirstPassMs.toFixed(0)} ms (${run.promptAtConnectMs.toFixed(0)} ms at connect), load ${os.loadavg()[0].toFixed(1)}`,
        );
      }
    }
    const medians = (runsOf) => Object.fromEntries(KEYS.map((key) => [key, round(median(runsOf.map((r) => r[key])))]));
    const figures = { files, ...medians(all.plain) };
    figures.met = {
      checkpointTurn: figures.turnStartMs <= GOALS.turnStartMs,
      undoAll: figures.undoAll100Ms <= GOALS.undoAll100Ms,
      promptDuringFirstPass: figures.promptDuringFirstPassMs <= GOALS.promptDuringFirstPassMs,
    };
    if (all.git.length > 0) {
      figures.git = medians(all.git);
      figures.met.git = Object.fromEntries(
        Object.entries(GIT_GOALS).map(([key, goal]) => [key, figures.git[key] <= goal]),
      );
    }
    return figures;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function printCheckpoints(f, log) {
  const mark = (ok) => (ok ? 'met' : 'MISSED');
  log(
    `Checkpoints, ${f.files} files: turn start ${f.turnStartMs} ms (goal <= ${GOALS.turnStartMs}: ${mark(f.met.checkpointTurn)}), ` +
      `${f.turnStartAfterEditsMs} ms after 100 user edits; turn end ${f.turnEndMs} ms; Undo All of 100 files ${f.undoAll100Ms} ms ` +
      `(goal <= ${GOALS.undoAll100Ms}: ${mark(f.met.undoAll)}); first pass ${f.firstPassMs} ms (${f.reloadPassMs} ms in the next window), copies ${f.storeMB} MB; ` +
      `a prompt during the first pass waits ${f.promptDuringFirstPassMs} ms (goal <= ${GOALS.promptDuringFirstPassMs}: ${mark(f.met.promptDuringFirstPass)}), ${f.promptAtConnectMs} ms sent as the chat connects (the scan)`,
  );
  if (!f.git) return log('Checkpoints in a Git checkout: not measured (no git on PATH)');
  const g = f.git;
  const m = (key) => `goal <= ${GIT_GOALS[key]}: ${mark(f.met.git[key])}`;
  log(
    `Checkpoints in a clean Git checkout of the same files: first pass ${g.firstPassMs} ms (${m('firstPassMs')}), ${g.firstPassMB} MB copied (${m('firstPassMB')}); ` +
      `turn start ${g.turnStartMs} ms (${m('turnStartMs')}), ${g.turnStartAfterEditsMs} ms after 100 user edits (${m('turnStartAfterEditsMs')}); ` +
      `turn end ${g.turnEndMs} ms; Undo All of 100 files ${g.undoAll100Ms} ms (${m('undoAll100Ms')}); next window's first pass ${g.reloadPassMs} ms`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((a) => a.startsWith('--runs=')) ?? '')?.[1] ?? 3);
  const figures = await benchCheckpoints({ runs, log: console.log });
  printCheckpoints(figures, console.log);
  console.log(`BENCH ${JSON.stringify({ checkpoints: figures, met: figures.met })}`);
}
