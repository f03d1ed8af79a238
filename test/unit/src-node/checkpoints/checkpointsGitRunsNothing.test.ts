/**
 * The checkpoints read a repository with the user's `git`, and nothing of the repository's own may run for it
 * (gitProcess.ts): a whole checkpoint cycle (the first pass, the agent's edits of filtered files, the pass a prompt
 * waits for, the turn's end, Undo) over a repository whose config names a program of its own wherever Git runs one
 * (hostileRepo.ts: filters, a lazy fetch of a partial clone over "ssh", fsmonitor, diff drivers, pagers, hooks,
 * an included config turning them back on...), and over one whose submodule has a filter: no program leaves its
 * marker. Each index is made racy before a pass, so Git re-reads its files to know whether they changed.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readGitView } from '../../../../src-node/checkpoints/gitView';
import { WorkspaceCheckpoints } from '../../../../src-node/checkpoints/workspaceCheckpoints';
import { GIT, hostileRepo, hostileSubmodule, type HostileRepo } from './hostileRepo';

const LIMITS = { maxFiles: 50_000, maxFileBytes: 1024 * 1024, maxStoreBytes: 64 * 1024 * 1024 };

describe("checkpoints run nothing of a repository's own", function () {
  this.timeout(30_000);
  let repo: HostileRepo | undefined;
  let opened: WorkspaceCheckpoints | undefined;
  const checkpoints = (r: HostileRepo) =>
    (opened = new WorkspaceCheckpoints(path.join(r.base, 'store'), { ...LIMITS, git: async () => GIT }));
  afterEach(async () => {
    await opened?.store.flush(); // not written into the folder once it is removed
    repo?.cleanup();
    [repo, opened] = [undefined, undefined];
  });

  it('a partial clone with programs everywhere: a whole cycle, Undo included, runs none of them', async () => {
    const r = (repo = hostileRepo());
    const cp = checkpoints(r);
    const ran = new Set<string>();
    /** One step of ours: what it leaves is counted. */
    const ours = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
      try {
        return await step();
      } finally {
        for (const marker of r.takeMarkers()) ran.add(`${what}: ${marker}`);
      }
    };
    const file = (name: string) => path.join(r.root, name);
    r.makeRacy();
    const turn = await ours('first pass', () => cp.beforeTurn([r.root]));
    // The agent edits the filtered files and the one whose blob is only the remote's; the user's Git stages some,
    // writing the index (in the same second: racy again).
    for (const name of ['a.f', 'b.p', 'c.i', 'd.txt', 'e.e', 'old.txt']) {
      fs.writeFileSync(file(name), `${name} by the agent\n`);
    }
    r.git('add', 'a.f', 'c.i', 'e.e');
    r.makeRacy();
    const next = await ours('the pass a prompt waits for', () => cp.beforeTurn([r.root], true));
    const changes = await ours('turn end', () => cp.afterTurn(turn));
    const undone = await ours('Undo', () =>
      Promise.all(
        changes.map((c) => cp.restore(c.path, c.after!.hash!, c.before!.hash!).then(String, (e: Error) => e.message)),
      ),
    );
    r.makeRacy();
    await ours('next turn end', () => cp.afterTurn(next));

    assert.deepEqual([...ran], [], 'programs of the repository that ran');
    assert.deepEqual(changes.map((c) => path.relative(r.root, c.path)).sort(), [
      'a.f',
      'b.p',
      'c.i',
      'd.txt',
      'e.e',
      'old.txt',
    ]);
    for (const name of ['a.f', 'b.p', 'c.i', 'd.txt', 'e.e']) {
      assert.equal(fs.readFileSync(file(name), 'utf8'), `${name[0]}\n`, `${name} put back`);
    }
    const missing = undone[changes.findIndex((c) => c.path === r.missing)];
    assert.match(missing ?? '', /not in Git/, 'the blob only the remote has is not fetched for Undo');
  });

  it('a filter driver whose name -c cannot say (it has a "="): Git is not used, the folder is checkpointed without it', async () => {
    const r = (repo = hostileRepo());
    r.git('config', 'filter.a=b.clean', path.join(r.base, 'bin', 'clean'));
    assert.equal(await readGitView(GIT, r.root), undefined);
    assert.deepEqual(r.takeMarkers(), []);
  });

  it("a submodule's own filter does not run when the repository is read", async () => {
    const r = (repo = hostileSubmodule());
    const cp = checkpoints(r);
    r.makeRacy();
    const turn = await cp.beforeTurn([r.root]);
    fs.writeFileSync(path.join(r.root, 't.txt'), 'by the agent\n');
    r.makeRacy();
    const [change] = await cp.afterTurn(turn);
    assert.deepEqual(r.takeMarkers(), [], 'programs of the submodule that ran');
    assert.equal(change?.path, path.join(r.root, 't.txt'));
  });
});
