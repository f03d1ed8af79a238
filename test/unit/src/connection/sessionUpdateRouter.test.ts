import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { SessionUpdateRouter } from '../../../../src/connection/sessionUpdateRouter';

const text = (t: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text: t },
});

describe('session update router', () => {
  it('buffers updates for a session nobody listens to yet, then replays them in order', () => {
    const router = new SessionUpdateRouter();
    router.dispatch('s1', text('a'));
    router.dispatch('s1', text('b'));
    const got: string[] = [];
    router.listen('s1', (u) =>
      got.push(u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : '?'),
    );
    router.dispatch('s1', text('c'));
    assert.deepEqual(got, ['a', 'b', 'c']);
  });

  it('keeps sessions apart and stops delivering after dispose', () => {
    const router = new SessionUpdateRouter();
    const got: string[] = [];
    const sub = router.listen('s1', () => got.push('s1'));
    router.dispatch('s2', text('x'));
    router.dispatch('s1', text('y'));
    sub.dispose();
    router.dispatch('s1', text('z'));
    assert.deepEqual(got, ['s1']);
  });

  it('bounds what an agent can make it buffer', () => {
    const router = new SessionUpdateRouter();
    for (let s = 0; s < 100; s++) for (let i = 0; i < 2_000; i++) router.dispatch(`s${s}`, text('x'));
    let first = 0;
    router.listen('s0', () => first++);
    let late = 0;
    router.listen('s99', () => late++);
    assert.equal(first, 1_000);
    assert.equal(late, 0);
  });
});
