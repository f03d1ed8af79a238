/**
 * The chats' worktrees on the Node host (src-node/worktrees/chatWorktrees.ts, worktreeRecords.ts) against real
 * repositories: made for a workspace folder that is a subfolder of its repository (the agent works in the same
 * subfolder of the worktree), detached or on a branch, the user's uncommitted changes carried only when asked; applied
 * twice (the second Apply goes on from the first, no conflict with itself), a conflict when the user changed the
 * same line; discarded with its record. Records that do not parse are left out.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { ChatWorktrees } from '../../../../src-node/worktrees/chatWorktrees';
import { MAX_WORKTREES, WorktreeRecords } from '../../../../src-node/worktrees/worktreeRecords';
import { GIT, plainGit } from '../checkpoints/hostileRepo';

/** The workspace state VS Code keeps (a Memento), in memory. */
function memento(initial: Record<string, unknown> = {}): vscode.Memento {
  const values = new Map(Object.entries(initial));
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
  } as vscode.Memento;
}

describe("the chats' worktrees (make, apply, discard)", function () {
  this.timeout(30_000);
  let base: string;
  let root: string;
  let worktrees: ChatWorktrees;
  const git = (...args: string[]) => plainGit(root, args);
  const read = (...parts: string[]) => fs.readFileSync(path.join(...parts), 'utf8');

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-chat-worktrees-')));
    root = path.join(base, 'repo');
    fs.mkdirSync(path.join(root, 'app'), { recursive: true });
    fs.writeFileSync(path.join(root, 'app', 'main.ts'), 'const colour = "green";\nconst size = 1;\n');
    fs.writeFileSync(path.join(root, 'README.md'), 'read me\n');
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'first');
    const location = path.join(base, 'worktrees');
    worktrees = new ChatWorktrees(new WorktreeRecords(memento()), { git: async () => GIT, location: () => location });
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('makes a detached worktree outside the workspace; the agent works in the same subfolder; kept in the records', async () => {
    const made = await worktrees.make(path.join(root, 'app'), { agentId: 'claude' });
    assert.ok(made.ok);
    const { record } = made;
    assert.equal(record.path, path.join(record.top, 'app'));
    assert.equal(path.dirname(record.top), path.join(base, 'worktrees'));
    assert.equal(record.start, git('rev-parse', 'HEAD').trim());
    assert.equal(record.branch, undefined);
    assert.equal(read(record.path, 'main.ts'), 'const colour = "green";\nconst size = 1;\n');
    assert.deepEqual(worktrees.records.all(), [record]);
    assert.equal(worktrees.records.containing(path.join(record.path, 'main.ts'))?.id, record.id);
  });

  it("carries the user's uncommitted changes only when asked", async () => {
    fs.writeFileSync(path.join(root, 'app', 'main.ts'), 'const colour = "mine";\nconst size = 1;\n');
    fs.writeFileSync(path.join(root, 'app', 'new.ts'), 'new\n');
    assert.deepEqual(await worktrees.uncommitted(path.join(root, 'app')), ['app/main.ts', 'app/new.ts']);
    const left = await worktrees.make(path.join(root, 'app'), {});
    assert.ok(left.ok);
    assert.equal(left.carried, 0);
    assert.match(read(left.record.path, 'main.ts'), /green/);
    assert.equal(fs.existsSync(path.join(left.record.path, 'new.ts')), false);
    const carried = await worktrees.make(path.join(root, 'app'), { carry: true });
    assert.ok(carried.ok);
    assert.equal(carried.carried, 2);
    assert.match(read(carried.record.path, 'main.ts'), /mine/);
    assert.equal(read(carried.record.path, 'new.ts'), 'new\n');
  });

  it('makes one on a new branch; refuses a bad name, and a folder outside Git, saying why', async () => {
    const made = await worktrees.make(root, { branch: 'agent/colour' });
    assert.ok(made.ok);
    assert.equal(made.record.branch, 'agent/colour');
    assert.equal(plainGit(made.record.top, ['branch', '--show-current']).trim(), 'agent/colour');
    const bad = await worktrees.make(root, { branch: 'two..dots' });
    assert.deepEqual(bad, { ok: false, why: '"two..dots" is not a valid branch name' });
    const outside = path.join(base, 'plain');
    fs.mkdirSync(outside);
    const none = await worktrees.make(outside, {});
    assert.equal(none.ok, false);
    assert.match((none as { why: string }).why, /plain is not in a Git repository/);
    assert.equal(worktrees.records.all().length, 1);
  });

  it('applies twice: the second goes on from the first; a line the user changed too is a conflict, nothing written', async () => {
    const made = await worktrees.make(root, {});
    assert.ok(made.ok);
    const agentFile = path.join(made.record.path, 'app', 'main.ts');
    const userFile = path.join(root, 'app', 'main.ts');
    fs.writeFileSync(agentFile, 'const colour = "blue";\nconst size = 1;\n');
    let applied = await worktrees.apply(worktrees.records.get(made.record.id)!);
    assert.deepEqual(
      applied.files.map((f) => [f.path, f.outcome]),
      [['app/main.ts', 'applied']],
    );
    assert.equal(read(userFile), 'const colour = "blue";\nconst size = 1;\n');
    // The agent goes on: its newer version replaces the one applied (the user has not touched it since).
    fs.writeFileSync(agentFile, 'const colour = "blue";\nconst size = 2;\n');
    applied = await worktrees.apply(worktrees.records.get(made.record.id)!);
    assert.deepEqual(
      applied.files.map((f) => [f.path, f.outcome]),
      [['app/main.ts', 'applied']],
    );
    assert.equal(read(userFile), 'const colour = "blue";\nconst size = 2;\n');
    // Now the user and the agent both change the first line.
    fs.writeFileSync(userFile, 'const colour = "yellow";\nconst size = 2;\n');
    fs.writeFileSync(agentFile, 'const colour = "red";\nconst size = 2;\n');
    applied = await worktrees.apply(worktrees.records.get(made.record.id)!);
    assert.deepEqual(
      applied.files.map((f) => [f.path, f.outcome]),
      [['app/main.ts', 'conflict']],
    );
    assert.equal(read(userFile), 'const colour = "yellow";\nconst size = 2;\n');
  });

  it('discards: the worktree and its record go; Git lists it no more', async () => {
    const made = await worktrees.make(root, {});
    assert.ok(made.ok);
    fs.writeFileSync(path.join(made.record.path, 'README.md'), 'changed, never applied\n');
    assert.equal(await worktrees.discard(made.record), true);
    assert.equal(fs.existsSync(made.record.top), false);
    assert.deepEqual(worktrees.records.all(), []);
    assert.equal(git('worktree', 'list', '--porcelain').includes(made.record.top), false);
    assert.equal(read(root, 'README.md'), 'read me\n');
  });

  it('leaves out records that do not parse, and keeps at most MAX_WORKTREES', () => {
    const good = {
      id: 'abc123',
      top: '/w/t',
      path: '/w/t',
      folder: '/ws',
      repo: '/ws',
      start: 'a'.repeat(40),
      created: 1,
    };
    const records = new WorktreeRecords(
      memento({
        'vscode-acp.worktrees': [
          good,
          { ...good, id: '../x' },
          { ...good, start: 'HEAD' },
          'junk',
          null,
          { ...good, id: 'def' },
        ],
      }),
    );
    assert.deepEqual(
      records.all().map((r) => r.id),
      ['abc123', 'def'],
    );
    const many = new WorktreeRecords(memento({ 'vscode-acp.worktrees': 'not a list' }));
    assert.deepEqual(many.all(), []);
    const full = new WorktreeRecords(
      memento({ 'vscode-acp.worktrees': Array.from({ length: 300 }, (_, i) => ({ ...good, id: `w${i}` })) }),
    );
    assert.equal(full.all().length, MAX_WORKTREES);
  });
});
