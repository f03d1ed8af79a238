/**
 * Time-of-check/time-of-use races, won on purpose: the opener's `onStep`
 * hook runs between its steps, and the test swaps a folder or file for a
 * symlink to the canary right there. Then a real race: another process
 * flips a folder between a directory and a link as fast as it can while
 * reads and writes run.
 *
 * The descriptor walk never needs to notice a swap: it holds every folder
 * it passed by descriptor, so it keeps working in the original (inside)
 * folder or file. The identity check must notice and refuse.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readTextFile, writeTextFile, type StepHook, type WalkStep } from '../../../../src-node/workspaceFs';
import { makeSandbox, refusal, type Sandbox } from './workspaceFsCanary.test';

const DECOY = 'inside secret\n';

/** Replaces `name` (below the root) by a symlink to `target`, keeping the original as `name.orig`. */
function swapForLink(s: Sandbox, name: string, target: string): void {
  const where = path.join(s.rootDir, name);
  fs.renameSync(where, `${where}.orig`);
  fs.symlinkSync(target, where);
}

/** A hook that runs `act` once, at the first step matching `when`. */
function at(when: Partial<WalkStep>, act: () => void): StepHook {
  let done = false;
  return (step) => {
    const matches = Object.entries(when).every(([k, v]) => step[k as keyof WalkStep] === v);
    if (matches && !done) {
      done = true;
      act();
    }
  };
}

describe('workspace fs races', () => {
  let s: Sandbox;
  let target: string;
  beforeEach(async () => {
    s = await makeSandbox();
    // The same name inside as the canary outside: a walk that followed a link would find the canary.
    fs.writeFileSync(path.join(s.rootDir, 'sub', 'secret.txt'), DECOY);
    target = path.join(s.rootDir, 'sub', 'secret.txt');
  });
  afterEach(() => s.cleanup());

  const origFile = () => path.join(s.rootDir, 'sub.orig', 'secret.txt');

  describe('a folder swapped for a link just before it is looked up', () => {
    const hook = () => at({ phase: 'lookup', index: 0 }, () => swapForLink(s, 'sub', s.outside));
    for (const strategy of ['walk', 'identity'] as const) {
      it(`read (${strategy}): refused as a symlink`, async () => {
        assert.equal((await refusal(readTextFile(s.root, target, { strategy, onStep: hook() }))).code, 'symlink');
        s.assertUntouched();
      });
    }
    it('write: refused as a symlink', async () => {
      assert.equal((await refusal(writeTextFile(s.root, target, 'x', { onStep: hook() }))).code, 'symlink');
      s.assertUntouched();
      assert.equal(fs.readFileSync(origFile(), 'utf8'), DECOY);
    });
  });

  describe('a folder swapped for a link after it was passed (mid-walk)', () => {
    const hook = () => at({ phase: 'lookup', index: 1 }, () => swapForLink(s, 'sub', s.outside));
    it('read (walk): keeps reading the original folder', async () => {
      assert.equal(await readTextFile(s.root, target, { strategy: 'walk', onStep: hook() }), DECOY);
      s.assertUntouched();
    });
    it('read (identity): refused as changed', async () => {
      assert.equal(
        (await refusal(readTextFile(s.root, target, { strategy: 'identity', onStep: hook() }))).code,
        'changed',
      );
      s.assertUntouched();
    });
    it('write: lands in the original folder', async () => {
      await writeTextFile(s.root, target, 'written', { onStep: hook() });
      assert.equal(fs.readFileSync(origFile(), 'utf8'), 'written');
      s.assertUntouched();
    });
  });

  describe('the file replaced by a link between its check and its open', () => {
    const hook = () => at({ phase: 'open' }, () => swapForLink(s, 'sub/secret.txt', s.secret));
    it('read (walk): reads the file that was checked', async () => {
      assert.equal(await readTextFile(s.root, target, { strategy: 'walk', onStep: hook() }), DECOY);
      s.assertUntouched();
    });
    it('read (identity): refused as a symlink (O_NOFOLLOW)', async () => {
      assert.equal(
        (await refusal(readTextFile(s.root, target, { strategy: 'identity', onStep: hook() }))).code,
        'symlink',
      );
      s.assertUntouched();
    });
    it('write: writes the file that was checked', async () => {
      await writeTextFile(s.root, target, 'written', { onStep: hook() });
      assert.equal(fs.readFileSync(`${target}.orig`, 'utf8'), 'written');
      s.assertUntouched();
    });
  });

  describe('the file replaced by a FIFO between its check and its open', () => {
    const hook = () =>
      at({ phase: 'open' }, () => {
        fs.renameSync(target, `${target}.orig`);
        execFileSync('mkfifo', [target]);
      });
    it('read (walk): reads the file that was checked', async () => {
      assert.equal(await readTextFile(s.root, target, { strategy: 'walk', onStep: hook() }), DECOY);
      s.assertUntouched();
    });
    it('read (identity): refused as changed, without hanging (O_NONBLOCK)', async () => {
      assert.equal(
        (await refusal(readTextFile(s.root, target, { strategy: 'identity', onStep: hook() }))).code,
        'changed',
      );
      s.assertUntouched();
    });
  });

  describe('the root replaced by a link after it was opened', () => {
    const hook = () =>
      at({ phase: 'lookup', index: 0 }, () => {
        fs.renameSync(s.rootDir, `${s.rootDir}.moved`);
        fs.symlinkSync(s.outside, s.rootDir);
      });
    it('read (walk): keeps reading the original root', async () => {
      assert.equal(await readTextFile(s.root, target, { strategy: 'walk', onStep: hook() }), DECOY);
      s.assertUntouched();
    });
    it('read (identity): refused (the path now leads elsewhere)', async () => {
      const error = await refusal(readTextFile(s.root, target, { strategy: 'identity', onStep: hook() }));
      assert.equal(error.code, 'not-found'); // outside/sub does not exist; were it there, 'changed'
      s.assertUntouched();
    });
  });

  describe('a link appearing where a missing file is about to be created', () => {
    for (const [title, link] of [
      ['to the canary', () => s.secret],
      ['dangling, to a new file outside', () => path.join(s.outside, 'new.txt')],
    ] as const) {
      it(`write: refused as changed (${title})`, async () => {
        const file = path.join(s.rootDir, 'sub', 'new.txt');
        const onStep = at({ phase: 'open' }, () => fs.symlinkSync(link(), file));
        assert.equal((await refusal(writeTextFile(s.root, file, 'x', { onStep }))).code, 'changed');
        s.assertUntouched();
      });
    }
  });

  describe('a real race: another process flips a folder between a directory and a link', function () {
    this.timeout(20000);
    // The walk only: the identity check loses this race now and then (see
    // identityOpen.ts), which is why writes never use it.
    it('walk reads and writes: thousands of attempts, zero escapes', async () => {
      const outcomes = await raceFlipper(s, 2000);
      assert.equal(outcomes.get('ESCAPED'), undefined);
      // The race was live: the folder was seen both as itself and as a link.
      assert.ok(
        (outcomes.get('read inside') ?? 0) > 0 && (outcomes.get('written inside') ?? 0) > 0,
        JSON.stringify([...outcomes]),
      );
      assert.ok(
        (outcomes.get('read symlink') ?? 0) > 0 && (outcomes.get('write symlink') ?? 0) > 0,
        JSON.stringify([...outcomes]),
      );
      s.assertUntouched();
    });
  });
});

/** Renames in a loop so that root/flip is in turn: the real folder, missing, a link to outside, missing. */
const FLIPPER = `
const fs = require('node:fs');
const [root] = process.argv.slice(1);
const flip = root + '/flip', real = root + '/flip.real', link = root + '/flip.link';
for (;;) { fs.renameSync(real, flip); fs.renameSync(flip, real); fs.renameSync(link, flip); fs.renameSync(flip, link); }
`;

/** Reads and writes root/flip/secret.txt for `ms` while the flipper runs; counts the outcomes. */
async function raceFlipper(s: Sandbox, ms: number): Promise<Map<string, number>> {
  fs.mkdirSync(path.join(s.rootDir, 'flip.real'));
  fs.writeFileSync(path.join(s.rootDir, 'flip.real', 'secret.txt'), DECOY);
  fs.symlinkSync(s.outside, path.join(s.rootDir, 'flip.link'));
  const file = path.join(s.rootDir, 'flip', 'secret.txt');
  const written = 'written by the agent\n';
  const outcomes = new Map<string, number>();
  const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  const flipper = spawn(process.execPath, ['-e', FLIPPER, s.rootDir], { stdio: 'ignore' });
  const exited = new Promise((resolve) => flipper.once('exit', resolve));
  try {
    for (const deadline = Date.now() + ms; Date.now() < deadline;) {
      await readTextFile(s.root, file, { strategy: 'walk' }).then(
        (text) => count(text === DECOY || text === written ? 'read inside' : 'ESCAPED'),
        (e: { code?: string }) => count(`read ${e.code}`),
      );
      await writeTextFile(s.root, file, written).then(
        () => count('written inside'),
        (e: { code?: string }) => count(`write ${e.code}`),
      );
    }
  } finally {
    flipper.kill();
    await exited;
  }
  return outcomes;
}
