/** <acp-message-list>: pinned to the newest entry without layout reads, scroll position kept across hiding. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { installVsCodeState, openChatPage } from './harness.mjs';
import { atEnd, entryTop, fromEnd, scroller, settle } from './list-view.mjs';

const history = Array.from({ length: 60 }, (_, i) =>
  i % 2 === 0
    ? { kind: 'user', id: `u${i}`, text: `Question ${i}` }
    : { kind: 'assistant', id: `a${i}`, text: `Answer ${i}\n\n${'Some words. '.repeat(20)}` },
);

async function reloadReady(chat) {
  await chat.page.reload();
  await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
}

describe('<acp-message-list>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark', height: 600 });
  });
  afterEach(() => chat?.close());

  it('stays on the newest entry while text streams, without reading layout', async () => {
    await chat.setEntries(history);
    const list = scroller(chat.page);
    assert.ok(await list.evaluate((s) => s.scrollHeight > s.clientHeight * 3), 'the transcript overflows');
    // Count every layout read from here on.
    await chat.page.evaluate(() => {
      window.__layoutReads = 0;
      const count = (proto, name) => {
        const d = Object.getOwnPropertyDescriptor(proto, name);
        if (d.get) {
          Object.defineProperty(proto, name, {
            ...d,
            get() {
              window.__layoutReads++;
              return d.get.call(this);
            },
          });
        } else {
          Object.defineProperty(proto, name, {
            ...d,
            value(...a) {
              window.__layoutReads++;
              return d.value.apply(this, a);
            },
          });
        }
      };
      for (const n of ['scrollTop', 'scrollHeight', 'clientHeight', 'getBoundingClientRect', 'getClientRects']) {
        count(Element.prototype, n);
      }
      for (const n of ['offsetHeight', 'offsetTop']) count(HTMLElement.prototype, n);
    });
    await chat.setEntries([...history, { kind: 'assistant', id: 'live', text: '' }]);
    // Each older group that goes off screen as the answer grows reads its height once (far-groups.ts).
    await chat.page.evaluate(() => {
      window.__groupsGone = 0;
      const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
      list.addEventListener('contentvisibilityautostatechange', (e) => (window.__groupsGone += e.skipped ? 1 : 0), {
        capture: true,
      });
    });
    for (let i = 0; i < 50; i++) await chat.appendText(history.length, `chunk ${i} `.repeat(5));
    const { reads, gone } = await chat.page.evaluate(() => ({
      reads: window.__layoutReads,
      gone: window.__groupsGone,
    }));
    assert.ok(reads <= gone, `no layout read per chunk while streaming: ${reads} reads, ${gone} groups off screen`);
    // The newest text is in view.
    const last = chat.page.locator('acp-chat-entry').last();
    const [box, view] = [await last.boundingBox(), await list.boundingBox()];
    assert.ok(
      box.y + box.height <= view.y + view.height + 1 && box.y + box.height > view.y,
      'newest entry visible at the bottom',
    );
    assert.ok(await list.evaluate((s) => s.scrollHeight - s.clientHeight - s.scrollTop <= 1), 'scrolled to the end');
    assert.equal(await list.getAttribute('role'), 'log');
    assert.equal(await list.getAttribute('aria-live'), 'off', 'chunks are not read out one by one');
  });

  it('follows an answer that grows taller than the view, from a transcript that fitted', async () => {
    await chat.setEntries([
      { kind: 'user', id: 'q', text: 'Tell me a long story.' },
      { kind: 'assistant', id: 'a', text: '' },
    ]);
    assert.ok((await fromEnd(chat.page)) <= 1);
    await chat.streamText(
      1,
      Array.from(
        { length: 80 },
        (_, i) => `Sentence ${i} of a story that goes on. `.repeat(3) + (i % 4 === 3 ? '\n\n' : ''),
      ),
    );
    assert.ok(await scroller(chat.page).evaluate((s) => s.scrollHeight > s.clientHeight * 2), 'the answer overflows');
    await atEnd(chat.page);
    await chat.streamText(1, ['\n\nThe very end.']);
    await atEnd(chat.page);
  });

  it('leaves the view where the user scrolled back to while an answer streams below and old entries grow above', async () => {
    await chat.setEntries([...history, { kind: 'assistant', id: 'live', text: '' }]);
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: s.scrollHeight - s.clientHeight - 1500 }));
    await settle(chat.page);
    // The first entry that starts in the view.
    let reference = 0;
    while ((await entryTop(chat.page, reference)) < 0) reference++;
    assert.ok(reference > 4 && reference < history.length, `entry ${reference} is in view`);
    const before = await entryTop(chat.page, reference);
    await chat.streamText(
      history.length,
      Array.from({ length: 30 }, (_, i) => `More text ${i}. `.repeat(8)),
    );
    assert.ok(
      Math.abs((await entryTop(chat.page, reference)) - before) <= 1,
      'text streamed below did not move the view',
    );
    // An older entry, above the view, gets taller (as one does when its Markdown or its real size arrives).
    const above = reference - 4 - ((reference + 1) % 2); // an answer (odd index), wholly above the view
    await chat.apply({
      type: 'entries',
      length: history.length + 1,
      ops: [{ op: 'append', index: above, text: `\n\n${'Grown. '.repeat(200)}` }],
    });
    await settle(chat.page);
    assert.ok(
      Math.abs((await entryTop(chat.page, reference)) - before) <= 1,
      'an entry growing above did not move the view',
    );
    assert.ok((await fromEnd(chat.page)) > 1000, 'still scrolled back');
  });

  it('scrolled back, offers a button to the newest message; sending a prompt goes there too', async () => {
    await chat.setEntries(history);
    await atEnd(chat.page);
    const toEnd = chat.page.getByRole('button', { name: 'Go to the newest message' });
    assert.equal(await toEnd.count(), 0, 'not while at the newest end');
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: s.scrollHeight - s.clientHeight - 1500 }));
    await toEnd.waitFor({ timeout: 2_000 });
    await toEnd.click();
    await atEnd(chat.page);
    await toEnd.waitFor({ state: 'detached', timeout: 2_000 });
    // It stays there as the answer grows.
    await chat.streamText(
      history.length - 1,
      Array.from({ length: 10 }, (_, i) => `\n\nMore ${i}. `.repeat(10)),
    );
    await atEnd(chat.page);

    // Scrolled back again, the user sends a prompt: the view goes to where the answer will come.
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: 0 }));
    await toEnd.waitFor({ timeout: 2_000 });
    await chat.page.getByRole('combobox', { name: 'Message the agent' }).fill('next question');
    await chat.page.keyboard.press('Enter');
    await atEnd(chat.page);
    await chat.setEntries([...history, { kind: 'user', id: 'u-next', text: 'next question' }]);
    await chat.streamText(
      history.length + 1,
      Array.from({ length: 20 }, (_, i) => `Answer part ${i}. `.repeat(20)),
    );
    await atEnd(chat.page);
  });

  it("restores a saved position only into that chat's list: another chat starts at its newest end", async () => {
    await installVsCodeState(chat.page);
    await chat.page.evaluate(() =>
      sessionStorage.setItem('vscode-state', JSON.stringify({ scrollFromEnd: 700, scrollChat: 'another chat' })),
    );
    await reloadReady(chat);
    await chat.setEntries(history);
    await settle(chat.page);
    await atEnd(chat.page);
  });

  it('keeps the newest end in view when the view gets shorter', async () => {
    await chat.setEntries(history);
    await atEnd(chat.page);
    await chat.page.setViewportSize({ width: 420, height: 400 });
    await settle(chat.page);
    await atEnd(chat.page);
    await chat.streamText(history.length - 1, ['\n\nAppended after the resize.']);
    await atEnd(chat.page);
  });

  it('restores how far back the user had scrolled when the view is shown again', async () => {
    await installVsCodeState(chat.page);
    await reloadReady(chat);
    await chat.setEntries(history);
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: s.scrollHeight - s.clientHeight - 700 }));
    await chat.page.waitForTimeout(700); // sampled, then saved, sparingly
    const saved = await chat.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state')));
    assert.equal(saved.scrollFromEnd, 700);

    await reloadReady(chat);
    await chat.setEntries(history);
    await chat.page.waitForFunction(
      () => {
        const s = document
          .querySelector('acp-chat-app')
          .shadowRoot.querySelector('acp-message-list')
          .shadowRoot.querySelector('.scroller');
        return Math.abs(s.scrollHeight - s.clientHeight - s.scrollTop - 700) <= 1;
      },
      undefined,
      { timeout: 2_000 },
    );

    // Back at the newest end, that is what is restored.
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: s.scrollHeight }));
    await chat.page.waitForTimeout(700);
    await reloadReady(chat);
    await chat.setEntries(history);
    await chat.page.waitForTimeout(100);
    assert.ok(
      await scroller(chat.page).evaluate((s) => s.scrollHeight - s.clientHeight - s.scrollTop <= 1),
      'at the end',
    );
  });

  it('shows a long transcript newest first, then all of it within frames, at the newest end throughout', async () => {
    const long = Array.from({ length: 1_000 }, (_, i) =>
      i % 2 === 0
        ? { kind: 'user', id: `u${i}`, text: `Question ${i}` }
        : { kind: 'assistant', id: `a${i}`, text: `Answer ${i}: ${'words '.repeat(20)}` },
    );
    const seen = await chat.page.evaluate(async (entries) => {
      const app = document.querySelector('acp-chat-app');
      const list = () => app.shadowRoot.querySelector('acp-message-list');
      // Entries placed (the oldest run's first entry on), and entry elements in the page.
      const count = () =>
        entries.length - Number(list().shadowRoot.querySelector('.run')?.dataset.run ?? entries.length);
      const elements = () => list().shadowRoot.querySelectorAll('acp-chat-entry').length;
      const distance = () => {
        const s = list().shadowRoot.querySelector('.scroller');
        return s.scrollHeight - s.clientHeight - s.scrollTop;
      };
      app.apply({
        type: 'entries',
        length: entries.length,
        ops: entries.map((entry, index) => ({ op: 'set', index, entry })),
      });
      await app.updateComplete;
      await list().updateComplete;
      // What the first frame gets, then every frame until all are there.
      const frames = [{ count: count(), elements: elements() }];
      for (let i = 0; i < 60 && frames.at(-1).count < entries.length; i++) {
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        frames.push({
          count: count(),
          elements: elements(),
          distance: distance(),
          last: [...list().shadowRoot.querySelectorAll('acp-chat-entry')].at(-1)?.entry.id,
        });
      }
      return frames;
    }, long);
    // The newest run of 64 (and the partial one after it) first: more than a view holds, far fewer than all.
    assert.ok(seen[0].count >= 64 && seen[0].count < 128, `first render: ${seen[0].count} entries`);
    assert.equal(seen.at(-1).count, long.length, `all entries within ${seen.length} frames`);
    assert.ok(seen.length <= 8, `${seen.length} frames to show them all`);
    // Only the entries near the view are elements: the newest few, and the groups of 16 the view reaches.
    for (const frame of seen) assert.ok(frame.elements <= 100, `${frame.elements} entry elements in the page`);
    for (const frame of seen.slice(1)) {
      assert.ok(
        frame.distance <= 1,
        `the view stays at the newest end while older entries appear (${JSON.stringify(frame)})`,
      );
      assert.equal(frame.last, long.at(-1).id);
    }
    // In order: at the top, the oldest first.
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: 0 }));
    await chat.page.waitForFunction(
      () =>
        document
          .querySelector('acp-chat-app')
          .shadowRoot.querySelector('acp-message-list')
          .shadowRoot.querySelector('acp-chat-entry')?.entry.id === 'u0',
      undefined,
      { timeout: 3_000 },
    );
  });

  it('is keyboard scrollable', async () => {
    await chat.setEntries(history);
    const list = scroller(chat.page);
    assert.equal(await list.getAttribute('tabindex'), '0');
    await list.focus();
    await chat.page.keyboard.press('PageUp');
    await chat.page.waitForFunction(() => {
      const s = document
        .querySelector('acp-chat-app')
        .shadowRoot.querySelector('acp-message-list')
        .shadowRoot.querySelector('.scroller');
      return s.scrollHeight - s.clientHeight - s.scrollTop > 1;
    });
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.setEntries(history);
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
