/** <acp-plan-view>: the live plan above the composer, the session's plans by id, and plan snapshots in the transcript. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const PLAN = [
  { content: 'Read the failing test', priority: 'high', status: 'completed' },
  { content: 'Fix the parser', priority: 'medium', status: 'in_progress' },
  { content: 'Run <b>all</b> tests', priority: 'low', status: 'pending' },
];

/** The session's plans by id (plan operations), one of each kind. */
const NAMED = [
  {
    id: 'backend',
    type: 'items',
    entries: [
      { content: 'Write the migration', priority: '', status: 'completed' },
      { content: 'Run <b>it</b>', priority: '', status: 'pending' },
    ],
  },
  {
    id: 'rollout',
    type: 'markdown',
    markdown: '## Rollout\n\n- staging <img src=x onerror=alert(1)>\n- production <script>x</script>',
  },
  { id: 'notes', type: 'file', uri: 'file:///w/docs/PLAN%20notes.md' },
];

const status = runningStatus;

/** Each step as "status label: content [priority]" the way a screen reader reads it. */
function steps(plan) {
  return plan.locator('li').evaluateAll((lis) => lis.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
}

describe('<acp-plan-view>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  it('shows the live plan above the composer while the turn runs', async () => {
    await chat.apply({ type: 'status', status: status({ plan: PLAN }) });
    const live = chat.page.locator('acp-chat-app .live-plan acp-plan-view');
    assert.deepEqual(await steps(live), [
      'Completed: Read the failing test priority high',
      'In progress: Fix the parser priority medium',
      'Pending: Run <b>all</b> tests priority low',
    ]);
    assert.match(await live.locator('h2').textContent(), /Plan · 1 of 3 done/);
    assert.deepEqual(await live.locator('li').evaluateAll((l) => l.map((e) => e.className)), [
      'completed',
      'in_progress',
      'pending',
    ]);
    assert.deepEqual(await live.locator('.priority').evaluateAll((l) => l.map((e) => e.className)), [
      'priority high',
      'priority medium',
      'priority low',
    ]);
    assert.deepEqual(await live.locator('li .codicon').evaluateAll((l) => l.map((e) => e.classList[1])), [
      'codicon-pass',
      'codicon-circle-large-filled',
      'codicon-circle-large',
    ]);
    assert.equal(await chat.page.locator('acp-plan-view b').count(), 0, 'plan text is text');
    // It sits between the transcript and the composer.
    const order = await chat.page
      .locator('acp-chat-app')
      .evaluate((app) => [...app.shadowRoot.children].map((c) => c.localName + (c.className ? `.${c.className}` : '')));
    assert.deepEqual(order.slice(0, 4), ['acp-chat-header', 'div.lists', 'div.live-plan', 'acp-chat-composer']);

    // Updates as the agent reports progress.
    await chat.apply({ type: 'status', status: status({ plan: PLAN.map((p) => ({ ...p, status: 'completed' })) }) });
    assert.match(await live.locator('h2').textContent(), /3 of 3 done/);

    // Gone when the turn ends (the thread keeps a snapshot entry instead).
    await chat.apply({ type: 'status', status: status({ turn: 'idle', plan: [] }) });
    assert.equal(await chat.page.locator('acp-chat-app .live-plan').count(), 0);
  });

  it('shows plan snapshots in the transcript, with unknown values as given', async () => {
    await chat.setEntries([
      { kind: 'plan', id: 'p1', entries: [...PLAN, { content: 'Odd', priority: 'urgent', status: 'blocked' }] },
    ]);
    const plan = chat.page.locator('acp-chat-entry acp-plan-view');
    assert.deepEqual((await steps(plan)).slice(2), [
      'Pending: Run <b>all</b> tests priority low',
      'blocked: Odd priority urgent',
    ]);
    assert.equal(await plan.locator('li').nth(3).getAttribute('class'), 'pending');
  });

  it("shows the session's plans by id, between turns too: steps, Markdown (as text, no markup) and a file to open", async () => {
    await chat.apply({ type: 'status', status: status({ turn: 'idle', plan: [], plans: NAMED }) });
    const region = chat.page.locator('acp-chat-app .live-plan[role="region"][aria-label="Plans"]');
    const plans = region.locator('acp-plan-view');
    assert.equal(await plans.count(), 3);
    assert.match(await plans.nth(0).locator('h2').textContent(), /Plan · backend\s*· 1 of 2 done/);
    assert.deepEqual(await steps(plans.nth(0)), ['Completed: Write the migration', 'Pending: Run <b>it</b>']);
    const markdown = plans.nth(1).locator('acp-markdown');
    assert.equal(await markdown.locator('h2').textContent(), 'Rollout');
    assert.equal(await markdown.locator('li').count(), 2);
    assert.equal(await markdown.locator('img, script, b').count(), 0, 'no markup from the agent');
    const file = plans.nth(2).locator('a.file');
    assert.equal((await file.textContent()).trim(), 'PLAN notes.md');
    assert.equal(await file.getAttribute('title'), 'Open file:///w/docs/PLAN%20notes.md');
    await file.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await chat.posted()).at(-1), {
      type: 'openLink',
      href: 'file:///w/docs/PLAN%20notes.md',
      chatId: 'c1',
    });

    // With a running turn's own plan, that one comes first, and both stay.
    await chat.apply({ type: 'status', status: status({ plan: PLAN, plans: NAMED.slice(0, 1) }) });
    assert.equal(await region.locator('acp-plan-view').count(), 2);
    assert.match(await region.locator('acp-plan-view').first().locator('h2').textContent(), /^Plan · 1 of 3 done$/);

    // Removed by the agent: gone.
    await chat.apply({ type: 'status', status: status({ turn: 'idle', plan: [] }) });
    assert.equal(await chat.page.locator('acp-chat-app .live-plan').count(), 0);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({ type: 'status', status: status({ plan: PLAN, plans: NAMED }) });
      await chat.setEntries([{ kind: 'plan', id: 'p1', entries: PLAN }]);
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
