/** <acp-chat-app>: tells screen readers, politely, what happened out of their sight. */
import * as assert from 'node:assert/strict';
import { openChatPage } from './harness.mjs';

const status = (turn) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn,
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
});

const user = { kind: 'user', id: 'u1', text: 'Fix it' };

describe('<acp-chat-app> announcements', function () {
  let chat;
  let region;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    region = chat.page.locator('acp-chat-app [role="status"][aria-live="polite"].sr-only');
    assert.equal(await region.count(), 1);
    assert.equal(await region.getAttribute('aria-atomic'), 'true');
  });
  afterEach(() => chat?.close());

  /** Waits for the live region to say `text` (announcements are deferred a little). */
  async function heard(text) {
    await chat.page
      .waitForFunction(
        (t) =>
          document.querySelector('acp-chat-app').shadowRoot.querySelector('.sr-only[role="status"]').textContent === t,
        text,
        { timeout: 2_000 },
      )
      .catch(async () => assert.fail(`announced "${await region.textContent()}", expected "${text}"`));
  }

  /** One turn as the host sends it: status, then the entries (with how the turn ended). */
  async function turn(endEntries) {
    await chat.apply({ type: 'status', status: status('running') });
    await chat.setEntries([user, { kind: 'assistant', id: 'a1', text: 'Working on it' }]);
    await chat.apply({ type: 'status', status: status('idle') });
    await chat.setEntries([user, { kind: 'assistant', id: 'a1', text: 'Working on it' }, ...endEntries]);
  }

  it('Ctrl+L (Cmd+L on macOS) anywhere in the chat asks for a new chat; other keys with L do not', async () => {
    await chat.apply({ type: 'status', status: status('idle') });
    const box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await box.focus();
    await chat.clearPosted();
    await chat.page.keyboard.press('Control+KeyL');
    await chat.page.keyboard.press('Meta+KeyL');
    await chat.page.keyboard.press('Control+Shift+KeyL');
    await chat.page.keyboard.press('KeyL');
    assert.deepEqual(
      (await chat.posted()).map((m) => m.type),
      ['newChat', 'newChat'],
    );
    assert.equal(await box.inputValue(), 'l', 'a plain L is typed');
  });

  it('announces that the agent finished', async () => {
    assert.equal(await region.textContent(), '');
    await turn([]);
    await heard('The agent finished.');
  });

  it('announces a stopped turn, a limit, and an error (whose text its alert reads)', async () => {
    await turn([{ kind: 'notice', id: 'n1', level: 'info', text: 'Stopped.' }]);
    await heard('Stopped.');
    await turn([
      { kind: 'notice', id: 'n1', level: 'info', text: 'Stopped.' },
      { kind: 'notice', id: 'n2', level: 'error', text: 'The agent crashed (exit code 3).' },
    ]);
    await heard('The agent stopped with an error.');
    assert.equal(
      await chat.page
        .locator('acp-chat-entry [role="alert"]')
        .last()
        .textContent()
        .then((t) => t.replace(/\s+/g, ' ').trim()),
      'Error: The agent crashed (exit code 3).',
    );
    await turn([
      { kind: 'notice', id: 'n1', level: 'info', text: 'Stopped.' },
      { kind: 'notice', id: 'n2', level: 'error', text: 'The agent crashed (exit code 3).' },
      { kind: 'notice', id: 'n3', level: 'warning', text: 'The agent stopped: it reached its token limit.' },
    ]);
    await heard('The agent stopped: it reached its token limit.');
  });

  it('says the same words again for a second turn', async () => {
    await turn([]);
    await heard('The agent finished.');
    // The region is emptied first, so a screen reader hears the repeat.
    await chat.apply({ type: 'status', status: status('running') });
    await chat.apply({ type: 'status', status: status('idle') });
    await chat.page.waitForFunction(
      () =>
        document.querySelector('acp-chat-app').shadowRoot.querySelector('.sr-only[role="status"]').textContent === '',
      undefined,
      { timeout: 1_000 },
    );
    await heard('The agent finished.');
  });

  it('says nothing while a turn runs, not even what the last turn said', async () => {
    const said = () =>
      chat.page.evaluate(
        () => document.querySelector('acp-chat-app').shadowRoot.querySelector('.sr-only[role="status"]').textContent,
      );
    await turn([]);
    await heard('The agent finished.');
    await chat.apply({ type: 'status', status: status('running') });
    assert.equal(await said(), '', 'a new turn empties the region');
    // A turn that ends and another that starts at once: the first one's announcement is dropped.
    await chat.apply({ type: 'status', status: status('idle') });
    await chat.apply({ type: 'status', status: status('running') });
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(await said(), '', 'still running: nothing announced');
  });

  it('exposes announce() and the acp-announce event for other prompts (e.g. permissions)', async () => {
    await chat.page.evaluate(() => document.querySelector('acp-chat-app').announce('The agent asks to run npm test'));
    await heard('The agent asks to run npm test');
    await chat.page.evaluate(() => {
      const inside = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-chat-composer');
      inside.dispatchEvent(
        new CustomEvent('acp-announce', { detail: { text: 'Permission needed' }, bubbles: true, composed: true }),
      );
    });
    await heard('Permission needed');
    // Long agent text is cut short: the transcript has the rest.
    await chat.page.evaluate(() => document.querySelector('acp-chat-app').announce('x'.repeat(1000)));
    await heard(`${'x'.repeat(300)}…`);
  });
});

describe('<acp-chat-app> and a malformed entry from the host', function () {
  let chat;
  beforeEach(async () => (chat = await openChatPage({ theme: 'dark' })));
  afterEach(() => chat?.close());

  it('shows an error in its place and keeps the rest of the message, and later ones', async () => {
    // Through window.postMessage, as the extension's messages arrive: the schema check runs.
    const post = (message) => chat.page.evaluate((m) => window.postMessage(m, '*'), message);
    const entries = chat.page.locator('acp-chat-entry');
    await post({
      type: 'entries',
      length: 3,
      ops: [
        { op: 'set', index: 0, entry: { kind: 'user', id: 'u1', text: 'First' } },
        // A terminal block without its output: what an agent's terminal id "constructor" once produced.
        {
          op: 'set',
          index: 1,
          entry: {
            kind: 'tool',
            id: 't1',
            toolCallId: 'x',
            title: 'T',
            toolKind: 'execute',
            status: 'pending',
            content: [{ type: 'terminal', terminalId: 'constructor' }],
            locations: [],
          },
        },
        { op: 'set', index: 2, entry: { kind: 'assistant', id: 'a1', text: 'Third' } },
      ],
    });
    await entries.nth(2).getByText('Third').waitFor({ timeout: 2_000 });
    await entries
      .nth(1)
      .getByText(/This entry could not be shown/)
      .waitFor({ timeout: 2_000 });
    await post({ type: 'entries', length: 3, ops: [{ op: 'append', index: 2, text: ' and more' }] });
    await entries.nth(2).getByText('Third and more').waitFor({ timeout: 2_000 });
  });
});

describe('<acp-chat-app> with several chats', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  const set = (index, entry) => ({ op: 'set', index, entry });
  const lists = () =>
    chat.page.evaluate(() =>
      [...document.querySelector('acp-chat-app').shadowRoot.querySelectorAll('acp-message-list')].map((l) => {
        // Text through the shadow roots of the entries inside.
        const deep = (node) =>
          [...node.childNodes]
            .map((c) => (c.nodeType === 3 ? c.textContent : `${c.shadowRoot ? deep(c.shadowRoot) : ''}${deep(c)}`))
            .join(' ');
        return {
          kept: l.classList.contains('kept'),
          hidden: getComputedStyle(l).visibility === 'hidden',
          inert: l.inert,
          text: deep(l.shadowRoot).replace(/\s+/g, ' ').trim(),
        };
      }),
    );

  it('keeps the list of the chat shown before: switching back patches it, and only the shown one can be seen or reached', async () => {
    await chat.apply({
      type: 'entries',
      chatId: 'c1',
      keep: [],
      length: 0,
      ops: [set(0, { kind: 'user', id: 'c1e1', text: 'first chat' })],
    });
    await chat.apply({
      type: 'entries',
      chatId: 'c2',
      keep: ['c1'],
      length: 0,
      ops: [set(0, { kind: 'user', id: 'c2e1', text: 'second chat' })],
    });
    let shown = await lists();
    assert.equal(shown.length, 2);
    assert.deepEqual(
      shown.map((l) => [l.kept, l.hidden, l.inert]),
      [
        [true, true, true],
        [false, false, false],
      ],
    );
    assert.match(shown[0].text, /first chat/);
    assert.match(shown[1].text, /second chat/);
    // Mark c1's element: switching back must reuse it, with only the new entry added.
    await chat.page.evaluate(() => {
      document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list.kept').dataset.mark = 'same';
    });
    await chat.apply({
      type: 'entries',
      chatId: 'c1',
      keep: ['c2'],
      length: 1,
      ops: [set(1, { kind: 'assistant', id: 'c1e2', text: 'an answer that came meanwhile' })],
    });
    shown = await lists();
    assert.deepEqual(
      shown.map((l) => l.kept),
      [false, true],
      'the same two elements, in the same order',
    );
    assert.match(shown[0].text, /first chat.*an answer that came meanwhile/);
    assert.equal(
      await chat.page.evaluate(
        () =>
          document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list:not(.kept)').dataset.mark,
      ),
      'same',
    );
    // A chat the host no longer keeps loses its element.
    await chat.apply({ type: 'entries', chatId: 'c3', keep: ['c1'], length: 0, ops: [] });
    shown = await lists();
    assert.equal(shown.length, 2);
    assert.match(shown.find((l) => l.kept).text, /first chat/);
  });
});

describe('<acp-chat-app> with an empty chat', function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'dark', width: 300 });
  });
  after(() => chat?.close());

  it('says the next thing to do, following the agent and the connection', async () => {
    const empty = chat.page.locator('acp-message-list .empty p');
    const says = async (extra, text) => {
      await chat.apply({ type: 'status', status: { ...status('idle'), ...extra } });
      await chat.page
        .waitForFunction(
          (t) =>
            document
              .querySelector('acp-chat-app')
              .shadowRoot.querySelector('acp-message-list')
              .shadowRoot.querySelector('.empty p')?.textContent === t,
          text,
          { timeout: 2_000 },
        )
        .catch(async () => assert.fail(`the empty chat says "${await empty.textContent()}", expected "${text}"`));
    };
    await says({ selectedAgentId: undefined }, 'Pick an agent below, then ask it something.');
    // The agent picked cannot be started: the hint names the header's button that does the next thing.
    await says(
      { agents: [{ id: 'a', name: 'Agent', available: false }] },
      'Agent was not found: Settings (above) to set its command, or pick another agent below.',
    );
    await says(
      { agents: [{ id: 'a', name: 'Agent', available: false, install: 'npm i -g agent' }] },
      'Agent is not installed: Install (above) runs its installer, or pick another agent below.',
    );
    await says({ connection: 'disconnected' }, 'Ask Agent something: sending connects it.');
    await says({ connection: 'connecting' }, 'Connecting to Agent…');
    await says({ connection: 'connected' }, 'Ask Agent something.');
  });

  it('offers the walkthrough from the empty chat, by mouse and by keyboard', async () => {
    const before = (await chat.posted()).length;
    const link = chat.page.getByRole('button', { name: 'Get started with ACP agents' });
    await link.click();
    await link.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual((await chat.posted()).slice(before), [
      { type: 'openWalkthrough', chatId: 'c1' },
      { type: 'openWalkthrough', chatId: 'c1' },
    ]);
  });
});
