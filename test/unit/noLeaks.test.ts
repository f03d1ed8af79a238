/**
 * The unit tests' leak checks, as VS Code's own tests have (ensureNoDisposablesAreLeakedInTestSuite). Root hooks: they
 * run around every test of the unit suite, after the test's own afterEach.
 * - A test that leaves a listener on an emitter older than itself (something that outlives it) fails, with where the
 *   listener was added (src/shared/events.ts keeps them while a test runs).
 * - Once every suite has ended, no process may be left running below the test process.
 */
import * as assert from 'node:assert/strict';
import { Emitter, watchListeners } from '../../src/shared/events';
import { leftProcesses } from '../fixtures/leftProcesses';

let live: ReadonlyMap<object, string> | undefined;

beforeEach(() => {
  live = watchListeners(true);
});

afterEach(function () {
  const left = [...(live?.values() ?? [])];
  watchListeners(false);
  if (left.length === 0 || this.currentTest?.state === 'failed') return;
  const where = left.slice(0, 3).map((stack) => stack.split('\n').slice(1, 8).join('\n'));
  throw new Error(
    `${left.length} listener(s) left subscribed to what outlives the test, added:\n${where.join('\n--\n')}`,
  );
});

after(async function () {
  this.timeout(10_000);
  const left = await leftProcesses();
  assert.deepEqual(left, [], 'processes left running by the unit tests');
});

describe('the leak check', () => {
  const older = new Emitter<void>();
  after(() => older.dispose());

  it('keeps a listener the test leaves on an emitter made before it, and forgets it once disposed', () => {
    const subscription = older.event(() => undefined);
    assert.equal(live?.size, 1);
    assert.match([...live!.values()][0]!, /a listener left subscribed\n\s+at /);
    subscription.dispose();
    assert.equal(live?.size, 0);
  });

  it("keeps nothing of the test's own emitters, nor of one disposed", () => {
    const own = new Emitter<void>();
    own.event(() => undefined);
    older.event(() => undefined);
    older.dispose();
    assert.equal(live?.size, 0);
  });
});
