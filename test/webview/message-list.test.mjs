/** <acp-message-list>: pinned to the newest entry without layout reads, scroll position kept across hiding. */
import * as assert from 'node:assert/strict';
import { runAxe, seriousOrWorse } from './axe.mjs';
import { openChatPage } from './harness.mjs';

/** Serious and critical axe violations, shadow roots included. */
const axeViolations = async (page) => seriousOrWorse(await runAxe(page)).map((v) => `${v.id}: ${v.targets.join(', ')}`);

function installVsCodeState(page) {
  return page.addInitScript(() => {
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.dispatchEvent(new CustomEvent('acp-webview-message', { detail: m })),
      getState: () => JSON.parse(sessionStorage.getItem('vscode-state') ?? 'null') ?? undefined,
      setState: (s) => sessionStorage.setItem('vscode-state', JSON.stringify(s)),
    });
  });
}

const history = Array.from({ length: 60 }, (_, i) => (i % 2 === 0
  ? { kind: 'user', id: `u${i}`, text: `Question ${i}` }
  : { kind: 'assistant', id: `a${i}`, text: `Answer ${i}\n\n${'Some words. '.repeat(20)}` }));

const scroller = (page) => page.locator('acp-message-list .scroller');

async function reloadReady(chat) {
  await chat.page.reload();
  await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
}

describe('<acp-message-list>', function () {
  let chat;
  beforeEach(async () => { chat = await openChatPage({ theme: 'dark', height: 600 }); });
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
        if (d.get) Object.defineProperty(proto, name, { ...d, get() { window.__layoutReads++; return d.get.call(this); } });
        else Object.defineProperty(proto, name, { ...d, value(...a) { window.__layoutReads++; return d.value.apply(this, a); } });
      };
      for (const n of ['scrollTop', 'scrollHeight', 'clientHeight', 'getBoundingClientRect', 'getClientRects']) count(Element.prototype, n);
      for (const n of ['offsetHeight', 'offsetTop']) count(HTMLElement.prototype, n);
    });
    await chat.setEntries([...history, { kind: 'assistant', id: 'live', text: '' }]);
    for (let i = 0; i < 50; i++) await chat.appendText(history.length, `chunk ${i} `.repeat(5));
    assert.equal(await chat.page.evaluate(() => window.__layoutReads), 0, 'no layout read while streaming');
    // The newest text is in view.
    const last = chat.page.locator('acp-chat-entry').last();
    const [box, view] = [await last.boundingBox(), await list.boundingBox()];
    assert.ok(box.y + box.height <= view.y + view.height + 1 && box.y + box.height > view.y, 'newest entry visible at the bottom');
    assert.equal(await list.evaluate((s) => s.scrollTop), 0);
    assert.equal(await list.getAttribute('role'), 'log');
    assert.equal(await list.getAttribute('aria-live'), 'off', 'chunks are not read out one by one');
  });

  it('restores how far back the user had scrolled when the view is shown again', async () => {
    await installVsCodeState(chat.page);
    await reloadReady(chat);
    await chat.setEntries(history);
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: -700 }));
    await chat.page.waitForTimeout(700); // sampled, then saved, sparingly
    const saved = await chat.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state')));
    assert.equal(saved.scrollFromEnd, 700);

    await reloadReady(chat);
    await chat.setEntries(history);
    await chat.page.waitForFunction(() => document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot.querySelector('.scroller').scrollTop === -700, undefined, { timeout: 2_000 });

    // Back at the newest end, that is what is restored.
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: 0 }));
    await chat.page.waitForTimeout(700);
    await reloadReady(chat);
    await chat.setEntries(history);
    await chat.page.waitForTimeout(100);
    assert.equal(await scroller(chat.page).evaluate((s) => s.scrollTop), 0);
  });

  it('is keyboard scrollable', async () => {
    await chat.setEntries(history);
    const list = scroller(chat.page);
    assert.equal(await list.getAttribute('tabindex'), '0');
    await list.focus();
    await chat.page.keyboard.press('PageUp');
    await chat.page.waitForFunction(() => document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot.querySelector('.scroller').scrollTop < 0);
  });

  it('renders older answers lazily: near the view or when idle, all of them in the end', async () => {
    const transcript = Array.from({ length: 60 }, (_, i) => (i % 2 === 0
      ? { kind: 'user', id: `q${i}`, text: `Question ${i}` }
      : { kind: 'assistant', id: `r${i}`, text: `Answer **${i}** with a [link](src/f${i}.ts).\n\n${'More words. '.repeat(30)}` }));
    // Idle time is ours to give: callbacks wait until the test runs them.
    await chat.page.evaluate(() => {
      window.__idle = [];
      window.requestIdleCallback = (callback) => window.__idle.push(callback);
    });
    await chat.setEntries(transcript);
    const entries = () => chat.page.evaluate(() => {
      const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
      return [...list.querySelectorAll('acp-chat-entry')].map((e) => ({
        markdown: e.shadowRoot.querySelector('acp-markdown') !== null,
        plain: e.shadowRoot.querySelector('.assistant > .plain')?.textContent,
        skippable: getComputedStyle(e).contentVisibility === 'auto',
      }));
    });
    let state = await entries();
    // The newest 20 are whole and never skipped; the older ones may be skipped while off screen.
    assert.deepEqual(state.map((e) => e.skippable), transcript.map((_, i) => i < 40));
    assert.ok(state.slice(40).every((e, i) => e.markdown === (transcript[40 + i].kind === 'assistant')));
    // The oldest answer, far from the view, waits: its text is there, plain.
    assert.deepEqual(state[1], { markdown: false, plain: transcript[1].text, skippable: true });

    // Scrolled to, it is rendered without waiting for idle time.
    await scroller(chat.page).evaluate((s) => s.scrollTo({ top: -s.scrollHeight }));
    await chat.page.waitForFunction(() => document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot
      .querySelector('acp-chat-entry:nth-child(2)').shadowRoot.querySelector('acp-markdown') !== null, undefined, { timeout: 3_000 });

    // Idle time renders the rest: every answer's link is then in the tab order.
    await chat.page.evaluate(async () => {
      while (window.__idle.length > 0) await window.__idle.shift()({ timeRemaining: () => 50, didTimeout: false });
    });
    state = await entries();
    assert.deepEqual(state.filter((e, i) => transcript[i].kind === 'assistant' && !e.markdown), []);
    assert.equal(await chat.page.locator('acp-markdown a.link[tabindex="0"]').count(), 30);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.setEntries(history);
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
