import * as assert from 'node:assert/strict';
import { applyEntriesPatch, diffEntries } from '../../../../src/shared/page/entryPatches';
import type { Entry } from '../../../../src/shared/thread/thread';
import { firstPost, nextPost, POST_CHARS } from '../../../../src/views/newestFirst';

const answer = (i: number, text = `Answer ${i}: ${'words '.repeat(300)}`): Entry => ({
  kind: 'assistant',
  id: `a${i}`,
  text,
});
const chat = (n: number): Entry[] =>
  Array.from({ length: n }, (_, i) => (i % 2 === 0 ? { kind: 'user', id: `u${i}`, text: `Question ${i}` } : answer(i)));

describe('a chat the page does not hold, sent newest first', () => {
  it('first posts the newest entries that fit, with the whole length: the page has them and holes before', () => {
    const entries = chat(2_000);
    const { patch, unsentBelow } = firstPost(entries);
    assert.equal(patch.length, 2_000);
    assert.ok(unsentBelow > 0 && unsentBelow < 2_000 - 64, `the newest ${2_000 - unsentBelow} entries first`);
    assert.ok(JSON.stringify(patch).length < POST_CHARS * 1.2, `${JSON.stringify(patch).length} characters posted`);
    const view = applyEntriesPatch([], patch);
    assert.equal(view.length, 2_000);
    assert.deepEqual(view.slice(unsentBelow), entries.slice(unsentBelow));
    assert.equal(view.slice(0, unsentBelow).filter((e) => e !== undefined).length, 0);
  });

  it('sends the rest, older and older, one post a flush, with what changed meanwhile: the page ends up with the chat as it is', () => {
    let entries = chat(1_000);
    const first = firstPost(entries);
    let view = applyEntriesPatch([], first.patch);
    let sent = entries;
    let unsentBelow = first.unsentBelow;
    let posts = 1;
    for (let flush = 0; unsentBelow > 0; flush++) {
      // Meanwhile: the newest answer grows, an old answer not sent yet is replaced, and a new entry comes.
      entries = entries.slice();
      const newest = entries.at(-1) as Extract<Entry, { kind: 'assistant' }>;
      entries[entries.length - 1] = { ...newest, text: `${newest.text} more ${flush}` };
      if (flush === 1) entries[1] = answer(1, 'Answer 1, replaced before it was sent');
      if (flush === 2) entries[entries.length - 3] = answer(entries.length - 3, 'A newer answer, replaced');
      entries.push(answer(entries.length));
      const next = nextPost(entries, unsentBelow, diffEntries(sent, entries));
      assert.ok(next.unsentBelow < unsentBelow, 'each post sends older entries');
      sent = entries;
      unsentBelow = next.unsentBelow;
      view = applyEntriesPatch(view, next.patch);
      posts++;
      assert.ok(
        JSON.stringify(next.patch).length < POST_CHARS * 1.2,
        `post ${posts}: ${JSON.stringify(next.patch).length} characters`,
      );
    }
    assert.ok(posts > 3, `${posts} posts`);
    assert.deepEqual(view, entries);
    // Once all are there, a flush sends only what changed.
    entries = [...entries, answer(entries.length)];
    assert.deepEqual(nextPost(entries, 0, diffEntries(sent, entries)).patch.ops.length, 1);
  });

  it('sends a short chat in one post', () => {
    const entries = chat(10);
    const { patch, unsentBelow } = firstPost(entries);
    assert.equal(unsentBelow, 0);
    assert.deepEqual(applyEntriesPatch([], patch), entries);
  });

  it('sends an entry larger than a post on its own', () => {
    const entries = [answer(0, 'x'.repeat(POST_CHARS * 3)), answer(1, 'y'.repeat(POST_CHARS * 2))];
    const first = firstPost(entries);
    assert.equal(first.unsentBelow, 1);
    const next = nextPost(entries, first.unsentBelow, undefined);
    assert.equal(next.unsentBelow, 0);
    assert.equal(applyEntriesPatch(applyEntriesPatch([], first.patch), next.patch).length, 2);
  });
});
