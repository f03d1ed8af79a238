/**
 * <acp-message-list>'s far groups (far-groups.ts): older entries are in the page only near the view, and a long
 * chat shown at once makes only the newest entries that fill the view, never an empty box where the view is.
 */
import * as assert from 'node:assert/strict';
import { openChatPage } from './harness.mjs';
import { atEnd, scroller, settle } from './list-view.mjs';

/**
 * `entries` as the host posts a whole list, then, in the first frame that shows it (its animation frame: laid out
 * as that frame lays it out, before the browser says which far groups are near), the list's groups and empty runs:
 * first entry's index, whether far, how many entries it holds, and its top and bottom from the view's top; and the
 * view's height.
 */
const firstFrame = (page, entries) =>
  page.evaluate(async (m) => {
    const app = document.querySelector('acp-chat-app');
    app.apply(m);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const list = app.shadowRoot.querySelector('acp-message-list').shadowRoot;
    const view = list.querySelector('.scroller').getBoundingClientRect();
    // A run of groups far from the view is one empty box (a far group of its own here).
    const boxes = list.querySelectorAll('.group, .run:not(:has(.group))');
    const groups = [...boxes].map((g) => {
      const box = g.getBoundingClientRect();
      return {
        at: Number(g.dataset.at ?? g.dataset.run),
        far: g.classList.contains('far') || g.classList.contains('run'),
        held: g.querySelectorAll('acp-chat-entry').length,
        top: box.top - view.top,
        bottom: box.bottom - view.top,
      };
    });
    return { groups, viewHeight: view.height };
  }, wholeList(entries));
const wholeList = (entries) => ({
  type: 'entries',
  length: entries.length,
  ops: entries.map((entry, index) => ({ op: 'set', index, entry })),
});
/** The groups of `firstFrame` that are in the view and hold no entries: what the user would see as an empty box. */
const emptyInView = ({ groups, viewHeight }) =>
  groups.filter((g) => g.bottom > 0 && g.top < viewHeight && g.held === 0);
const made = ({ groups }) => groups.reduce((n, g) => n + g.held, 0);

const prose = 'The agent reads the file, then changes the code so that the tests pass again. '.repeat(40);
/** `count` entries: a one-line prompt and an answer of `answer` (each with its index) in turn. */
const chatOf = (count, answer) =>
  Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? { kind: 'user', id: `q${i}`, text: `Question ${i}` }
      : { kind: 'assistant', id: `r${i}`, text: `Answer ${i}.\n\n${answer}` },
  );

describe('<acp-message-list> far groups', function () {
  let chat;
  afterEach(() => chat?.close());

  for (const [width, height] of [
    [292, 800],
    [1200, 900],
  ]) {
    it(`shows a long chat made only of its newest entries that fill the view, in its first frame (${width}x${height})`, async () => {
      chat = await openChatPage({ width, height });
      const frame = await firstFrame(chat.page, chatOf(400, prose.slice(0, 2_500)));
      assert.deepEqual(emptyInView(frame), []);
      // One group of 16 (far groups are whole groups): a few answers of 2,500 characters fill the view.
      assert.equal(made(frame), 16);
      assert.ok(frame.groups.at(-1).top < 0, 'the newest group is taller than the view');
    });
  }

  it('shows a long chat of one-line entries whole in the view in its first frame, and code as tall as it is', async () => {
    chat = await openChatPage({ width: 1200, height: 900 });
    let frame = await firstFrame(chat.page, chatOf(400, 'Done.'));
    assert.deepEqual(emptyInView(frame), []);
    assert.ok(frame.groups.find((g) => g.held > 0).top <= 0, 'the entries made fill the view');
    await chat.close();
    chat = await openChatPage({ width: 292, height: 800 });
    const code = '```ts\n' + 'const x = f(1);\n'.repeat(60) + '```';
    frame = await firstFrame(chat.page, chatOf(400, code));
    assert.deepEqual(emptyInView(frame), []);
    assert.ok(frame.groups.find((g) => g.held > 0).top <= 0, 'the entries made fill the view');
  });

  it('holds older entries only near the view: scrolled to, they are whole; scrolled away, their place is kept', async () => {
    chat = await openChatPage({ theme: 'dark', height: 600 });
    const transcript = Array.from({ length: 120 }, (_, i) =>
      i % 2 === 0
        ? { kind: 'user', id: `q${i}`, text: `Question ${i}` }
        : {
            kind: 'assistant',
            id: `r${i}`,
            text: `Answer **${i}** with a [link](src/f${i}.ts).\n\n${'More words. '.repeat(30)}`,
          },
    );
    await chat.setEntries(transcript);
    await settle(chat.page);
    /**
     * The list's runs of 64 entries (their first entry's index, how many groups each is made of, none when it is one
     * empty box, and height) and its groups (whether far, skipped off screen, and the ids of the entries each holds).
     */
    const parts = () =>
      chat.page.evaluate(() => {
        const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
        return {
          runs: [...list.querySelectorAll('.run')].map((r) => ({
            start: Number(r.dataset.run),
            groups: r.querySelectorAll('.group').length,
            height: r.getBoundingClientRect().height,
          })),
          groups: [...list.querySelectorAll('.group')].map((g) => ({
            at: Number(g.dataset.at),
            far: getComputedStyle(g).contentVisibility === 'auto',
            held: [...g.querySelectorAll('acp-chat-entry')].map((e) => e.entry.id),
          })),
        };
      });
    const runs = async () => (await parts()).runs;
    const groups = async () => (await parts()).groups;
    // Runs of 64 entries: the oldest, far from the view, is one empty box; the newest is made of its groups.
    assert.deepEqual(
      (await runs()).map((r) => [r.start, r.groups]),
      [
        [0, 0],
        [64, 4],
      ],
    );
    let state = await groups();
    // Groups of 16, aligned to the start; all but the newest that fill the view (in whole groups) are far.
    assert.deepEqual(
      state.map((g) => [g.at, g.far]),
      [64, 80, 96, 112].map((at) => [at, at < 112]),
    );
    // At the newest end, the oldest far group here holds nothing; the newest hold all of theirs.
    assert.deepEqual(state[0].held, []);
    assert.deepEqual(state.at(-1).held, ['q112', 'r113', 'q114', 'r115', 'q116', 'r117', 'q118', 'r119']);
    const heightAtEnd = await scroller(chat.page).evaluate((s) => s.scrollHeight);

    // Scrolled to the top: the oldest entries are there, their Markdown and links whole (in the tab order).
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: 0 }));
    await chat.page.waitForFunction(
      () => {
        const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
        return list.querySelector('acp-chat-entry')?.entry.id === 'q0';
      },
      undefined,
      { timeout: 3_000 },
    );
    await settle(chat.page);
    assert.equal(await scroller(chat.page).evaluate((s) => s.scrollTop), 0);
    state = await groups();
    assert.deepEqual(
      state[0].held,
      transcript.slice(0, 16).map((e) => e.id),
    );
    assert.equal(
      await chat.page
        .locator('acp-chat-entry')
        .first()
        .evaluate((e) => e.entry.id),
      'q0',
    );
    assert.ok((await chat.page.locator('acp-markdown a.link[tabindex="0"]', { hasText: 'link' }).count()) >= 1);
    assert.ok(await chat.page.getByText('Answer 1 with a').isVisible());

    // Back at the newest end: the oldest groups let their entries go, and their run is one box of their heights.
    const oldest = (await runs())[0].height;
    await chat.page.locator('acp-message-list .scroller').evaluate((s) => s.scrollTo({ top: s.scrollHeight }));
    await chat.page.waitForFunction(
      () =>
        document
          .querySelector('acp-chat-app')
          .shadowRoot.querySelector('acp-message-list')
          .shadowRoot.querySelector('.run')
          .querySelector('.group') === null,
      undefined,
      { timeout: 3_000 },
    );
    const emptied = (await runs())[0].height;
    // (Within a few percent: text pieces and Markdown blocks off screen inside it have estimated heights too.)
    assert.ok(
      Math.abs(emptied - oldest) <= oldest * 0.05 && emptied !== 4 * 16 * 80,
      `the emptied run is ${emptied} px high, ${oldest} px with its groups`,
    );
    assert.ok(
      (await scroller(chat.page).evaluate((s) => s.scrollHeight)) > heightAtEnd,
      'the groups seen have their real height (the estimate was less)',
    );
    await atEnd(chat.page);

    // More entries: the newest group turns far once newer ones fill the view, and keeps its entries while in view.
    for (let i = 0; i < 28; i++) transcript.push({ kind: 'user', id: `m${i}`, text: `One more ${i}` });
    await chat.apply({
      type: 'entries',
      length: transcript.length,
      ops: transcript.slice(120).map((entry, i) => ({ op: 'set', index: 120 + i, entry })),
    });
    state = await groups();
    assert.deepEqual(
      state.filter((g) => g.far).map((g) => g.at),
      [64, 80, 96, 112],
    );
    assert.equal(state.find((g) => g.at === 112).held.length, 16);
  });
});
