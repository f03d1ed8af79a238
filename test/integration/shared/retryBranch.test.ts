/**
 * Both hosts: Retry and Branch with the host's test agent (on the web host,
 * through the bridge), which cannot fork: the new session gets the earlier
 * turns as context before the prompt (its `report prompt` turn says what
 * blocks it got), and a branch leaves the chat it came from as it was.
 */
import * as assert from './assert';
import { lastReply, waitFor } from './chatWaits';
import { newChatWithTestAgent } from './host';

/** The blocks the test agent reports it got: their text, or the start of a long one. */
const blocksOf = (reply: string): string[] =>
  (JSON.parse(reply.replace(/^\[prompt: /, '').replace(/\]$/, '')) as Array<{ text?: string; start?: string }>).map(
    (b) => b.text ?? `${b.start}…`,
  );

describe('Retry and Branch', function () {
  this.timeout(60_000);

  it('Retry sends the newest prompt again, the new session told the turns before it', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('hello there');
    await chat.composer.send('report prompt please');
    await chat.rewind.retry();
    await waitFor(
      chat,
      'the retried answer',
      () => chat.thread.turn === 'idle' && lastReply(chat).startsWith('[prompt:'),
    );
    const blocks = blocksOf(lastReply(chat));
    assert.equal(blocks.length, 2, lastReply(chat));
    assert.match(blocks[0]!, /^The conversation so far/);
    assert.equal(blocks[1], 'report prompt please');
    const prompts = chat.thread.entries.flatMap((e) => (e.kind === 'user' ? [e.text] : []));
    assert.deepEqual(prompts, ['hello there', 'report prompt please'], 'the prompt once, from before it');
    await api.chats.close(chat.id);
  });

  it('Branch from the first turn: a new chat from there; the chat it came from is as it was', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('hello there');
    await chat.composer.send('report prompt please');
    const before = JSON.stringify(chat.thread.entries);
    const first = chat.thread.entries.find((e) => e.kind === 'user')!.id;
    const branch = api.chats.branch(chat, first)!;
    assert.ok(branch && api.chats.shown === branch, 'a new chat, shown');
    await branch.composer.send('report prompt on the branch');
    await waitFor(
      branch,
      'its answer',
      () => branch.thread.turn === 'idle' && lastReply(branch).startsWith('[prompt:'),
    );
    const blocks = blocksOf(lastReply(branch));
    assert.match(blocks[0]!, /^The conversation so far/);
    assert.equal(blocks[1], 'report prompt on the branch');
    assert.equal(JSON.stringify(chat.thread.entries), before);
    await api.chats.close(branch.id);
    await api.chats.close(chat.id);
  });
});
