/** <acp-usage-meter>: context window use (and cost) from the session's usage updates. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const status = (usage) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [], ...(usage ? { usage } : {}) },
});

describe('<acp-usage-meter>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  it('shows used/size as a meter with a percentage, and the cost when given', async () => {
    await chat.apply({
      type: 'status',
      status: status({ used: 50_000, size: 200_000, cost: { amount: 0.125, currency: 'USD' } }),
    });
    const usage = chat.page.locator('acp-usage-meter');
    const meter = usage.locator('meter');
    assert.deepEqual(await meter.evaluate((m) => [m.min, m.max, m.value]), [0, 200_000, 50_000]);
    assert.equal(await usage.locator('.percent').textContent(), '25%');
    assert.equal(await usage.locator('.cost').textContent(), '$0.13');
    assert.equal(await chat.page.getByRole('meter', { name: 'Context window used' }).count(), 1);
    assert.equal(await meter.getAttribute('aria-valuetext'), 'Context: 50K of 200K tokens used (25%)');

    // Over-full and odd values are clamped; an unknown currency is shown as sent.
    await chat.apply({
      type: 'status',
      status: status({ used: 300, size: 200, cost: { amount: 2, currency: 'not-a-currency' } }),
    });
    assert.equal(await usage.locator('.percent').textContent(), '100%');
    assert.equal(await usage.locator('.cost').textContent(), '2 not-a-currency');
    await chat.apply({ type: 'status', status: status({ used: 1, size: 3 }) });
    assert.equal(await usage.locator('.percent').textContent(), '33%');
    assert.equal(await usage.locator('.cost').count(), 0);
  });

  it('is hidden when the agent reports no usage', async () => {
    await chat.apply({ type: 'status', status: status(undefined) });
    assert.equal(await chat.page.locator('acp-usage-meter').isVisible(), false);
    await chat.apply({ type: 'status', status: status({ used: 0, size: 0 }) });
    assert.equal(await chat.page.locator('acp-usage-meter').isVisible(), false);
    await chat.apply({ type: 'status', status: status({ used: 5, size: 10 }) });
    assert.equal(await chat.page.locator('acp-usage-meter').isVisible(), true);
  });

  it("shows the plan's rate-limit windows, each with how much is used, near or at the limit marked", async () => {
    const resetsAt = Date.UTC(2026, 11, 4, 15, 0);
    await chat.apply({
      type: 'status',
      status: status({
        used: 10,
        size: 100,
        limits: [
          { kind: 'five_hour', label: '5-hour', utilization: 0.42, status: 'allowed', resetsAt },
          { kind: 'seven_day', label: '7-day', utilization: 0.91, status: 'warning' },
          { kind: 'seven_day_opus', label: '7-day Opus', status: 'rejected' },
        ],
      }),
    });
    const limits = chat.page.locator('acp-usage-meter .limit');
    assert.deepEqual(await limits.allTextContents(), ['5h 42%', '7d 91%', '7d Opus']);
    const labels = await limits.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.match(labels[0], /^5-hour limit, 42% used, resets \w+ \d/);
    assert.equal(labels[1], '7-day limit, 91% used, nearly reached');
    assert.equal(labels[2], '7-day Opus limit, reached');
    assert.deepEqual(await limits.evaluateAll((els) => els.map((e) => e.className)), [
      'limit allowed',
      'limit warning',
      'limit rejected',
    ]);
    // Limits alone (no context size) still show.
    await chat.apply({
      type: 'status',
      status: status({ used: 0, size: 0, limits: [{ kind: 'five_hour', label: '5-hour', status: 'allowed' }] }),
    });
    assert.equal(await chat.page.locator('acp-usage-meter').isVisible(), true);
    assert.equal(await chat.page.locator('acp-usage-meter meter').count(), 0);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({
        type: 'status',
        status: status({
          used: 190,
          size: 200,
          cost: { amount: 1.5, currency: 'EUR' },
          limits: [
            { kind: 'five_hour', label: '5-hour', utilization: 0.5, status: 'warning' },
            { kind: 'seven_day', label: '7-day', utilization: 1, status: 'rejected' },
          ],
        }),
      });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
