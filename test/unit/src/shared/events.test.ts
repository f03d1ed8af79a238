import * as assert from 'node:assert/strict';
import { Emitter, type Disposable } from '../../../../src/shared/events';

describe('events without VS Code', () => {
  it('calls each listener in the order they came, until it stops listening', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    const first = emitter.event((n) => heard.push(`a${n}`));
    emitter.event((n) => heard.push(`b${n}`));
    emitter.fire(1);
    first.dispose();
    emitter.fire(2);
    assert.deepEqual(heard, ['a1', 'b1', 'b2']);
  });

  it('a listener that stops another during a fire keeps it from its call; one that throws does not stop the rest', () => {
    const emitter = new Emitter<void>();
    const heard: string[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args[1]);
    try {
      let second: Disposable | undefined = undefined;
      emitter.event(() => {
        heard.push('first');
        second?.dispose();
      });
      second = emitter.event(() => heard.push('second'));
      emitter.event(() => {
        throw new Error('listener broke');
      });
      emitter.event(() => heard.push('fourth'));
      emitter.fire();
    } finally {
      console.error = original;
    }
    assert.deepEqual(heard, ['first', 'fourth']);
    assert.equal((errors[0] as Error).message, 'listener broke');
  });

  it('binds thisArgs, collects the subscription, and hears nothing once disposed', () => {
    const emitter = new Emitter<string>();
    const subscriptions: Disposable[] = [];
    const owner = {
      seen: [] as string[],
      hear(this: { seen: string[] }, s: string) {
        this.seen.push(s);
      },
    };
    emitter.event(owner.hear, owner, subscriptions);
    emitter.fire('x');
    assert.equal(subscriptions.length, 1);
    emitter.dispose();
    emitter.fire('y');
    emitter.event(owner.hear, owner).dispose();
    assert.deepEqual(owner.seen, ['x']);
  });
});
