/**
 * The fixture shared by the workspace file-system tests: a temp folder with
 * the workspace root inside and canary files outside it, and the checks that
 * a canary was neither read nor written. The tests in this file prove those
 * checks can fail, so a passing hostile-path test means something: a read
 * shows in the canary's atime (its atime is set far in the past, which
 * relatime always updates), a write in its size, mtime or ctime.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorkspaceFsError, openWorkspaceRoot, type WorkspaceRoot } from '../../../../src-node/workspaceFs';

/** The content of every canary; no result or message may ever contain it. */
export const SECRET = 'CANARY-SECRET-7d3f1e';

export interface Sandbox {
  /** The temp folder holding everything below. */
  readonly base: string;
  /** base/root: the workspace folder, with a.txt and sub/b.txt. */
  readonly rootDir: string;
  readonly root: WorkspaceRoot;
  /** base/outside: holds the canary secret.txt. */
  readonly outside: string;
  /** base/outside/secret.txt */
  readonly secret: string;
  /** base/root-evil/secret.txt: a sibling whose name starts like the root's. */
  readonly sibling: string;
  /** Fails when a canary was read or written, or a file appeared outside the root. */
  assertUntouched(): void;
  /** Takes the canaries' state again (after a setup that must touch them, like linking one). */
  remember(): void;
  cleanup(): void;
}

interface Snapshot {
  readonly file: string;
  readonly stat: fs.BigIntStats;
}

export async function makeSandbox(): Promise<Sandbox> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wsfs-')));
  const rootDir = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(rootDir, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  fs.mkdirSync(path.join(base, 'root-evil'));
  fs.writeFileSync(path.join(rootDir, 'a.txt'), 'inside a\n');
  fs.writeFileSync(path.join(rootDir, 'sub', 'b.txt'), 'inside b\n');
  const secret = plantCanary(path.join(outside, 'secret.txt'));
  const sibling = plantCanary(path.join(base, 'root-evil', 'secret.txt'));
  let snapshots: Snapshot[] = [];
  const remember = () => {
    snapshots = [secret, sibling].map((file) => ({ file, stat: fs.statSync(file, { bigint: true }) }));
  };
  remember();
  const listings = () => [outside, path.join(base, 'root-evil'), base].map((d) => fs.readdirSync(d).sort().join('|'));
  const before = listings();
  return {
    base,
    rootDir,
    outside,
    secret,
    sibling,
    root: await openWorkspaceRoot(rootDir),
    assertUntouched: () => {
      for (const s of snapshots) assertCanary(s);
      assert.deepEqual(listings().slice(0, 2), before.slice(0, 2), 'a file appeared outside the root');
    },
    remember,
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** Writes SECRET to `file` with an atime in 1970, so any read moves it. */
export function plantCanary(file: string): string {
  fs.writeFileSync(file, SECRET);
  fs.utimesSync(file, 1000, 2000);
  return file;
}

function assertCanary({ file, stat: before }: Snapshot): void {
  const now = fs.statSync(file, { bigint: true });
  assert.equal(now.ino, before.ino, `${file} was replaced`);
  assert.equal(now.size, before.size, `${file} was written`);
  assert.equal(now.mtimeNs, before.mtimeNs, `${file} was written`);
  assert.equal(now.ctimeNs, before.ctimeNs, `${file} was changed`);
  if (atimeTracked()) assert.equal(now.atimeNs, before.atimeNs, `${file} was read`);
}

let tracked: boolean | undefined;

/** Whether reads show in atime on this temp file system (not on a noatime mount). */
export function atimeTracked(): boolean {
  if (tracked === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-atime-'));
    const file = plantCanary(path.join(dir, 'probe'));
    fs.readFileSync(file);
    tracked = fs.statSync(file).atimeMs !== 1000 * 1000;
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return tracked;
}

/** The refusal `promise` ends in (failing when it resolves); its message never holds SECRET. */
export async function refusal(promise: Promise<unknown>): Promise<WorkspaceFsError> {
  let result: unknown;
  try {
    result = await promise;
  } catch (e) {
    if (!(e instanceof WorkspaceFsError)) throw e;
    assert.ok(!e.message.includes(SECRET), `message leaks the canary: ${e.message}`);
    return e;
  }
  assert.fail(`expected a refusal, got ${JSON.stringify(result)?.slice(0, 80)}`);
}

/** The refusal `promise` ends in, as "code: message" (what the agent and the user are told). */
export async function said(promise: Promise<unknown>): Promise<string> {
  const e = await refusal(promise);
  return `${e.code}: ${e.message}`;
}

/** Open descriptors of this process. */
export function openDescriptorCount(): number {
  return fs.readdirSync('/proc/self/fd').length;
}

describe('workspace fs test fixture', () => {
  let sandbox: Sandbox;
  beforeEach(async () => {
    sandbox = await makeSandbox();
  });
  afterEach(() => sandbox.cleanup());

  it('sees a read of a canary (atime)', function () {
    if (!atimeTracked()) this.skip(); // noatime mount: the other checks still hold
    sandbox.assertUntouched();
    fs.readFileSync(sandbox.secret);
    assert.throws(() => sandbox.assertUntouched(), /was read/);
  });

  it('sees a write of a canary, even with the same bytes and its times put back', () => {
    fs.writeFileSync(sandbox.sibling, SECRET);
    fs.utimesSync(sandbox.sibling, 1000, 2000);
    assert.throws(() => sandbox.assertUntouched(), /was changed/);
  });

  it('sees a new file outside the root', () => {
    fs.writeFileSync(path.join(sandbox.outside, 'new.txt'), 'x');
    assert.throws(() => sandbox.assertUntouched(), /appeared outside/);
  });

  it('refusal() fails for a result, passes a WorkspaceFsError through', async () => {
    await assert.rejects(refusal(Promise.resolve('fine')), /expected a refusal/);
    await assert.rejects(refusal(Promise.reject(new WorkspaceFsError('io', SECRET))), /leaks the canary/);
    assert.equal((await refusal(Promise.reject(new WorkspaceFsError('outside', 'no')))).code, 'outside');
  });

  it('cleanup removes the temp folder', () => {
    sandbox.cleanup();
    assert.equal(fs.existsSync(sandbox.base), false);
  });
});
