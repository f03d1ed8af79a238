/** The queue's order rules on their own: what goes after a turn that finished, after one that was stopped, and while one is steered. */
import * as assert from 'node:assert/strict';
import { MAX_QUEUED, PromptQueue } from '../../../../../src/chat/composer/promptQueue';

const filled = (...texts: string[]) => {
  const queue = new PromptQueue();
  for (const text of texts) queue.add(text, []);
  return queue;
};
const idOf = (queue: PromptQueue, text: string) => queue.shown.find((q) => q.text === text)!.id;

describe('the prompt queue', () => {
  it('after a finished turn gives the first; after a stopped one, only a prompt Send now put first', () => {
    const queue = filled('a', 'b', 'c');
    assert.equal(queue.next(false), undefined, 'nothing after a Stop');
    assert.equal(queue.next(true)?.text, 'a');
    assert.equal(queue.putFirst(idOf(queue, 'c')), true);
    assert.equal(queue.next(false)?.text, 'c', 'Send now goes however the turn ended');
    assert.equal(queue.next(false), undefined, 'once');
    assert.deepEqual(queue.texts, ['b']);
  });

  it('a Send now prompt that is removed or moved from first takes its urgency with it', () => {
    const removed = filled('a', 'b');
    removed.putFirst(idOf(removed, 'b'));
    removed.remove(idOf(removed, 'b'));
    assert.equal(removed.next(false), undefined);
    const moved = filled('a', 'b');
    moved.putFirst(idOf(moved, 'b'));
    moved.moveUp(idOf(moved, 'a'));
    assert.deepEqual(moved.texts, ['a', 'b']);
    assert.equal(moved.next(false), undefined, 'a was not asked for');
  });

  it('moves a prompt up, not past the first; is full at its bound', () => {
    const queue = filled('a', 'b', 'c');
    assert.equal(queue.moveUp(idOf(queue, 'a')), false);
    assert.equal(queue.moveUp(idOf(queue, 'c')), true);
    assert.deepEqual(queue.texts, ['a', 'c', 'b']);
    assert.equal(filled(...Array.from({ length: MAX_QUEUED - 1 }, String)).full, false);
    assert.equal(filled(...Array.from({ length: MAX_QUEUED }, String)).full, true);
  });

  it('keeps a prompt being steered, marked, out of turns and out of reach until the agent answers', () => {
    const queue = filled('a', 'b');
    const a = idOf(queue, 'a');
    assert.equal(queue.steer(a)?.text, 'a');
    assert.equal(queue.steer(a), undefined, 'once at a time');
    assert.equal(queue.shown[0]?.steering, true);
    assert.equal(queue.next(true), undefined, 'not sent as a turn of its own meanwhile');
    assert.equal(queue.remove(a), undefined);
    assert.equal(queue.putFirst(a), false);
    queue.steered(a, false);
    assert.equal(queue.shown[0]?.steering, undefined, 'not taken: waiting again');
    assert.equal(queue.next(true)?.text, 'a', 'and it goes as the next turn');
    const b = idOf(queue, 'b');
    queue.steer(b);
    queue.steered(b, true);
    assert.deepEqual(queue.texts, [], 'taken: it leaves the queue');
  });
});
