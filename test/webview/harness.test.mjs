/** The harness itself: the page runs the real bundle under the production CSP. */
import * as assert from 'node:assert/strict';
import { openChatPage } from './harness.mjs';

describe('component-test harness', function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light' });
  });
  after(() => chat?.close());

  it('loads the bundle under the CSP and records the ready message', async () => {
    assert.deepEqual((await chat.posted())[0], { type: 'ready' });
    const csp = await chat.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    assert.match(
      csp,
      /default-src 'none'; script-src 'nonce-[0-9a-f]{32}'; style-src http:\/\/127\.0\.0\.1:\d+ 'nonce-/,
    );
    assert.deepEqual(chat.errors(), []);
    assert.deepEqual(await chat.violations(), []);
  });

  it('applies host messages and renders entries', async () => {
    await chat.setEntries([{ kind: 'user', id: 'u1', text: 'hello there' }]);
    await chat.appendText(0, ' and more');
    assert.match(await chat.deepText(), /hello there and more/);
  });

  it('records requests, dialogs and CSP violations', async () => {
    // Evaluated through the DevTools protocol, so not subject to the CSP: a stand-in for a bug.
    await chat.page.evaluate(() => {
      alert('probe');
      const i = new Image();
      i.src = 'https://example.invalid/x.png';
      return new Promise((r) => setTimeout(r, 100));
    });
    assert.deepEqual(chat.dialogs(), [{ type: 'alert', message: 'probe' }]);
    assert.ok((await chat.violations()).some((v) => v.blockedURI.startsWith('https://example.invalid')));
    assert.ok(chat.requests().some((r) => r.url.endsWith('/webview/webview.js')));
  });

  it('switches themes', async () => {
    await chat.setTheme('high-contrast');
    const bg = await chat.page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(bg, 'rgb(0, 0, 0)');
  });
});
