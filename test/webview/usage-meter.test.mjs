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

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({
        type: 'status',
        status: status({ used: 190, size: 200, cost: { amount: 1.5, currency: 'EUR' } }),
      });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
