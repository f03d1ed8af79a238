/**
 * Retry and Branch with a real agent (after agent.test.ts, same host): the
 * conversation goes on from the chosen prompt, and what the model is asked
 * shows how the agent's session followed: forked at that point (Claude Code,
 * Codex: the model hears the turns before it, once) or a new session given
 * the earlier turns as context (OpenCode, Gemini CLI).
 */
import type { OpenChat as Chat } from '../../../src/extension';
import * as assert from '../shared/assert';
import { acpApi, transcript, waitFor } from '../shared/chatWaits';
import { fakeLog, realAgentConfig, type FakeRequest } from './config';
import { connectedRealChat } from './realChat';

const config = realAgentConfig();
const FIRST = 'Say something, please.';
const SECOND = 'Say something else, please.';
const BRANCHED = 'Say a third thing, please.';
const CONTEXT_START = 'The conversation so far';

/** The model requests since `from` that carry `text` in a user message: the turn's main requests. */
async function asked(from: number, text: string): Promise<FakeRequest[]> {
  return (await fakeLog(config)).slice(from).filter((r) => r.userTexts?.some((t) => t.includes(text)));
}
const count = (r: FakeRequest, text: string) => r.userTexts?.filter((t) => t.includes(text)).length ?? 0;
const promptId = (chat: Chat, text: string) =>
  chat.thread.entries.find((e) => e.kind === 'user' && e.text === text)!.id;

describe(`${config.agent.name}: Retry and Branch (real agent, fake model)`, function () {
  this.timeout(180_000);
  let chat: Chat;

  before(async () => {
    chat = (await connectedRealChat(config)).chat;
    for (const text of [FIRST, SECOND]) {
      await chat.composer.send(text);
      await waitFor(chat, `the answer to "${text}"`, () => chat.thread.turn === 'idle', 60_000);
    }
  });

  it('Retry: the last prompt again, from before it', async () => {
    const from = (await fakeLog(config)).length;
    await chat.rewind.retry();
    await waitFor(
      chat,
      'the retried turn',
      () => chat.thread.turn === 'idle' && chat.thread.entries.at(-1)?.kind === 'assistant',
      60_000,
    );
    const prompts = chat.thread.entries.filter((e) => e.kind === 'user').map((e) => (e.kind === 'user' ? e.text : ''));
    assert.deepEqual(prompts, [FIRST, SECOND], transcript(chat));
    const main = (await asked(from, SECOND)).at(-1);
    assert.ok(main, 'the model was asked again');
    if (config.expect.forksAtMessage) {
      assert.match(transcript(chat), /The agent forked its session at that point/);
      assert.equal(
        count(main, SECOND),
        1,
        `the fork holds the turn before, not the retried one: ${JSON.stringify(main.userTexts)}`,
      );
      assert.equal(count(main, FIRST), 1, 'the turn before, once');
      assert.equal(count(main, CONTEXT_START), 0, 'no context: the fork has the turns');
    } else {
      assert.match(transcript(chat), /cannot fork its session at that point/);
      assert.ok(
        main.userTexts!.some((t) => t.startsWith(CONTEXT_START)),
        `given the turns before: ${JSON.stringify(main.userTexts)}`,
      );
    }
  });

  it('Branch from the first prompt: a new chat from the end of that turn; the chat it came from is unchanged', async () => {
    const api = await acpApi();
    // Its prompts and answers (its title may still come in: Codex names a session after its first turns).
    const said = () =>
      chat.thread.entries.flatMap((e) => (e.kind === 'user' || e.kind === 'assistant' ? [e.text] : []));
    const before = said();
    const branch = api.chats.branch(chat, promptId(chat, FIRST))!;
    assert.ok(branch, 'a branch');
    const from = (await fakeLog(config)).length;
    await branch.composer.send(BRANCHED);
    await waitFor(
      branch,
      'the branch answer',
      () => branch.thread.turn === 'idle' && branch.thread.entries.at(-1)?.kind === 'assistant',
      90_000,
    );
    const main = (await asked(from, BRANCHED)).at(-1);
    assert.ok(main, 'the model was asked');
    assert.equal(count(main, SECOND), 0, `not the turn after the branch point: ${JSON.stringify(main.userTexts)}`);
    if (config.expect.forksAtMessage) assert.equal(count(main, FIRST), 1, 'the fork holds the first turn');
    else {
      assert.ok(
        main.userTexts!.some((t) => t.startsWith(CONTEXT_START) && t.includes(FIRST)),
        'given the first turn',
      );
    }
    assert.deepEqual(said(), before, 'the chat it came from is unchanged');
    await api.chats.close(branch.id);
  });
});
