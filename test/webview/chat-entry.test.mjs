/**
 * <acp-chat-entry>: each kind of transcript entry, as the user sees and
 * operates it.
 */
import * as assert from 'node:assert/strict';
import { allElements, markdownHtmls, squash } from './dom.mjs';
import { openChatPage } from './harness.mjs';

describe('<acp-chat-entry>', function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light' });
  });
  after(() => chat?.close());
  afterEach(() => assert.deepEqual(chat.errors(), []));

  it("shows the user's text exactly as typed, not as Markdown", async () => {
    await chat.setEntries([{ kind: 'user', id: 'u', text: '# not a heading\n*not em* <b>not bold</b>  \n  indented' }]);
    const user = chat.page.locator('.user .plain');
    assert.equal(await user.textContent(), '# not a heading\n*not em* <b>not bold</b>  \n  indented');
    assert.equal(await user.evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
    assert.equal(await chat.page.locator('.user').getByText('You', { exact: true }).count(), 1);
  });

  it("renders the agent's text as Markdown", async () => {
    await chat.setEntries([{ kind: 'assistant', id: 'a', text: 'Hello **there**' }]);
    assert.deepEqual(await markdownHtmls(chat.page), ['<div class="blocks"><p>Hello <strong>there</strong></p></div>']);
  });

  it('keeps a thought collapsed by default, with a one-line preview and no rendered Markdown', async () => {
    await chat.setEntries([{ kind: 'thought', id: 't', text: 'First I look.\n\nThen I **decide** what `to do`.' }]);
    const details = chat.page.locator('details.thought');
    assert.equal(await details.evaluate((d) => d.open), false);
    assert.equal(await chat.page.locator('details.thought acp-markdown').count(), 0);
    assert.equal(await chat.page.locator('details.thought summary .label').textContent(), 'Thinking');
    assert.equal(await chat.page.locator('details.thought .preview').textContent(), 'Then I decide what to do.');
    assert.equal(await chat.page.locator('details.thought .preview').getAttribute('aria-hidden'), 'true');
  });

  it('shows a compaction as a boundary with its status, its summary collapsed until opened', async () => {
    await chat.setEntries([
      { kind: 'assistant', id: 'a0', text: 'Before.' },
      {
        kind: 'compaction',
        id: 'k',
        compactionId: 'c1',
        status: 'completed',
        summary: 'We **fixed** the parser.\n\n<img src=x onerror=alert(1)>',
      },
      { kind: 'compaction', id: 'k2', compactionId: 'c2', status: 'failed', summary: '', error: 'too long <b>x</b>' },
      { kind: 'compaction', id: 'k3', compactionId: 'c3', status: 'in_progress', summary: '' },
    ]);
    const lines = chat.page.locator('.compaction-line');
    assert.deepEqual(await lines.allTextContents().then((t) => t.map(squash)), [
      'Context compacted: the agent goes on from a summary of the conversation above',
      'Compacting the context failed: too long <b>x</b>',
      'Compacting the context…',
    ]);
    assert.equal(await chat.page.locator('.compaction.error').count(), 1);
    assert.equal(
      await chat.page.locator('details.compaction-summary').count(),
      1,
      'only a compaction with a summary has one',
    );
    assert.equal(
      await chat.page.locator('details.compaction-summary acp-markdown').count(),
      0,
      'not rendered while closed',
    );
    await chat.page.locator('details.compaction-summary summary').press('Enter');
    await chat.page.locator('details.compaction-summary acp-markdown').waitFor();
    assert.deepEqual(await markdownHtmls(chat.page), [
      '<div class="blocks"><p>Before.</p></div>',
      '<div class="blocks"><p>We <strong>fixed</strong> the parser.</p><p class="raw-html">&lt;img src=x onerror=alert(1)&gt;</p></div>',
    ]);
  });

  it('opens and closes a thought with a click or the keyboard, and streams into it', async () => {
    await chat.setEntries([{ kind: 'thought', id: 't2', text: 'Step one.' }]);
    const summary = chat.page.locator('details.thought summary');
    // The Markdown is rendered on the `toggle` event, which the browser fires a task after the click.
    const markdown = chat.page.locator('details.thought acp-markdown');
    await summary.click();
    assert.equal(await chat.page.locator('details.thought').evaluate((d) => d.open), true);
    await markdown.waitFor();
    await chat.streamText(0, ['\n\n- step', ' two', '\n- step three']);
    assert.deepEqual(await markdownHtmls(chat.page), [
      '<div class="blocks"><p>Step one.</p><ul><li>step two</li><li>step three</li></ul></div>',
    ]);
    await summary.focus();
    await chat.page.keyboard.press('Enter');
    assert.equal(await chat.page.locator('details.thought').evaluate((d) => d.open), false);
    await markdown.waitFor({ state: 'detached' });
    await chat.page.keyboard.press('Space');
    assert.equal(await chat.page.locator('details.thought').evaluate((d) => d.open), true);
    await markdown.waitFor();
    assert.match(squash(await chat.deepText('acp-chat-app', { visibleOnly: true })), /Step one\. step two step three/);
  });

  it('shows notices by level; only errors are alerts', async () => {
    await chat.setEntries([
      { kind: 'notice', id: 'n1', level: 'info', text: 'Connected to Test Agent' },
      { kind: 'notice', id: 'n2', level: 'warning', text: 'The agent is slow' },
      { kind: 'notice', id: 'n3', level: 'error', text: 'The agent <b>crashed</b>' },
    ]);
    const notices = await chat.page.locator('.notice').evaluateAll((els) =>
      els.map((e) => ({
        cls: e.className,
        role: e.getAttribute('role'),
        text: e.textContent.replace(/\s+/g, ' ').trim(),
      })),
    );
    assert.deepEqual(notices, [
      { cls: 'notice info', role: null, text: 'Info: Connected to Test Agent' },
      { cls: 'notice warning', role: null, text: 'Warning: The agent is slow' },
      { cls: 'notice error', role: 'alert', text: 'Error: The agent <b>crashed</b>' },
    ]);
    assert.equal(await chat.page.getByRole('alert').count(), 1);
    // The info notice is muted; the error text keeps the body colour (bar and icon carry the level).
    const colours = await chat.page.locator('.notice').evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
    assert.equal(colours[0], 'rgb(59, 59, 59)');
    assert.notEqual(colours[2], 'rgb(248, 81, 73)');
  });

  it("puts a notice's action under its text, which keeps the width of the view (300 px)", async () => {
    const size = chat.page.viewportSize();
    await chat.page.setViewportSize({ width: 300, height: 600 });
    try {
      await chat.setEntries([
        {
          kind: 'notice',
          id: 'n',
          level: 'error',
          text: 'Could not connect to Agent on the ACP bridge: No ACP bridge accepted a connection at ws://127.0.0.1:40739/.',
          action: 'retry',
        },
      ]);
      const box = (locator) => locator.evaluate((e) => e.getBoundingClientRect().toJSON());
      const notice = await box(chat.page.locator('.notice'));
      const text = await box(chat.page.locator('.notice .plain'));
      const button = await box(chat.page.getByRole('button', { name: 'Try again' }));
      assert.ok(
        text.width >= notice.width - 50,
        `the text has the notice's width (${text.width} of ${notice.width} px)`,
      );
      assert.ok(button.top >= text.bottom, 'the action is under the text');
      assert.ok(Math.abs(button.left - text.left) <= 1, 'and starts where the text does');
    } finally {
      await chat.page.setViewportSize(size);
    }
  });

  it('renders tool calls with <acp-tool-card> and plans with <acp-plan-view>', async () => {
    const tool = {
      kind: 'tool',
      id: 'tc',
      toolCallId: 'call-1',
      title: 'Read file',
      toolKind: 'read',
      status: 'completed',
      content: [],
      locations: [],
    };
    const plan = {
      kind: 'plan',
      id: 'p',
      entries: [{ content: 'Write tests', priority: 'high', status: 'completed' }],
    };
    await chat.setEntries([tool, plan]);
    const card = chat.page.locator('acp-tool-card');
    assert.equal(await card.count(), 1);
    assert.equal(await card.evaluate((el) => el.entry.toolCallId), 'call-1');
    const planView = chat.page.locator('acp-plan-view');
    assert.deepEqual(await planView.evaluate((el) => el.entries), plan.entries);
    assert.match(squash(await chat.deepText()), /Read file.*Write tests/);
  });

  it('never writes agent text into a style or event attribute', async () => {
    await chat.setEntries([
      { kind: 'assistant', id: 'x', text: '[a](https://e.example "t\\" onmouseover=\\"x") **b**' },
      { kind: 'thought', id: 'y', text: 'thinking' },
      { kind: 'notice', id: 'z', level: 'error', text: 'boom' },
    ]);
    const bad = (await allElements(chat.page)).filter((e) =>
      Object.keys(e.attrs).some((a) => a === 'style' || a.startsWith('on')),
    );
    assert.deepEqual(bad, []);
  });
});
