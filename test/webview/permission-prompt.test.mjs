/** <acp-permission-prompt>: what the agent asks, with the extension's own buttons. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const prompt = (requestId, title, choices = ['allow_once', 'allow_always', 'reject']) => ({
  requestId,
  tool: {
    kind: 'tool',
    id: `t-${requestId}`,
    toolCallId: `call-${requestId}`,
    title,
    toolKind: 'edit',
    status: 'pending',
    locations: [{ path: '/w/notes.txt', line: 3 }],
    content: [{ type: 'diff', path: '/w/notes.txt', oldText: 'old line\n', newText: 'new line\n' }],
  },
  choices,
  agentOptions: ['<img src=x onerror="window.__pwned=1">Yes', 'Yes, and allow `echo hi *` commands', 'No'],
  alwaysScope: 'Yes, and allow `echo hi *` commands',
});

const status = (permissions) => runningStatus({ permissions });

describe('<acp-permission-prompt>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  it('shows what is asked and our labels; the agent option names are inert text', async () => {
    await chat.apply({ type: 'status', status: status([prompt('perm-1', 'Write notes.txt')]) });
    const el = chat.page.locator('acp-permission-prompt');
    assert.match(await el.locator('.ask').innerText(), /The agent asks to: Write notes\.txt/);
    assert.deepEqual(await el.locator('.buttons button').allInnerTexts(), ['Allow once', 'Always allow', 'Reject']);
    // How far "always" reaches is the agent's to say: its words, as text, by that button and in its tooltip.
    assert.equal(await el.locator('.scope').innerText(), 'Always allow: Yes, and allow `echo hi *` commands');
    assert.equal(
      await el.locator('.buttons button.allow_always').getAttribute('title'),
      'Always allow: Yes, and allow `echo hi *` commands',
    );
    // An option that says no more than our button ('Always Allow') is not said again under it.
    await chat.apply({
      type: 'status',
      status: status([{ ...prompt('perm-3', 'Write notes.txt'), alwaysScope: 'Always Allow' }]),
    });
    await el.locator('.ask').getByText('Write notes.txt').waitFor();
    assert.equal(await el.locator('.scope').count(), 0);
    assert.equal(await el.locator('.buttons button.allow_always').getAttribute('title'), null);
    await chat.apply({ type: 'status', status: status([prompt('perm-1', 'Write notes.txt')]) });
    // The agent's own names for its options: in the buttons' tooltip, as text.
    assert.match(
      await el.locator('.buttons').getAttribute('title'),
      /<img src=x onerror="window.__pwned=1">Yes · Yes, and allow `echo hi \*` commands · No/,
    );
    assert.equal(await el.locator('img').count(), 0);
    assert.equal(await chat.page.evaluate(() => window.__pwned), undefined);
    // The diff and the location are shown.
    assert.equal((await el.locator('acp-diff-view').getByText('new line').count()) > 0, true);
    assert.match(await el.locator('.location').first().innerText(), /\/w\/notes\.txt:3/);
    // Inside a workspace folder the path is shown relative to it (the link still opens the full path).
    await chat.apply({ type: 'status', status: { ...status([prompt('perm-2', 'Write notes.txt')]), roots: ['/w'] } });
    assert.equal((await el.locator('.location').first().innerText()).trim(), 'notes.txt:3');
    await chat.clearPosted();
    await el.locator('.location').first().click();
    assert.deepEqual((await chat.posted()).at(-1), {
      type: 'openLocation',
      path: '/w/notes.txt',
      line: 3,
      chatId: 'c1',
    });
  });

  it('shows an edit as its diff, not also as the raw input that repeats it (OpenCode)', async () => {
    const edit = prompt('perm-1', 'Edit notes.txt');
    edit.tool.input = JSON.stringify(
      { filepath: '/w/notes.txt', diff: '--- /w/notes.txt\n+++ /w/notes.txt\n@@ -1 +1 @@\n-old line\n+new line\n' },
      null,
      2,
    );
    await chat.apply({ type: 'status', status: status([edit]) });
    const el = chat.page.locator('acp-permission-prompt');
    assert.equal((await el.locator('acp-diff-view').getByText('new line').count()) > 0, true);
    assert.equal(await el.locator('pre.input').count(), 0);
  });

  it('keeps its buttons in view when what it shows is huge: the details scroll', async () => {
    const big = prompt('perm-1', 'Run a long script');
    Object.assign(big.tool, {
      toolKind: 'execute',
      content: [],
      locations: [],
      input: Array.from({ length: 2000 }, (_, i) => `echo line ${i}`).join(' && '),
    });
    await chat.apply({ type: 'status', status: status([big]) });
    const el = chat.page.locator('acp-permission-prompt');
    const box = await el.getByRole('button', { name: 'Allow once' }).boundingBox();
    const viewport = chat.page.viewportSize();
    assert.ok(
      box && box.y >= 0 && box.y + box.height <= viewport.height,
      `Allow once is in view (${JSON.stringify(box)})`,
    );
    const details = el.getByRole('region', { name: 'Details' });
    assert.ok(await details.evaluate((d) => d.scrollHeight > d.clientHeight), 'the details scroll instead');
  });

  it('each button posts its choice for that request, by keyboard too', async () => {
    await chat.apply({
      type: 'status',
      status: status([prompt('perm-1', 'First'), prompt('perm-2', 'Second', ['allow_once', 'reject'])]),
    });
    const prompts = chat.page.locator('acp-permission-prompt');
    assert.equal(await prompts.count(), 2);
    assert.deepEqual(await prompts.nth(1).locator('.buttons button').allInnerTexts(), ['Allow once', 'Reject']);
    chat.clearPosted();
    await prompts.nth(1).getByRole('button', { name: 'Reject' }).click();
    await prompts.nth(0).getByRole('button', { name: 'Allow once' }).focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      (await chat.posted()).filter((m) => m.type === 'answerPermission'),
      [
        { type: 'answerPermission', chatId: 'c1', requestId: 'perm-2', choice: 'reject' },
        { type: 'answerPermission', chatId: 'c1', requestId: 'perm-1', choice: 'allow_once' },
      ],
    );
  });

  it('announces a new request politely and does not take focus from the composer', async () => {
    await chat.apply({ type: 'status', status: status([]) });
    const box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await box.focus();
    await chat.apply({ type: 'status', status: status([prompt('perm-1', 'Write notes.txt')]) });
    await chat.page.waitForTimeout(200);
    assert.equal(await box.evaluate((el) => el.matches(':focus')), true);
    assert.match(await chat.deepText(), /The agent asks for permission\./);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({ type: 'status', status: status([prompt('perm-1', 'Write notes.txt')]) });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
