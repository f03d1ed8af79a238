/**
 * The agent's questions (elicitation) in the chat: a form of native controls,
 * filled by keyboard alone, checked before it is sent (the first problem gets
 * the caret), every control labelled and its problem tied to it; Decline and
 * Cancel; a URL request that names its host and opens nothing by itself.
 * 300 px wide, light theme, no axe violations.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const form = {
  mode: 'form',
  id: 'elicit-1',
  message: 'A few details for the deploy.',
  toolTitle: 'Deploy',
  fields: [
    { kind: 'text', name: 'name', title: 'Service name', required: true, minLength: 3, description: 'Lower case.' },
    { kind: 'text', name: 'mail', title: 'Owner email', required: false, format: 'email' },
    {
      kind: 'number',
      name: 'replicas',
      title: 'Replicas',
      required: true,
      integer: true,
      minimum: 1,
      maximum: 9,
      default: 2,
    },
    { kind: 'boolean', name: 'canary', title: 'Canary first', required: false, default: true },
    {
      kind: 'select',
      name: 'region',
      title: 'Region',
      required: true,
      options: [
        { value: 'eu', title: 'Europe' },
        { value: 'us', title: 'America' },
      ],
    },
    {
      kind: 'multi',
      name: 'checks',
      title: 'Checks',
      required: false,
      options: [
        { value: 'lint', title: 'Lint' },
        { value: 'tests', title: 'Tests' },
      ],
    },
  ],
};

describe("the agent's questions (elicitation)", function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light', width: 300, height: 700 });
  });
  after(() => chat?.close());
  beforeEach(() => chat.clearPosted());

  const region = () => chat.page.getByRole('region', { name: 'Questions from the agent' });

  it('a form: labelled native controls with their defaults, inside 300 px, no axe violations', async () => {
    await chat.apply({ type: 'status', status: runningStatus({ elicitations: [form] }) });
    const q = region();
    await q.waitFor();
    assert.match(
      await q.locator('section').first().innerText(),
      /The agent asks \(Deploy\)\s+A few details for the deploy\./,
    );
    assert.equal(await q.getByRole('textbox', { name: 'Service name' }).count(), 1);
    assert.equal(await q.getByRole('spinbutton', { name: 'Replicas' }).inputValue(), '2');
    assert.equal(await q.getByRole('checkbox', { name: 'Canary first' }).isChecked(), true);
    assert.equal(await q.getByRole('combobox', { name: 'Region' }).count(), 1);
    assert.equal(await q.getByRole('group', { name: 'Checks' }).getByRole('checkbox').count(), 2);
    assert.equal(await q.getByRole('textbox', { name: 'Service name' }).getAttribute('aria-describedby'), 'f0-d');
    const box = await q.evaluate((e) => ({
      right: e.getBoundingClientRect().right,
      scroll: e.scrollWidth,
      client: e.clientWidth,
    }));
    assert.ok(box.right <= 300 && box.scroll <= box.client, JSON.stringify(box));
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  it('Send checks every field first: the problems are shown and tied to their fields, the caret goes to the first', async () => {
    const q = region();
    await q.getByRole('button', { name: 'Send', exact: true }).click();
    assert.deepEqual(await chat.posted(), [], 'nothing sent');
    const name = q.getByRole('textbox', { name: 'Service name' });
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    assert.equal(await name.getAttribute('aria-describedby'), 'f0-d f0-p');
    assert.match(await q.locator('section').first().innerText(), /Required\./);
    assert.equal(
      await name.evaluate((e) => e.getRootNode().activeElement === e),
      true,
      'the caret is on the first problem',
    );
  });

  it('filled by keyboard alone and sent: the values go to the host', async () => {
    const q = region();
    const page = chat.page;
    await q.getByRole('textbox', { name: 'Service name' }).focus();
    await page.keyboard.type('ap');
    await page.keyboard.press('Tab'); // to Owner email: too short a name shows its problem on leaving
    assert.match(await q.locator('section').first().innerText(), /At least 3 characters\./);
    await page.keyboard.press('Shift+Tab'); // back: the field's text is selected, End goes after it
    await page.keyboard.press('End');
    await page.keyboard.type('i');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ops@example.com');
    await page.keyboard.press('Tab'); // Replicas
    await page.keyboard.press('Control+A');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab'); // Canary
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // Region
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab'); // Lint
    await page.keyboard.press('Tab'); // Tests
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab'); // Send
    await page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [
      {
        type: 'answerElicitation',
        chatId: 'c1',
        id: 'elicit-1',
        action: 'accept',
        values: { name: 'api', mail: 'ops@example.com', replicas: 3, canary: false, region: 'eu', checks: ['tests'] },
      },
    ]);
  });

  it('Decline and Cancel answer as they say', async () => {
    const q = region();
    await q.getByRole('button', { name: 'Decline' }).click();
    await q.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(
      (await chat.posted()).map((m) => m.action),
      ['decline', 'cancel'],
    );
  });

  it("a URL request names the page's host and opens it only on the user's word", async () => {
    const url = {
      mode: 'url',
      id: 'elicit-2',
      message: 'Sign in to <b>continue</b>',
      url: 'https://login.example.com/a?b=c',
      host: 'login.example.com',
    };
    await chat.apply({ type: 'status', status: runningStatus({ elicitations: [url] }) });
    const q = region();
    await q.getByText('The agent asks you to open a page on login.example.com').waitFor();
    assert.match(await q.locator('section').first().innerText(), /Sign in to <b>continue<\/b>/, 'markup is text');
    assert.deepEqual(await chat.posted(), []);
    await q.getByRole('button', { name: 'Open login.example.com' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'answerElicitation', chatId: 'c1', id: 'elicit-2', action: 'accept' },
    ]);
    assert.deepEqual(await axeViolations(chat.page), []);
  });
});
