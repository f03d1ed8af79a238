/**
 * What the checkpoint figures time (bundled for Node by checkpoints.mjs):
 * the real WorkspaceCheckpoints on a generated folder of `files` files.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceCheckpoints } from '../../src-node/checkpoints/workspaceCheckpoints';

const LIMITS = { maxFiles: 200_000, maxFileBytes: 5 * 1024 * 1024, maxStoreBytes: 1024 * 1024 * 1024 };

/** Source-like files of 0.5 to 3 KB in 200 folders, a .gitignore, and an ignored node_modules of 2,000 files. */
export function makeWorkspace(root: string, files: number): void {
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n*.log\n');
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${i % 20}`, `mod${i % 200}`);
    if (i < 200) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(20 + (i % 100)));
  }
  for (let i = 0; i < 2000; i++) {
    const dir = path.join(root, 'node_modules', `dep${i % 50}`);
    if (i < 50) fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `index${i}.js`), 'module.exports = 1;\n');
  }
}

const time = async (work: () => Promise<unknown> | unknown) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

export interface CheckpointRun {
  files: number;
  firstPassMs: number;
  /** The first pass of the next window (the index kept by the last one, nothing changed). */
  reloadPassMs: number;
  /** beforeTurn when nothing changed since the last turn: what every prompt waits for. */
  turnStartMs: number;
  /** beforeTurn after the user edited 100 files between turns. */
  turnStartAfterEditsMs: number;
  /** afterTurn when the agent edited 100 files. */
  turnEndMs: number;
  undoAll100Ms: number;
  storeMB: number;
  /** What the first pass copied. */
  firstPassMB: number;
  /** What a prompt waits for while a window's first pass runs: sent as the chat connects, and a second later. */
  promptAtConnectMs: number;
  promptDuringFirstPassMs: number;
}

/** A new window over a folder it has never seen (no index kept): a prompt `after` ms into its first pass. */
async function promptDuringFirstPass(store: string, root: string, limits: typeof LIMITS, after: number) {
  const cp = new WorkspaceCheckpoints(store, limits);
  const first = cp.beforeTurn([root]); // what a chat's connecting starts
  await new Promise((resolve) => setTimeout(resolve, after));
  let mark: Awaited<typeof first> | undefined;
  const ms = await time(async () => {
    mark = await cp.beforeTurn([root], true);
  });
  cp.release(mark!);
  cp.release(await first);
  cp.release(await cp.beforeTurn([root])); // after the pass the early mark left queued: nothing runs on
  await cp.store.flush();
  return ms;
}

/** Makes `root` a Git repository with everything in it committed (what a clean checkout is). */
function commitAll(root: string, git: string): void {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    // No automatic gc after the commit (20,000 loose objects would start one in the background, timed with us).
    [
      '-c',
      'user.name=b',
      '-c',
      'user.email=b@b',
      '-c',
      'gc.auto=0',
      '-c',
      'maintenance.auto=false',
      'commit',
      '-qm',
      'x',
    ],
  ]) {
    execFileSync(git, args, { cwd: root, env, stdio: 'ignore' });
  }
}

/** `git`: the folder is a clean Git checkout and the checkpoints use that program. */
export async function checkpointRun(files: number, git?: string): Promise<CheckpointRun> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-checkpoints-')));
  try {
    const root = path.join(base, 'ws');
    fs.mkdirSync(root);
    makeWorkspace(root, files);
    if (git) commitAll(root, git);
    const limits = git ? { ...LIMITS, git: async () => git } : LIMITS;
    const first = new WorkspaceCheckpoints(path.join(base, 'store'), limits);
    const firstPassMs = await time(async () => first.release(await first.beforeTurn([root])));
    const firstPassMB = first.store.bytes / 1024 / 1024;
    await first.store.flush();
    const promptAtConnectMs = await promptDuringFirstPass(path.join(base, 'store-a'), root, limits, 0);
    const promptDuringFirstPassMs = await promptDuringFirstPass(path.join(base, 'store-b'), root, limits, 1000);
    // The disk done with what setting up wrote (the folder, three stores of copies): the passes below are timed
    // against a settled disk, as a user's workspace is, not against the kernel writing the bench's own files back.
    execFileSync('sync');
    // A new window over the same storage: its first pass starts from the index the last one kept.
    const cp = new WorkspaceCheckpoints(path.join(base, 'store'), limits);
    // Each step once the copies the pass before it made are written (a moment after it: the next step, a prompt
    // or a turn's end, comes seconds later in use), so that a figure is its own pass's.
    const settled = () => cp.store.flush();
    const reloadPassMs = await time(async () => cp.release(await cp.beforeTurn([root])));
    await settled();
    const turnStartMs = await time(async () => cp.release(await cp.beforeTurn([root])));
    const edited = Array.from({ length: 100 }, (_, i) =>
      path.join(root, `pkg${i % 20}`, `mod${i % 200}`, `file${i}.ts`),
    );
    for (const file of edited) fs.appendFileSync(file, '// the user\n');
    let mark = await cp.beforeTurn([root]);
    cp.release(mark);
    await settled();
    for (const file of edited) fs.appendFileSync(file, '// the user again\n');
    const turnStartAfterEditsMs = await time(async () => {
      mark = await cp.beforeTurn([root]);
    });
    await settled();
    for (const file of edited) fs.writeFileSync(file, 'export const agent = true;\n');
    let changes: Awaited<ReturnType<WorkspaceCheckpoints['afterTurn']>> = [];
    const turnEndMs = await time(async () => {
      changes = await cp.afterTurn(mark);
    });
    if (changes.length !== 100) throw new Error(`expected 100 changes, got ${changes.length}`);
    const undoAll100Ms = await time(() =>
      Promise.all(changes.map((c) => cp.restore(c.path, c.after?.hash ?? null, c.before?.hash ?? null))),
    );
    if (!fs.readFileSync(edited[0], 'utf8').endsWith('// the user again\n')) {
      throw new Error('Undo All did not put the files back');
    }
    return {
      files,
      firstPassMs,
      reloadPassMs,
      turnStartMs,
      turnStartAfterEditsMs,
      turnEndMs,
      undoAll100Ms,
      storeMB: cp.store.bytes / 1024 / 1024,
      firstPassMB,
      promptAtConnectMs,
      promptDuringFirstPassMs,
    };
  } finally {
    fs.rmSync(base, { recursive: true, force: true, maxRetries: 5 });
  }
}
