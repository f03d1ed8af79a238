/**
 * What a click does in agent Markdown: links ask the host (`openLink`) and
 * never navigate the webview; copy buttons ask the host (`copyText`).
 */
import * as assert from 'node:assert/strict';
import { openChatPage } from './harness.mjs';

const reply = [
  'Open [the site](https://example.com/page?q=1#top), [a file](src/app.ts#L10) or [bad](javascript:alert(1)).',
  '',
  '```js',
  'console.log("copy me");',
  'const tab = "\t";',
  '```',
].join('\n');

describe('links and copy buttons', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage();
    await chat.setEntries([{ kind: 'assistant', id: 'a', text: reply }]);
    await chat.clearPosted();
  });
  afterEach(async () => {
    assert.deepEqual(chat.errors(), []);
    await chat.close();
  });

  const pageUrl = () => `${chat.origin}/`;
  const link = (name) => chat.page.getByRole('link', { name, exact: true });

  function assertNoNavigation() {
    assert.deepEqual(chat.navigations(), [pageUrl()], 'the page never navigated');
    assert.equal(chat.page.url(), pageUrl());
    assert.deepEqual(chat.popups(), [], 'no window opened');
    assert.deepEqual(chat.foreignRequests(), [], 'nothing was fetched');
  }

  it('a click on a web link posts openLink and does not navigate', async () => {
    await link('the site').click();
    assert.deepEqual(await chat.posted(), [{ type: 'openLink', href: 'https://example.com/page?q=1#top' }]);
    assertNoNavigation();
  });

  it('a click on a file link posts openLink with the path', async () => {
    await link('a file').click();
    assert.deepEqual(await chat.posted(), [{ type: 'openLink', href: 'src/app.ts#L10' }]);
    assertNoNavigation();
  });

  it('links are reachable and activated with the keyboard', async () => {
    await link('the site').focus();
    await chat.page.keyboard.press('Enter');
    await chat.page.keyboard.press('Tab');
    assert.equal(
      await chat.page.evaluate(() => {
        let el = document.activeElement;
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
        return el?.textContent;
      }),
      'a file',
      'Tab moves to the next link',
    );
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [
      { type: 'openLink', href: 'https://example.com/page?q=1#top' },
      { type: 'openLink', href: 'src/app.ts#L10' },
    ]);
    assertNoNavigation();
  });

  it('modified and middle clicks open nothing by themselves', async () => {
    await link('the site').click({ modifiers: ['Control'] });
    await link('the site').click({ modifiers: ['Shift'] });
    await link('the site').click({ button: 'middle' });
    await chat.page.waitForTimeout(200);
    const posted = await chat.posted();
    assert.ok(posted.every((m) => m.type === 'openLink' && m.href === 'https://example.com/page?q=1#top'));
    assertNoNavigation();
  });

  it('a refused link is plain text: a click posts nothing', async () => {
    assert.equal(await link('bad').count(), 0);
    await chat.page.getByText('bad', { exact: true }).click();
    assert.deepEqual(await chat.posted(), []);
    assertNoNavigation();
  });

  it('the copy button posts the code, says so, and works from the keyboard', async () => {
    const button = chat.page.getByRole('button', { name: 'Copy code' });
    await button.click();
    const code = 'console.log("copy me");\nconst tab = "\t";';
    assert.deepEqual(await chat.posted(), [{ type: 'copyText', text: code }]);
    await chat.page.getByRole('button', { name: 'Copied' }).waitFor();
    await chat.page.getByRole('button', { name: 'Copy code' }).waitFor({ timeout: 5_000 });
    await button.focus();
    await chat.page.keyboard.press('Enter');
    await chat.page.keyboard.press('Space');
    assert.deepEqual(await chat.posted(), [
      { type: 'copyText', text: code },
      { type: 'copyText', text: code },
      { type: 'copyText', text: code },
    ]);
    assertNoNavigation();
  });

  it('an element asks the host through an event, and only the app posts it', async () => {
    // A copy button alone in the page, outside the app: its ask is an event, and nothing reaches the host.
    const asked = await chat.page.evaluate(() => {
      const button = document.createElement('acp-copy-button');
      button.text = 'alone';
      document.body.append(button);
      const seen = [];
      button.addEventListener('acp-to-host', (e) =>
        seen.push({ detail: e.detail, composed: e.composed, bubbles: e.bubbles }),
      );
      return button.updateComplete.then(() => {
        button.querySelector('button').click();
        button.remove();
        return seen;
      });
    });
    assert.deepEqual(asked, [{ detail: { type: 'copyText', text: 'alone' }, composed: true, bubbles: true }]);
    assert.deepEqual(await chat.posted(), []);
  });

  it('copies what has arrived of a code block that is still streaming', async () => {
    await chat.setEntries([{ kind: 'assistant', id: 's', text: '```py\nprint(1)\n' }]);
    await chat.streamText(0, ['print(2)\n', 'print(3)']);
    await chat.page.getByRole('button', { name: 'Copy code' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'copyText', text: 'print(1)\nprint(2)\nprint(3)' }]);
  });
});
