#!/usr/bin/env node
/**
 * npm run mutate: Stryker over the security core, one part at a time (each
 * with its own report under reports/mutation/, so a part's results survive
 * the next part's run), then the score per part, the
 * survivors that test/mutation/survivors.json does not explain, and a last
 * line `MUTATION {json}`. Exit 1 when a part is under 90%, was not run, or
 * has a survivor nobody explained.
 *
 *   npm run mutate                     every part, every mutant
 *   npm run mutate -- bridge terminals only these parts (the others' last results are still reported)
 *   npm run mutate -- bridge:src-node/bridge/options.ts
 *                                      one file of a part again: its results replace that file's in the
 *                                      part's last report (the other files keep theirs; the part's time stays)
 *   npm run mutate -- --report         only print the last results again
 *   npm run mutate -- --incremental    reuse results of unchanged code and tests (quicker, while
 *                                      killing survivors; not for the figures: Stryker 10 reuses a
 *                                      static mutant's old "survived" even after a new test kills it)
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS = path.join(ROOT, 'reports/mutation');
const EXPLAINED = path.join(ROOT, 'test/mutation/survivors.json');
const GOAL = 90;

/** The parts of the security core (issue 16): what Stryker mutates in each. */
const PARTS = [
  { name: 'workspace-files', mutate: ['src-node/workspaceFs/**/*.ts'] },
  { name: 'terminals', mutate: ['src-node/terminals/**/*.ts'] },
  { name: 'bridge', mutate: ['src-node/bridge/**/*.ts', '!src-node/bridge/main.ts'] },
  { name: 'capabilities', mutate: ['src/capabilities.ts'] },
  { name: 'permissions', mutate: ['src/shared/permissions.ts'] },
  { name: 'path-checks', mutate: ['src-node/paths/pathInside.ts'] },
  // The Markdown renderer: link targets, character references, and the templates agent text goes into.
  // Code blocks (code-block.ts, highlight.ts) build DOM nodes and are checked in Chromium only (test/webview).
  // Its static mutants (module-level values: the ~150 names of the entity table) would each run the whole unit suite
  // (an hour for this part on 2 cores): Stryker skips them here (ignoreStatic, counted as ignored).
  {
    name: 'markdown',
    mutate: [
      'webview/markdown/linkTarget.ts',
      'webview/markdown/entities.ts',
      'webview/markdown/render-inline.ts',
      'webview/markdown/render-blocks.ts',
    ],
    options: { ignoreStatic: true },
  },
  { name: 'thread-reducer', mutate: ['src/shared/thread/threadReducer.ts'] },
];

const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
/** part name -> the one file to run again (undefined: the whole part). */
const named = new Map(args.map((a) => [a.split(':')[0], a.includes(':') ? a.slice(a.indexOf(':') + 1) : undefined]));
const unknown = [
  ...args.filter(
    (a) =>
      !PARTS.some((p) => p.name === a.split(':')[0]) ||
      (a.includes(':') && !fs.existsSync(path.join(ROOT, a.slice(a.indexOf(':') + 1)))),
  ),
  ...[...flags].filter((f) => f !== '--report' && f !== '--incremental'),
];
if (unknown.length) {
  process.stdout.write(
    `not a part or option: ${unknown.join(', ')} (parts: ${PARTS.map((p) => p.name).join(', ')}; options: --report, --incremental)\n`,
  );
  process.exit(2);
}
fs.mkdirSync(REPORTS, { recursive: true });
const reportOf = (part) => path.join(REPORTS, `${part.name}.json`);
const timingOf = (part) => path.join(REPORTS, `${part.name}.seconds`);

if (!flags.has('--report')) {
  // Stryker 10 needs Node 22 or later: the harness's Node 24 (`node test/run.mjs setup` installs it) where this one is older.
  const { NODE24 } = await import('../test/harness/paths.mjs');
  const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : NODE24;
  if (!fs.existsSync(node)) {
    process.stdout.write(
      `Stryker needs Node 22 or later; run \`node test/run.mjs setup\` once to install the harness's Node 24 (${NODE24}).\n`,
    );
    process.exit(1);
  }
  const base = JSON.parse(fs.readFileSync(path.join(ROOT, 'stryker.config.json'), 'utf8'));
  const stryker = path.join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js');
  for (const part of PARTS.filter((p) => named.size === 0 || named.has(p.name))) {
    const file = named.get(part.name);
    if (file && !fs.existsSync(reportOf(part))) {
      process.stdout.write(`${part.name} has no report yet to put ${file} into: run the whole part first.\n`);
      process.exit(1);
    }
    const config = path.join(REPORTS, `${part.name}.config.json`);
    const report = file ? path.join(REPORTS, `${part.name}.file.json`) : reportOf(part);
    fs.writeFileSync(
      config,
      JSON.stringify(
        {
          ...base,
          $schema: undefined,
          mutate: file ? [file] : part.mutate,
          ...part.options,
          incrementalFile: path.join(REPORTS, `${part.name}.incremental.json`),
          jsonReporter: { fileName: report },
        },
        null,
        2,
      ),
    );
    process.stdout.write(`\n=== mutate ${part.name}: ${file ?? part.mutate.join(' ')}\n`);
    const started = Date.now();
    const run = spawnSync(node, [stryker, 'run', config, ...(flags.has('--incremental') ? ['--incremental'] : [])], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` },
    });
    if (run.status !== 0) {
      process.stdout.write(`stryker exited with ${run.status} for ${part.name}\n`);
      process.exit(1);
    }
    if (file) {
      // Only that file's results change; the part's time stays the whole run's.
      const whole = JSON.parse(fs.readFileSync(reportOf(part), 'utf8'));
      const again = JSON.parse(fs.readFileSync(report, 'utf8'));
      const key = Object.keys(again.files)[0];
      whole.files[Object.keys(whole.files).find((f) => path.resolve(ROOT, f) === path.resolve(ROOT, key)) ?? key] =
        again.files[key];
      fs.writeFileSync(reportOf(part), JSON.stringify(whole));
      process.stdout.write(
        `${file}: ${again.files[key].mutants.length} mutants, put into ${path.relative(ROOT, reportOf(part))} (${Math.round((Date.now() - started) / 1000)} s)\n`,
      );
    } else {
      fs.writeFileSync(timingOf(part), String(Math.round((Date.now() - started) / 1000)));
    }
  }
}

const explained = fs.existsSync(EXPLAINED) ? JSON.parse(fs.readFileSync(EXPLAINED, 'utf8')) : [];

/** The source text a mutant replaces. */
function original(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join('\n');
}

/** A survivor is known by its file, mutator, the code it replaces, the replacement and the whole line it is on (not its number, which moves). */
const keyOf = (m) => `${m.file}\u0000${m.mutator}\u0000${m.original}\u0000${m.replacement}\u0000${m.lineText}`;
const explainedKeys = new Map(explained.map((e) => [keyOf(e), e]));
const used = new Set();

const tally = new Map(
  PARTS.map((p) => [
    p.name,
    {
      ran: false,
      seconds: null,
      killed: 0,
      survived: 0,
      noCoverage: 0,
      timeout: 0,
      errors: 0,
      ignored: 0,
      explained: 0,
    },
  ]),
);
const unexplained = [];
const reportedFiles = new Set();
for (const part of PARTS) {
  if (!fs.existsSync(reportOf(part))) continue;
  const t = tally.get(part.name);
  t.ran = true;
  t.seconds = fs.existsSync(timingOf(part)) ? Number(fs.readFileSync(timingOf(part), 'utf8')) : null;
  for (const [file, { source, mutants }] of Object.entries(JSON.parse(fs.readFileSync(reportOf(part), 'utf8')).files)) {
    const rel = path.relative(ROOT, path.resolve(ROOT, file)).split(path.sep).join('/');
    reportedFiles.add(rel);
    for (const m of mutants) {
      if (m.status === 'Killed') t.killed++;
      else if (m.status === 'Timeout') t.timeout++;
      else if (m.status === 'Ignored') t.ignored++;
      else if (m.status === 'CompileError' || m.status === 'RuntimeError') t.errors++;
      else {
        const lineText = source.split('\n')[m.location.start.line - 1].trim();
        const survivor = {
          file: rel,
          line: m.location.start.line,
          lineText,
          mutator: m.mutatorName,
          original: original(source, m.location),
          replacement: m.replacement ?? '',
          status: m.status,
        };
        if (explainedKeys.has(keyOf(survivor))) {
          used.add(keyOf(survivor));
          t.explained++;
        } else {
          unexplained.push(survivor);
        }
        if (m.status === 'Survived') t.survived++;
        else t.noCoverage++;
      }
    }
  }
}

const pct = (n, d) => (d === 0 ? 100 : Math.floor((n / d) * 1000) / 10);
const parts = {};
process.stdout.write(
  '\nmutation score per part (killed or timed out / all that compiled; explained survivors count as killed):\n',
);
for (const [name, t] of tally) {
  if (!t.ran) {
    parts[name] = { ran: false };
    process.stdout.write(`  ${name.padEnd(16)}   not run yet (npm run mutate -- ${name})\n`);
    continue;
  }
  const valid = t.killed + t.timeout + t.survived + t.noCoverage;
  const score = pct(t.killed + t.timeout, valid);
  const counted = pct(t.killed + t.timeout + t.explained, valid);
  parts[name] = {
    ran: true,
    mutants: valid,
    killed: t.killed,
    timeout: t.timeout,
    survived: t.survived,
    noCoverage: t.noCoverage,
    explained: t.explained,
    ignored: t.ignored,
    score,
    scoreWithExplained: counted,
    seconds: t.seconds,
  };
  process.stdout.write(
    `  ${name.padEnd(16)} ${String(counted).padStart(5)}%  (${t.killed + t.timeout} of ${valid} killed, ${t.survived} survived, ${t.noCoverage} not covered, ${t.explained} of those explained; raw ${score}%${t.ignored ? `; ${t.ignored} static mutants skipped` : ''}; ${t.seconds ?? '?'} s)\n`,
  );
}
if (unexplained.length) {
  // Ready to be explained: copy an entry into test/mutation/survivors.json and say why it is equivalent or harmless.
  const draft = path.join(ROOT, 'reports/mutation/unexplained.json');
  fs.writeFileSync(
    draft,
    JSON.stringify(
      unexplained.map(({ file, lineText, mutator, original: o, replacement }) => ({
        file,
        lineText,
        mutator,
        original: o,
        replacement,
        reason: '',
      })),
      null,
      2,
    ),
  );
  process.stdout.write(
    `\n${unexplained.length} survivors not explained in test/mutation/survivors.json (drafts: ${path.relative(ROOT, draft)}):\n`,
  );
  for (const s of unexplained.slice(0, 400)) {
    process.stdout.write(
      `  ${s.file}:${s.line} ${s.mutator} ${s.status}: ${JSON.stringify(s.original).slice(0, 100)} -> ${JSON.stringify(s.replacement).slice(0, 100)}\n`,
    );
  }
}
const stale = explained.filter((e) => reportedFiles.has(e.file) && !used.has(keyOf(e)));
if (stale.length) {
  process.stdout.write(
    `\n${stale.length} entries of survivors.json match no survivor now (killed, or the code changed): remove them.\n`,
  );
}
const ran = Object.values(parts).filter((p) => p.ran);
const all = ran.reduce((a, f) => ({ mutants: a.mutants + f.mutants, detected: a.detected + f.killed + f.timeout }), {
  mutants: 0,
  detected: 0,
});
const met = ran.length === PARTS.length && ran.every((p) => p.scoreWithExplained >= GOAL) && unexplained.length === 0;
process.stdout.write(
  `MUTATION ${JSON.stringify({ score: pct(all.detected, all.mutants), mutants: all.mutants, goal: GOAL, met, unexplained: unexplained.length, seconds: ran.reduce((a, p) => a + (p.seconds ?? 0), 0), parts })}\n`,
);
process.exit(met ? 0 : 1);
