/** The composer's slash command menu: ARIA combobox with a listbox, filtered as you type. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const COMMANDS = [
  { name: 'review', description: 'Review the current changes', hint: 'path or branch' },
  { name: 'init', description: 'Create an AGENTS.md file' },
  { name: 'compact', description: 'Summarise the conversation' },
  { name: 'preview', description: 'Show a <b>preview</b>' },
];

const status = (commands = COMMANDS) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands },
});

describe('slash commands in <acp-chat-composer>', function () {
  let chat;
  let box;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.apply({ type: 'status', status: status() });
    box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await box.focus();
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  const list = () => chat.page.getByRole('listbox', { name: 'Slash commands' });
  const options = () =>
    list()
      .getByRole('option')
      .evaluateAll((os) => os.map((o) => o.querySelector('.slash-name').textContent));
  const active = () =>
    box
      .getAttribute('aria-activedescendant')
      .then((id) => id && chat.page.locator(`acp-chat-composer #${id} .slash-name`).textContent());

  it('shows each command on one line, the active one whole, and every one whole in its tooltip', async () => {
    const long =
      'Reviews a pull request in depth.\nIt reads every changed file, runs the tests, and writes a summary ' +
      'of what it found, with the lines that need another look, in a comment on the pull request.';
    await chat.apply({
      type: 'status',
      status: status([
        { name: 'review', description: long },
        { name: 'pr-comments', description: long },
        { name: 'init', description: 'Create an AGENTS.md file' },
      ]),
    });
    await chat.page.keyboard.type('/');
    const heights = () =>
      list()
        .getByRole('option')
        .evaluateAll((os) => os.map((o) => Math.round(o.getBoundingClientRect().height)));
    const [active, second, third] = await heights();
    assert.equal(second, third, 'a long description takes one line, as a short one does');
    assert.ok(
      active > 2 * second,
      `the active command shows its whole description (${active} px, one line ${second} px)`,
    );
    const tooltip = await list().getByRole('option').nth(1).getAttribute('title');
    assert.equal(tooltip, `/pr-comments: ${long}`);
    await chat.page.keyboard.press('ArrowDown');
    const [first, nowActive] = await heights();
    assert.ok(first === third && nowActive === active, 'the whole text follows the active command');
  });

  it('opens on "/" at the start with every command, its hint and description', async () => {
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
    await chat.page.keyboard.type('/');
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    assert.equal(await box.getAttribute('aria-controls'), await list().getAttribute('id'));
    assert.deepEqual(await options(), ['/review', '/init', '/compact', '/preview']);
    const first = list().getByRole('option').first();
    assert.equal(await first.getAttribute('aria-selected'), 'true');
    assert.equal(await first.locator('.slash-hint').textContent(), 'path or branch');
    assert.equal(await first.locator('.slash-description').textContent(), 'Review the current changes');
    assert.equal(await list().locator('b').count(), 0, 'descriptions are text');
    assert.equal(await active(), '/review');
  });

  it('filters as you type: prefix matches first, then the rest that contain the text', async () => {
    await chat.page.keyboard.type('/rev');
    assert.deepEqual(await options(), ['/review', '/preview']);
    await chat.page.keyboard.type('i');
    assert.deepEqual(await options(), ['/review', '/preview']);
    for (let i = 0; i < 4; i++) await chat.page.keyboard.press('Backspace');
    assert.equal(await box.inputValue(), '/');
    assert.equal(await list().getByRole('option').count(), 4);
    await chat.page.keyboard.type('IN');
    assert.deepEqual(await options(), ['/init']);
    await chat.page.keyboard.type('x');
    assert.equal(await list().count(), 0, 'no match: closed');
    assert.equal(await box.getAttribute('aria-expanded'), 'false');
  });

  it('moves with the arrow keys and inserts with Enter, without sending', async () => {
    await chat.page.keyboard.type('/');
    await chat.page.keyboard.press('ArrowDown');
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await active(), '/compact');
    assert.equal(await list().getByRole('option', { selected: true }).locator('.slash-name').textContent(), '/compact');
    await chat.page.keyboard.press('ArrowUp');
    await chat.page.keyboard.press('ArrowUp');
    await chat.page.keyboard.press('ArrowUp');
    assert.equal(await active(), '/preview', 'wraps around');
    await chat.page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), '/preview ');
    assert.equal(await list().count(), 0);
    assert.deepEqual(await chat.posted(), [], 'Enter chose, it did not send');
    // The caret is after the inserted command: typing goes on from there, and Enter now sends.
    await chat.page.keyboard.type('src/a.ts');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [{ type: 'prompt', chatId: 'c1', text: '/preview src/a.ts' }]);
  });

  it('inserts with Tab, closes with Escape, and inserts on click', async () => {
    await chat.page.keyboard.type('/co');
    await chat.page.keyboard.press('Tab');
    assert.equal(await box.inputValue(), '/compact ');
    assert.equal(
      await chat.page.evaluate(
        () => document.activeElement.shadowRoot.activeElement.shadowRoot.activeElement.localName,
      ),
      'textarea',
      'Tab stayed in the box',
    );

    await box.fill('');
    await chat.page.keyboard.type('/');
    await chat.page.keyboard.press('Escape');
    assert.equal(await list().count(), 0);
    assert.equal(await box.inputValue(), '/');
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [{ type: 'prompt', chatId: 'c1', text: '/' }], 'closed: Enter sends again');

    await chat.page.keyboard.type('/i');
    await list().getByRole('option').first().click();
    assert.equal(await box.inputValue(), '/init ');
  });

  it('stays closed when "/" is not at the start, and without commands', async () => {
    await chat.page.keyboard.type('see /review');
    assert.equal(await list().count(), 0);
    await box.fill('');
    await chat.apply({ type: 'status', status: status([]) });
    await chat.page.keyboard.type('/');
    assert.equal(await list().count(), 0);
    // Commands arriving while "/" is typed open the list.
    await chat.apply({ type: 'status', status: status() });
    assert.equal(await list().count(), 1);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations with the list open (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.page.keyboard.type('/');
      await chat.page.keyboard.press('ArrowDown');
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
