/** Prompt suggestions in session_info_update._meta: offered until the next prompt, bounded, hostile shapes left out. */
import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { MAX_SUGGESTION_CHARS } from '../../../../../src/shared/thread/promptSuggestions';
import { emptyThread, type Thread } from '../../../../../src/shared/thread/thread';
import { reduceThread } from '../../../../../src/shared/thread/threadReducer';

const info = (meta: unknown, title?: string): SessionUpdate =>
  ({ sessionUpdate: 'session_info_update', ...(title ? { title } : {}), _meta: meta }) as SessionUpdate;
const apply = (thread: Thread, update: SessionUpdate) => reduceThread(thread, { type: 'update', id: 'u', update });
const suggest = (...texts: unknown[]) => ({ promptSuggestions: { suggestions: texts.map((text) => ({ text })) } });

describe('prompt suggestions', () => {
  it('are offered from the update, beside its title; an empty list clears them, and so does the next prompt', () => {
    let thread = apply(emptyThread, info(suggest('Run the tests'), 'A title'));
    assert.deepEqual([thread.suggestions, thread.title], [['Run the tests'], 'A title']);
    thread = apply(thread, info(undefined, 'Another title'));
    assert.deepEqual(thread.suggestions, ['Run the tests'], 'an update that says nothing of them keeps them');
    thread = apply(thread, info(suggest()));
    assert.deepEqual(thread.suggestions, []);
    thread = apply(thread, info(suggest('Again')));
    thread = reduceThread(thread, { type: 'prompt', id: 'p', text: 'Again' });
    assert.equal(thread.suggestions, undefined);
  });

  it('keeps at most three, one line each, bounded, without repeats; other shapes say nothing', () => {
    const thread = apply(
      emptyThread,
      info(suggest('one\nline', '\u202eflip', 'x'.repeat(1000), 'one line', 7, null, 'four', 'five')),
    );
    assert.equal(thread.suggestions?.length, 3);
    assert.equal(thread.suggestions?.[0], 'one line');
    assert.ok(!thread.suggestions?.some((s) => /[\n\u202e]/.test(s)));
    assert.ok(thread.suggestions!.every((s) => s.length <= MAX_SUGGESTION_CHARS + 1));
    for (const meta of [{ promptSuggestions: 'x' }, { promptSuggestions: { suggestions: 'x' } }, null, 5]) {
      assert.equal(apply(emptyThread, info(meta)).suggestions, undefined, JSON.stringify(meta));
    }
  });
});
