/** A tool call that fails after the user's Stop was stopped, not an error: the reducer says so. */
import * as assert from 'node:assert/strict';
import { emptyThread, type Thread } from '../../../../src/shared/thread/thread';
import { reduceThread, type ThreadAction } from '../../../../src/shared/thread/threadReducer';

const run = (actions: ThreadAction[], from: Thread = emptyThread): Thread => actions.reduce(reduceThread, from);

const update = (id: string, u: object): ThreadAction => ({ type: 'update', id, update: u as never });
const started = run([
  { type: 'prompt', id: 'p', text: 'run the tests' },
  update('t1', {
    sessionUpdate: 'tool_call',
    toolCallId: 'a',
    title: 'npm test',
    kind: 'execute',
    status: 'in_progress',
  }),
  update('t2', { sessionUpdate: 'tool_call', toolCallId: 'b', title: 'lint', kind: 'execute', status: 'failed' }),
]);
const statuses = (t: Thread) => t.entries.flatMap((e) => (e.kind === 'tool' ? [e.status] : []));

describe('a tool call stopped by the user', () => {
  it('reported failed after Stop is shown cancelled; one that failed before stays failed', () => {
    const after = run(
      [
        { type: 'stopping' },
        update('t3', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed' }),
        { type: 'turnEnded', id: 'end', stopReason: 'cancelled' },
      ],
      started,
    );
    assert.deepEqual(statuses(after), ['cancelled', 'failed']);
    assert.equal(after.stopping, undefined, 'the next turn starts without it');
  });

  it('without a Stop, a failure is a failure', () => {
    const after = run(
      [update('t3', { sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'failed' })],
      started,
    );
    assert.deepEqual(statuses(after), ['failed', 'failed']);
  });

  it('a Stop when no turn runs changes nothing', () => {
    const idle = run([{ type: 'turnEnded', id: 'end', stopReason: 'end_turn' }], started);
    assert.equal(reduceThread(idle, { type: 'stopping' }), idle);
  });
});
