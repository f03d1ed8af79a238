/** <acp-session-controls>: every control the agent offers (config options replace modes; a model option replaces legacy models); each posts its own message. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const MODES = {
  currentModeId: 'ask',
  available: [
    { id: 'ask', name: 'Ask' },
    { id: 'code', name: 'Code', description: 'Writes code' },
  ],
};
const MODELS = {
  currentModelId: 'small',
  available: [
    { modelId: 'small', name: 'Small' },
    { modelId: 'large', name: 'Large' },
  ],
};
const CONFIG = [
  {
    type: 'select',
    id: 'model',
    name: 'Model',
    description: 'Which model answers',
    category: 'model',
    currentValue: 'm1',
    options: [
      { value: 'm1', name: 'Model One' },
      { value: 'm2', name: 'Model Two' },
    ],
  },
  {
    type: 'select',
    id: 'effort',
    name: 'Effort',
    currentValue: 'low',
    options: [
      { value: 'low', name: 'Low' },
      { value: 'high', name: 'High' },
    ],
  },
  { type: 'boolean', id: 'web', name: 'Web search', currentValue: false },
];

const status = (controls, extra) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [], ...controls },
  ...extra,
});

/** The element a Tab or focus() landed on, through shadow roots. */
const deepFocus = (page) =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a ? `${a.localName}${a.getAttribute('aria-label') ? `[${a.getAttribute('aria-label')}]` : ''}` : '';
  });

describe('<acp-session-controls>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  it('shows config options instead of modes, and instead of legacy models when one is the model, and posts setConfigOption', async () => {
    await chat.apply({ type: 'status', status: status({ configOptions: CONFIG, modes: MODES, models: MODELS }) });
    const controls = chat.page.locator('acp-session-controls');
    assert.equal(await controls.locator('select').count(), 2);
    const model = chat.page.getByRole('combobox', { name: 'Model', exact: true });
    const effort = chat.page.getByRole('combobox', { name: 'Effort' });
    const web = chat.page.getByRole('checkbox', { name: 'Web search' });
    assert.equal(await model.inputValue(), 'm1');
    // The model is in the toolbar, its name and description in the tooltip; the rest is behind "More settings".
    assert.equal(
      await controls.locator('.picker').first().getAttribute('title'),
      'Model: Model One\nWhich model answers',
    );
    assert.equal(await effort.count(), 0, 'Effort is not shown until More settings is opened');
    await chat.clearPosted();
    await model.selectOption('m2');
    await chat.page.getByRole('button', { name: 'More settings' }).click();
    assert.equal(await web.isChecked(), false);
    // Keyboard: focus the select and change it with the arrow keys, the checkbox with Space.
    await effort.focus();
    await chat.page.keyboard.press('ArrowDown');
    await web.focus();
    await chat.page.keyboard.press('Space');
    assert.deepEqual(await chat.posted(), [
      { type: 'setConfigOption', chatId: 'c1', configId: 'model', value: 'm2' },
      { type: 'setConfigOption', chatId: 'c1', configId: 'effort', value: 'high' },
      { type: 'setConfigOption', chatId: 'c1', configId: 'web', value: true },
    ]);

    // The agent's answer is what the controls show: a refused change snaps back.
    await chat.apply({ type: 'status', status: status({ configOptions: CONFIG.map((o) => ({ ...o })) }) });
    assert.equal(await model.inputValue(), 'm1');
    assert.equal(await effort.inputValue(), 'low');
    assert.equal(await web.isChecked(), false);
    await chat.apply({
      type: 'status',
      status: status({
        configOptions: [{ ...CONFIG[0], currentValue: 'm2' }, CONFIG[1], { ...CONFIG[2], currentValue: true }],
      }),
    });
    assert.equal(await model.inputValue(), 'm2');
    assert.equal(await web.isChecked(), true);
  });

  it('shows both modes and legacy models (Gemini CLI sends both), each posting its own message', async () => {
    await chat.apply({ type: 'status', status: status({ modes: MODES, models: MODELS }) });
    const mode = chat.page.getByRole('combobox', { name: 'Mode', exact: true });
    const model = chat.page.getByRole('combobox', { name: 'Model', exact: true });
    assert.equal(await mode.inputValue(), 'ask');
    assert.equal(await model.inputValue(), 'small');
    await chat.clearPosted();
    await mode.selectOption('code');
    await model.selectOption('large');
    assert.deepEqual(await chat.posted(), [
      { type: 'setMode', chatId: 'c1', modeId: 'code' },
      { type: 'setModel', chatId: 'c1', modelId: 'large' },
    ]);

    await chat.apply({ type: 'status', status: status({ models: MODELS }) });
    assert.equal(await chat.page.getByRole('combobox', { name: 'Mode', exact: true }).count(), 0);
    assert.equal(await model.inputValue(), 'small');
  });

  it('shows legacy models beside config options that have no model', async () => {
    await chat.apply({
      type: 'status',
      status: status({ configOptions: CONFIG.slice(1), modes: MODES, models: MODELS }),
    });
    assert.equal(
      await chat.page.getByRole('combobox', { name: 'Mode', exact: true }).count(),
      0,
      'config options replace modes',
    );
    await chat.page.getByRole('button', { name: 'More settings' }).click();
    assert.equal(await chat.page.getByRole('combobox', { name: 'Effort' }).inputValue(), 'low');
    assert.equal(await chat.page.getByRole('combobox', { name: 'Model', exact: true }).inputValue(), 'small');
  });

  it('is hidden when there is nothing to set, and while not connected', async () => {
    await chat.apply({ type: 'status', status: status({}) });
    assert.equal(await chat.page.locator('acp-session-controls').getAttribute('hidden'), '');
    assert.equal(await chat.page.locator('acp-session-controls select, acp-session-controls button').count(), 0);
    await chat.apply({ type: 'status', status: status({ modes: MODES }, { connection: 'disconnected' }) });
    assert.equal(await chat.page.locator('acp-session-controls').count(), 0);
    await chat.apply({ type: 'status', status: status({ modes: MODES }) });
    // Its pickers are the toolbar's own items (the element itself draws no box).
    assert.equal(await chat.page.getByRole('combobox', { name: 'Mode', exact: true }).isVisible(), true);
  });

  it("is reached with Tab from Attach files (in the agent picker's place), the rest with Enter on More settings", async () => {
    await chat.apply({ type: 'status', status: status({ configOptions: CONFIG }) });
    assert.equal(await chat.page.getByRole('combobox', { name: 'Agent', exact: true }).count(), 0);
    await chat.page.getByRole('button', { name: 'Attach files' }).focus();
    const tabs = async (n) => {
      const order = [];
      for (let i = 0; i < n; i++) {
        await chat.page.keyboard.press('Tab');
        order.push(await deepFocus(chat.page));
      }
      return order;
    };
    assert.deepEqual(await tabs(3), ['select[Model]', 'button[More settings]', 'button[Send]']);
    await chat.page.keyboard.press('Shift+Tab');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await tabs(2), ['select[Effort]', 'input']);
    await chat.page.keyboard.press('Escape');
    assert.equal(await chat.page.getByRole('combobox', { name: 'Effort' }).count(), 0, 'Escape closes the popover');
    assert.equal(await deepFocus(chat.page), 'button[More settings]', 'and focus goes back to its button');
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({ type: 'status', status: status({ configOptions: CONFIG, usage: { used: 10, size: 100 } }) });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
