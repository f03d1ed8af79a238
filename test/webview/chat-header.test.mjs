/** <acp-chat-header>: one line: the open chats or the title, context use, connection state, Follow, Connect / Disconnect; and the agent picker under the text box. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const AGENTS = [
  { id: 'a', name: 'Agent A', available: true },
  { id: 'b', name: 'Agent B', available: false, detail: 'b-cli not found on PATH' },
];
const status = (connection, extra) => ({
  chatId: 'c1',
  chats: [],
  agents: AGENTS,
  selectedAgentId: 'a',
  connection,
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
  ...extra,
});

describe('<acp-chat-header>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  const header = () => chat.page.locator('acp-chat-header');
  /** What the state says to a screen reader (and in its tooltip): the whole sentence. */
  const state = () =>
    header()
      .locator('[role="status"] .label')
      .textContent()
      .then((t) => t.replace(/\s+/g, ' ').trim());

  it('offers Follow only where the host does, as a toggle that asks the host to turn it on and off', async () => {
    await chat.apply({ type: 'status', status: status('connected') });
    const follow = chat.page.getByRole('button', { name: 'Follow' });
    assert.equal(await follow.count(), 0, 'not offered (VS Code for the Web)');
    await chat.apply({ type: 'status', status: status('connected', { follow: false }) });
    assert.equal(await follow.getAttribute('aria-pressed'), 'false');
    await follow.click();
    await chat.apply({ type: 'status', status: status('connected', { follow: true }) });
    assert.equal(await follow.getAttribute('aria-pressed'), 'true');
    assert.deepEqual(await axeViolations(chat.page), []);
    await follow.click();
    assert.deepEqual(await chat.posted(), [
      { type: 'setFollow', chatId: 'c1', on: true },
      { type: 'setFollow', chatId: 'c1', on: false },
    ]);
  });

  it('picks an agent and connects', async () => {
    await chat.apply({ type: 'status', status: status('disconnected') });
    const picker = chat.page.getByRole('combobox', { name: 'Agent', exact: true });
    // The usable agents first; the others apart, under "Not installed".
    assert.deepEqual(await picker.locator('option').allTextContents(), ['Agent A', 'Agent B']);
    assert.deepEqual(await picker.locator('optgroup[label="Not installed"] option').allTextContents(), ['Agent B']);
    assert.equal(await picker.locator('option').nth(1).getAttribute('title'), 'b-cli not found on PATH');
    await chat.apply({ type: 'status', status: status('disconnected', { agents: [...AGENTS].reverse() }) });
    assert.deepEqual(
      await picker.locator('option').allTextContents(),
      ['Agent A', 'Agent B'],
      'usable first, whatever the order',
    );
    await chat.apply({ type: 'status', status: status('disconnected') });
    assert.equal(await state(), 'Not connected');
    await picker.selectOption('b');
    await chat.page.getByRole('button', { name: 'Connect' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'selectAgent', chatId: 'c1', agentId: 'b' },
      { type: 'connect', chatId: 'c1' },
    ]);
    assert.equal(await header().locator('button .codicon-plug').count(), 1);
    // Another chat shown, on Agent A: the picker shows the host's agent, not the one last picked by hand.
    await chat.apply({ type: 'status', status: status('disconnected', { chatId: 'c2' }) });
    assert.equal(await picker.inputValue(), 'a');
    // Connected, the session's controls take its place (the agent is named in the view's title and the chat list).
    await chat.apply({ type: 'status', status: status('connected', { chatId: 'c2' }) });
    assert.equal(await picker.count(), 0);
  });

  it('offers to install an agent that is not installed: the button says what it runs, and only posts when clicked', async () => {
    const agents = [
      ...AGENTS,
      {
        id: 'c',
        name: 'Agent C',
        available: false,
        detail: 'c-cli not found on PATH',
        install: 'npm install agent-c',
      },
    ];
    await chat.apply({ type: 'status', status: status('disconnected', { agents, selectedAgentId: 'c' }) });
    assert.equal(await state(), 'Agent C is not installed');
    const install = chat.page.getByRole('button', { name: 'Install' });
    assert.equal(
      await install.getAttribute('title'),
      'Installs it with "npm install agent-c" into this extension\'s storage, after showing what will run',
    );
    assert.equal(await chat.page.getByRole('button', { name: 'Connect' }).count(), 0);
    assert.deepEqual(await chat.posted(), []);
    await install.click();
    assert.deepEqual(await chat.posted(), [{ type: 'installAgent', chatId: 'c1', agentId: 'c' }]);
    // An agent that is not found and has no install command: said so, and instead of a Connect that would only fail
    // again, the setting where its command is.
    await chat.apply({ type: 'status', status: status('disconnected', { agents, selectedAgentId: 'b' }) });
    assert.equal(await state(), 'Agent B was not found');
    assert.equal(await header().locator('.state .short').textContent(), 'Not found', 'the header line says it short');
    assert.equal(await chat.page.getByRole('button', { name: 'Connect' }).count(), 0);
    const settings = chat.page.getByRole('button', { name: 'Open Settings' });
    assert.match(await settings.getAttribute('title'), /^b-cli not found on PATH: .*vscode-acp\.agents/);
    await settings.click();
    assert.deepEqual((await chat.posted()).at(-1), { type: 'openSettings', chatId: 'c1' });
  });

  it('can cancel a connection attempt and disconnect, and shows the agent name', async () => {
    await chat.apply({ type: 'status', status: status('connecting') });
    assert.equal(await state(), 'Connecting…');
    assert.equal(await header().locator('.state .codicon-loading.spin').count(), 1);
    assert.equal(await chat.page.getByRole('combobox', { name: 'Agent', exact: true }).isDisabled(), true);
    await chat.page.getByRole('button', { name: 'Cancel' }).click();

    await chat.apply({ type: 'status', status: status('connected', { agentLabel: 'Test Agent 1.2.3' }) });
    assert.equal(await state(), 'Connected · Test Agent 1.2.3');
    // Said in a word beside its dot where there is room (this view is 420 px wide), not by a colour alone.
    assert.equal(await header().locator('.state .short').textContent(), 'Connected');
    assert.ok(await header().locator('.state .short').isVisible());
    const disconnect = chat.page.getByRole('button', { name: 'Disconnect' });
    await disconnect.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [
      { type: 'disconnect', chatId: 'c1' },
      { type: 'disconnect', chatId: 'c1' },
    ]);

    await chat.apply({ type: 'status', status: status('failed') });
    assert.equal(await state(), 'Disconnected (failed)');

    // After a drop: trying again on its own, and Cancel stops it.
    await chat.apply({ type: 'status', status: status('reconnecting') });
    assert.equal(await state(), 'Connection lost, reconnecting…');
    assert.equal(await header().locator('.state .codicon-loading.spin').count(), 1);
    await chat.page.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual((await chat.posted()).at(-1), { type: 'disconnect', chatId: 'c1' });
  });

  it('keeps focus on the button a click turned from Connect into Cancel, then Disconnect', async () => {
    await chat.apply({ type: 'status', status: status('disconnected') });
    await chat.page.getByRole('button', { name: 'Connect' }).click();
    await chat.apply({ type: 'status', status: status('connecting') });
    await chat.apply({ type: 'status', status: status('connected') });
    const focused = await chat.page.evaluate(() => {
      let a = document.activeElement;
      while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
      return a?.getAttribute('aria-label');
    });
    assert.equal(focused, 'Disconnect');
  });

  it('cannot connect without an agent', async () => {
    await chat.apply({ type: 'status', status: status('disconnected', { agents: [], selectedAgentId: undefined }) });
    assert.equal(await chat.page.getByRole('button', { name: 'Connect' }).isDisabled(), true);
  });

  it("shows the session's title as one line of plain text, in full in its tooltip", async () => {
    const title = 'Refactor <b>the</b> parser so that every token keeps its source span, and explain the changes';
    await chat.page.setViewportSize({ width: 300, height: 600 });
    await chat.apply({ type: 'status', status: status('connected', { agentLabel: 'Test Agent', title }) });
    const shown = header().locator('.title');
    assert.equal(await shown.getAttribute('title'), title);
    assert.equal((await shown.textContent()).replace('Session: ', ''), title);
    assert.equal(await header().locator('b').count(), 0, 'agent text stays text');
    const box = await shown.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { overflow: cs.textOverflow, wrap: cs.whiteSpace, clipped: el.scrollWidth > el.clientWidth };
    });
    assert.deepEqual(box, { overflow: 'ellipsis', wrap: 'nowrap', clipped: true });
    assert.equal(
      await chat.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      true,
      'the page does not scroll sideways',
    );
    // Not part of the live region: a new title is not read out over what the user is doing.
    assert.equal(await header().locator('[role="status"] .title').count(), 0);

    await chat.apply({ type: 'status', status: status('connected', { agentLabel: 'Test Agent' }) });
    assert.equal(await header().locator('.title').count(), 0, 'no title, no line');
    await chat.apply({ type: 'status', status: status('connected', { title: '  ' }) });
    assert.equal(await header().locator('.title').count(), 0, 'a blank title is no title');
  });

  it('lists the open chats with what each wants, switches, renames and closes them, and names the shown chat in what it posts', async () => {
    const chats = [
      { id: 'c1', title: 'Fix the parser', agentName: 'Agent A', marker: 'none' },
      { id: 'c2', title: 'Write <b>docs</b>', agentName: 'Agent B', marker: 'permission' },
      { id: 'c3', title: 'New chat', agentName: 'Agent A', marker: 'finished' },
    ];
    // One chat: no list.
    await chat.apply({ type: 'status', status: status('connected', { chats: chats.slice(0, 1) }) });
    assert.equal(await chat.page.getByRole('combobox', { name: 'Chat', exact: true }).count(), 0);
    await chat.apply({ type: 'status', status: status('connected', { chats }) });
    const list = chat.page.getByRole('combobox', { name: 'Chat', exact: true });
    assert.deepEqual(await list.locator('option').allTextContents(), [
      'Fix the parser (Agent A)',
      'Write <b>docs</b> (Agent B) · asks permission',
      'New chat (Agent A) · finished',
    ]);
    assert.equal(await list.inputValue(), 'c1');
    assert.equal(
      (await header().locator('acp-chat-list .attention').textContent()).trim(),
      '2',
      'two other chats want the user',
    );
    await list.selectOption('c2');
    await chat.page.getByRole('button', { name: 'Rename chat' }).click();
    await chat.page.getByRole('button', { name: 'Close chat' }).click();
    await chat.page.getByRole('button', { name: 'Disconnect' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'showChat', chatId: 'c2' },
      { type: 'renameChat', chatId: 'c1' },
      { type: 'closeChat', chatId: 'c1' },
      { type: 'disconnect', chatId: 'c1' },
    ]);
    // The host shows c2: from now on the page's messages are about c2.
    await chat.apply({ type: 'status', status: status('connected', { chats, chatId: 'c2' }) });
    // Back to c1 (from elsewhere: the Sessions tree, say): the list follows the host, not the last pick.
    await chat.apply({ type: 'status', status: status('connected', { chats, chatId: 'c1' }) });
    assert.equal(await list.inputValue(), 'c1');
    await chat.apply({ type: 'status', status: status('connected', { chats, chatId: 'c2' }) });
    assert.equal(await list.inputValue(), 'c2');
    await chat.page.getByRole('button', { name: 'Disconnect' }).click();
    assert.deepEqual((await chat.posted()).at(-1), { type: 'disconnect', chatId: 'c2' });
  });

  it('groups the chats of one task given to several agents under it, in the order they came', async () => {
    const chats = [
      { id: 'c1', title: 'Fix the parser', agentName: 'Agent A', marker: 'none' },
      { id: 'c2', title: 'New chat', agentName: 'Claude Code', marker: 'running', group: 'Task: <b>paint</b> it' },
      { id: 'c3', title: 'Docs', agentName: 'Agent A', marker: 'none' },
      { id: 'c4', title: 'New chat', agentName: 'Codex', marker: 'finished', group: 'Task: <b>paint</b> it' },
    ];
    await chat.apply({ type: 'status', status: status('connected', { chats, chatId: 'c4' }) });
    const list = chat.page.getByRole('combobox', { name: 'Chat', exact: true });
    const group = list.locator('optgroup');
    assert.equal(await group.count(), 1);
    assert.equal(await group.getAttribute('label'), 'Task: <b>paint</b> it', 'the task as text');
    assert.deepEqual(await group.locator('option').allTextContents(), [
      'New chat (Claude Code) · working',
      'New chat (Codex) · finished',
    ]);
    assert.deepEqual(await list.locator('option').allTextContents(), [
      'Fix the parser (Agent A)',
      'New chat (Claude Code) · working',
      'New chat (Codex) · finished',
      'Docs (Agent A)',
    ]);
    assert.equal(await list.inputValue(), 'c4');
    await list.selectOption('c2');
    assert.deepEqual((await chat.posted()).at(-1), { type: 'showChat', chatId: 'c2' });
  });

  it('keeps the transcript right under a one-line header at 300 px wide, with every control Claude Code offers', async () => {
    const select = (id, name, category, values) => ({
      type: 'select',
      id,
      name,
      category,
      currentValue: values[0],
      options: values.map((value) => ({ value, name: value })),
    });
    for (const theme of ['light', 'dark']) {
      const narrow = await openChatPage({ theme, width: 300, height: 500 });
      try {
        await narrow.apply({
          type: 'status',
          status: status('connected', {
            agents: [{ id: 'a', name: 'Claude Code', available: true }, ...AGENTS.slice(1)],
            chats: [
              { id: 'c1', title: 'Refactor the parser into smaller pieces', agentName: 'Claude Code', marker: 'none' },
              { id: 'c2', title: 'Fix the build', agentName: 'Claude Code', marker: 'finished' },
            ],
            agentLabel: 'Claude Code 0.101',
            title: 'Refactor the parser into smaller pieces',
            follow: false,
            controls: {
              configOptions: [
                select('mode', 'Mode', 'mode', ['Default', 'Accept Edits', 'Plan Mode']),
                select('model', 'Model', 'model', ['Sonnet', 'Opus', 'Haiku']),
                select('effort', 'Effort', 'thought_level', ['high', 'low']),
                { type: 'boolean', id: 'fast', name: 'Fast mode', currentValue: false },
                { type: 'boolean', id: 'ultra', name: 'Ultracode', currentValue: false },
              ],
              commands: [],
              usage: { used: 53_000, size: 200_000 },
            },
          }),
        });
        const box = (selector) =>
          narrow.page
            .locator(selector)
            .first()
            .evaluate((e) => e.getBoundingClientRect().toJSON());
        const [head, list, composer, lineHeight] = [
          await box('acp-chat-header'),
          await box('acp-message-list'),
          await box('acp-chat-composer'),
          await narrow.page
            .locator('acp-chat-header')
            .evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) || 18),
        ];
        await narrow.page.screenshot({ path: `test-results/header-300-${theme}.png` });
        assert.ok(head.height <= lineHeight + 14, `the header is one line (${head.height} px, line ${lineHeight} px)`);
        assert.ok(list.top <= head.bottom + 1, `the transcript starts under the header (${list.top} px)`);
        // The composer: the text box and one toolbar line, whatever the agent offers.
        const toolbar = await box('acp-composer-toolbar');
        assert.ok(toolbar.height <= lineHeight + 10, `the composer's toolbar is one line (${toolbar.height} px)`);
        assert.ok(composer.height <= 110, `the composer is the text box and its toolbar (${composer.height} px)`);
        for (const name of ['Mode', 'Model']) {
          const picker = await box(`acp-chat-composer select[aria-label="${name}"]`);
          assert.ok(picker.width >= 40 && picker.right <= 300, `${name} is shown in the toolbar (${picker.width} px)`);
        }
        assert.equal(await narrow.page.getByRole('combobox', { name: 'Effort' }).count(), 0, 'the rest is behind More');

        // Two chats, and the one shown is on an agent that is not found: every part of the line is inside it, the
        // chat list keeps room to be read, nothing overlaps.
        await narrow.apply({
          type: 'status',
          status: status('failed', {
            agents: [{ id: 'm', name: 'My Agent', available: false, detail: '"my-agent" was not found on PATH' }],
            selectedAgentId: 'm',
            chats: [
              { id: 'c1', title: 'Refactor the parser into smaller pieces', agentName: 'Claude Code', marker: 'none' },
              { id: 'c2', title: 'New chat', agentName: 'My Agent', marker: 'none' },
            ],
          }),
        });
        const parts = await narrow.page.locator('acp-chat-header').evaluate((h) =>
          [...h.shadowRoot.children]
            .filter((e) => e.localName !== 'style')
            .map((e) => ({
              name: e.localName + (e.className ? `.${e.className}` : ''),
              ...e.getBoundingClientRect().toJSON(),
            })),
        );
        const line = await box('acp-chat-header');
        assert.ok(line.height <= lineHeight + 14, `still one line (${line.height} px)`);
        for (const [i, p] of parts.entries()) {
          assert.ok(p.right <= line.right + 0.5, `${p.name} ends inside the header (${p.right} > ${line.right})`);
          if (i > 0) assert.ok(p.left >= parts[i - 1].right - 0.5, `${p.name} does not overlap ${parts[i - 1].name}`);
        }
        assert.ok(parts[0].width >= 90, `the chat list keeps room to be read (${parts[0].width} px)`);
        await narrow.page.screenshot({ path: `test-results/header-300-missing-${theme}.png` });
      } finally {
        await narrow.close();
      }
    }
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({
        type: 'status',
        status: status('connected', {
          agentLabel: 'Test Agent 1.2.3',
          title: 'Fix the parser',
          controls: {
            configOptions: [],
            commands: [],
            modes: { currentModeId: 'x', available: [{ id: 'x', name: 'X' }] },
            usage: { used: 1, size: 4 },
          },
        }),
      });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
