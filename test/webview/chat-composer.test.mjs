/** <acp-chat-composer>: sending, keeping focus across a turn, and the draft surviving the view. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { installVsCodeState, openChatPage } from './harness.mjs';

const status = (turn, chatId = 'c1') => ({
  chatId,
  chats: [
    { id: 'c1', title: 'One', agentName: 'Agent', marker: 'none' },
    { id: 'c2', title: 'Two', agentName: 'Agent', marker: 'none' },
  ],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn,
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
});

/** The focused element through shadow roots, as "tag.class". */
const focused = (page) =>
  page.evaluate(() => {
    let a = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a ? `${a.localName}${a.className ? `.${a.className}` : ''}` : '';
  });

describe('<acp-chat-composer>', function () {
  let chat;
  let box;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.apply({ type: 'status', status: status('idle') });
    box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  it("names the chat's agent in the empty box (the toolbar has no agent picker once connected)", async () => {
    assert.equal(await box.getAttribute('placeholder'), 'Ask Agent…');
    await chat.apply({ type: 'status', status: status('running') });
    assert.equal(await box.getAttribute('placeholder'), 'Queue a follow-up…');
    await chat.apply({ type: 'status', status: { ...status('idle'), selectedAgentId: undefined } });
    assert.equal(await box.getAttribute('placeholder'), 'Ask the agent…');
  });

  it("offers the agent's suggested prompts over an empty box: a click puts one in it, nothing is sent", async () => {
    const suggest = (turn, suggestions) => ({ ...status(turn), suggestions });
    await chat.apply({ type: 'status', status: suggest('idle', ['Run the tests', 'Explain <b>this</b> change']) });
    const chips = chat.page.getByRole('group', { name: 'Suggested prompts' }).getByRole('button');
    assert.deepEqual(await chips.allTextContents(), ['Run the tests', 'Explain <b>this</b> change']);
    assert.deepEqual(await axeViolations(chat.page), []);
    await chips.nth(1).click();
    assert.equal(await box.inputValue(), 'Explain <b>this</b> change');
    assert.equal(await focused(chat.page), 'textarea');
    assert.equal(await chips.count(), 0, 'text in the box: the suggestions step aside');
    assert.deepEqual(
      (await chat.posted()).filter((m) => m.type === 'prompt'),
      [],
      'nothing sent',
    );
    await box.fill('');
    assert.equal(await chips.count(), 2, 'back when the box is empty again');
    await chat.apply({ type: 'status', status: suggest('running', ['Run the tests']) });
    assert.equal(await chips.count(), 0, 'not while the agent answers');
  });

  it('sends with Enter or the Send button, adds lines with Shift+Enter, and stops with Stop', async () => {
    await box.focus();
    await chat.page.keyboard.type('one');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('two');
    await chat.page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), '');
    await box.fill('three');
    await chat.page.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.apply({ type: 'status', status: status('running') });
    await chat.page.getByRole('button', { name: 'Stop' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'prompt', chatId: 'c1', text: 'one\ntwo' },
      { type: 'prompt', chatId: 'c1', text: 'three' },
      { type: 'cancel', chatId: 'c1' },
    ]);
  });

  it('keeps focus in the text box when a turn starts and brings it back when it ends', async () => {
    // The composer never takes focus while the view as a whole does not have it (the user is in an editor).
    await chat.page.bringToFront();
    assert.equal(await chat.page.evaluate(() => document.hasFocus()), true);
    await box.fill('hello');
    // Clicking Send focuses the button, which a running turn replaces with Stop.
    await chat.page.getByRole('button', { name: 'Send', exact: true }).click();
    await chat.apply({ type: 'status', status: status('running') });
    assert.equal(await focused(chat.page), 'textarea');

    // Focus on Stop; when the turn ends Stop is replaced by Send, and focus returns to the box.
    await chat.page.getByRole('button', { name: 'Stop' }).focus();
    assert.equal(await focused(chat.page), 'button.stop');
    await chat.apply({ type: 'status', status: status('idle') });
    assert.equal(await focused(chat.page), 'textarea');
  });

  it('leaves focus alone when the user moved it elsewhere', async () => {
    await chat.setEntries([
      {
        kind: 'tool',
        id: 't',
        toolCallId: 'c',
        title: 'Read',
        toolKind: 'read',
        status: 'in_progress',
        content: [],
        locations: [],
      },
    ]);
    await chat.apply({ type: 'status', status: status('running') });
    await chat.page.locator('acp-tool-card button.head').focus();
    await chat.apply({ type: 'status', status: status('idle') });
    assert.equal(await focused(chat.page), 'button.head');
  });

  it('keeps the unsent draft when the view is hidden and shown again', async () => {
    await installVsCodeState(chat.page);
    const reload = async () => {
      await chat.page.reload();
      await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
      // The host answers "ready" with the shown chat's status.
      await chat.apply({ type: 'status', status: status('idle') });
    };
    await reload();
    await box.fill('a draft\nwith two lines');
    await chat.page.waitForTimeout(400); // saves are coalesced
    await reload();
    assert.equal(await box.inputValue(), 'a draft\nwith two lines');
    // Sending clears the saved draft too.
    await box.focus();
    await chat.page.keyboard.press('Enter');
    await chat.page.waitForTimeout(400);
    await reload();
    assert.equal(await box.inputValue(), '');
  });

  it("each chat has its own draft: switching chats swaps the text, and a closed chat's draft is forgotten", async () => {
    await installVsCodeState(chat.page);
    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    await chat.apply({ type: 'status', status: status('idle') });
    await chat.clearPosted();
    await box.fill('for the first chat');
    await chat.apply({ type: 'status', status: status('idle', 'c2') });
    assert.equal(await box.inputValue(), '', 'the other chat has nothing typed');
    await box.fill('for the second');
    await chat.apply({ type: 'status', status: status('idle', 'c1') });
    assert.equal(await box.inputValue(), 'for the first chat');
    await box.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      (await chat.posted()).filter((m) => m.type === 'prompt'),
      [{ type: 'prompt', chatId: 'c1', text: 'for the first chat' }],
    );
    await chat.apply({ type: 'status', status: status('idle', 'c2') });
    assert.equal(await box.inputValue(), 'for the second');
    // The second chat is closed: the first is shown, and the draft is not offered again.
    await chat.apply({
      type: 'status',
      status: { ...status('idle', 'c1'), chats: [{ id: 'c1', title: 'One', agentName: 'Agent', marker: 'none' }] },
    });
    await chat.page.waitForTimeout(400);
    assert.deepEqual(
      await chat.page.evaluate(() => JSON.parse(sessionStorage.getItem('vscode-state') ?? '{}').drafts),
      {},
    );
  });

  it('tells the host what is in the box once typing settles, under the chat it was typed in', async () => {
    await chat.apply({ type: 'status', status: status('idle') });
    await chat.clearPosted();
    await box.pressSequentially('abc');
    await chat.page.waitForTimeout(700);
    assert.deepEqual(
      await chat.postedDrafts(),
      [{ type: 'draft', chatId: 'c1', text: 'abc' }],
      'one message, not three',
    );
    await box.fill('for c1');
    // Switching chats at once: the words typed for c1 are not lost nor told as c2's.
    await chat.apply({ type: 'status', status: status('idle', 'c2') });
    assert.deepEqual((await chat.postedDrafts()).at(-1), { type: 'draft', chatId: 'c1', text: 'for c1' });
  });

  it('the unsent text goes with another agent picked in a chat with a conversation, to the new chat the host opens', async () => {
    // Disconnected: a connected chat's toolbar has its session's controls in place of the agent picker.
    const twoAgents = (chatId, chats) => ({
      ...status('idle', chatId),
      connection: 'disconnected',
      chats,
      agents: [
        { id: 'a', name: 'Agent', available: true },
        { id: 'b', name: 'Other', available: true },
      ],
    });
    const one = [{ id: 'c1', title: 'One', agentName: 'Agent', marker: 'none' }];
    await chat.apply({ type: 'status', status: twoAgents('c1', one) });
    await chat.apply({
      type: 'entries',
      length: 0,
      ops: [{ op: 'set', index: 0, entry: { kind: 'user', id: 'u1', text: 'hi' } }],
    });
    await box.fill('for whoever answers');
    await chat.clearPosted();
    await chat.page.getByRole('combobox', { name: 'Agent', exact: true }).selectOption('b');
    assert.deepEqual(await chat.posted(), [{ type: 'selectAgent', chatId: 'c1', agentId: 'b' }]);
    // The host opens c3 for the other agent and shows it.
    const both = [...one, { id: 'c3', title: 'New chat', agentName: 'Other', marker: 'none' }];
    await chat.apply({ type: 'status', status: { ...twoAgents('c3', both), selectedAgentId: 'b' } });
    assert.equal(await box.inputValue(), 'for whoever answers');
    await chat.apply({ type: 'status', status: twoAgents('c1', both) });
    assert.equal(await box.inputValue(), '', 'the old chat does not keep a copy');
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({ type: 'status', status: status('running') });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});

describe('<acp-chat-composer> attachments', function () {
  let chat;
  const chips = [
    { id: 'a1', label: 'notes.txt', detail: 'docs/notes.txt', icon: 'file', state: 'ready' },
    { id: 'a2', label: 'shot.png', icon: 'image', state: 'preparing' },
    {
      id: 'a3',
      label: 'liar.png',
      icon: 'image',
      state: 'error',
      message: 'Its name says image/png, but its bytes are image/jpeg.',
    },
  ];
  const withChips = (attachments) => ({ ...status('idle'), attachments });
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.apply({ type: 'status', status: withChips(chips) });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  /** Dispatches a paste or drop carrying `files` ({name, type, bytes}) and `uris` on the composer's text box. */
  const transfer = (kind, { files = [], uris = [] }) =>
    chat.page.evaluate(
      ({ kind, files, uris }) => {
        const box = document
          .querySelector('acp-chat-app')
          .shadowRoot.querySelector('acp-chat-composer')
          .shadowRoot.querySelector('textarea');
        const data = new DataTransfer();
        for (const f of files) data.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
        if (uris.length > 0) data.setData('text/uri-list', uris.join('\r\n'));
        const event =
          kind === 'paste'
            ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true })
            : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true, composed: true });
        box.dispatchEvent(event);
        return event.defaultPrevented;
      },
      { kind, files, uris },
    );

  it('shows each chip with its state, and the reason of one that cannot be sent', async () => {
    const list = chat.page.getByRole('list', { name: 'Attachments' });
    assert.deepEqual(await list.getByRole('listitem').allInnerTexts(), [
      'notes.txt',
      'shot.png\n(being read)',
      'liar.png\n(cannot be sent)\nIts name says image/png, but its bytes are image/jpeg.',
    ]);
  });

  it('Remove is reachable by keyboard, named after its chip, and focus moves to the next chip, then to the text box', async () => {
    const remove = chat.page.getByRole('button', { name: 'Remove notes.txt' });
    await remove.focus();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(await chat.posted(), [{ type: 'removeAttachment', chatId: 'c1', id: 'a1' }]);
    assert.equal(await focused(chat.page), 'button');
    assert.equal(
      await chat.page.evaluate(() => {
        let a = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        return a?.getAttribute('aria-label');
      }),
      'Remove shot.png',
    );
    // The host's status follows; the last chip removed puts focus back in the text box.
    await chat.apply({ type: 'status', status: withChips([chips[2]]) });
    await chat.page.getByRole('button', { name: 'Remove liar.png' }).focus();
    await chat.page.keyboard.press('Space');
    assert.equal(await focused(chat.page), 'textarea');
  });

  it('the paperclip asks the host to attach files; Send goes with attachments only', async () => {
    await chat.page.getByRole('button', { name: 'Attach files' }).click();
    await chat.page.getByRole('button', { name: 'Send', exact: true }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'attachFiles', chatId: 'c1' },
      { type: 'prompt', chatId: 'c1', text: '' },
    ]);
  });

  it('a pasted image is attached (its bytes, base64), pasted text is typed as usual', async () => {
    await chat.apply({ type: 'status', status: withChips([]) });
    assert.equal(
      await transfer('paste', { files: [{ name: 'image.png', type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] }] }),
      true,
    );
    await chat.page.waitForFunction(() => window.__acpHarness.posted.some((m) => m.type === 'attachData'));
    assert.deepEqual(await chat.posted(), [
      { type: 'attachData', chatId: 'c1', name: 'image.png', base64: 'iVBORw==' },
    ]);
    assert.equal(await transfer('paste', {}), false, 'a paste without files is left to the text box');
  });

  it('dropped Explorer files go as URIs; dropped files from outside as bytes, ten at most, and the rest is said', async () => {
    await chat.apply({ type: 'status', status: withChips([]) });
    await transfer('drop', { uris: ['file:///w/a.ts', '# a comment line', 'file:///w/b.ts'] });
    assert.deepEqual(await chat.posted(), [
      { type: 'attachUris', chatId: 'c1', uris: ['file:///w/a.ts', 'file:///w/b.ts'] },
    ]);
    await chat.clearPosted();
    const files = Array.from({ length: 1_000 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', bytes: [0x61] }));
    await transfer('drop', { files });
    await chat.page.waitForFunction(
      () => window.__acpHarness.posted.filter((m) => m.type === 'attachData').length === 10,
    );
    await chat.page.waitForTimeout(100);
    const posted = await chat.posted();
    assert.equal(posted.length, 10);
    assert.deepEqual(posted[0], { type: 'attachData', chatId: 'c1', name: 'f0.txt', base64: 'YQ==' });
    assert.match(
      await chat.page.evaluate(
        () => document.querySelector('acp-chat-app').shadowRoot.querySelector('[aria-live]')?.textContent ?? '',
      ),
      /At most 10 attachments go with one prompt: 990 not added/,
    );
  });

  it('a sent prompt shows its attachments as chips with nothing to press', async () => {
    await chat.setEntries([
      {
        kind: 'user',
        id: 'u1',
        text: 'look',
        attachments: [
          { label: 'notes.txt', icon: 'file' },
          { label: 'Image (image/png)', icon: 'image' },
        ],
      },
    ]);
    const sent = chat.page.getByRole('list', { name: 'Attached' });
    assert.deepEqual(await sent.getByRole('listitem').allInnerTexts(), ['notes.txt', 'Image (image/png)']);
    assert.equal(await sent.getByRole('button').count(), 0);
  });

  it('the host can put the caret in the composer (Add Selection to Chat): once per request', async () => {
    await chat.page.bringToFront();
    await chat.page.getByRole('button', { name: 'Attach files' }).focus();
    await chat.apply({ type: 'status', status: { ...withChips(chips), focusComposer: 1 } });
    await chat.page.waitForFunction(
      () =>
        document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-chat-composer').shadowRoot.activeElement
          ?.localName === 'textarea',
    );
    await chat.page.getByRole('button', { name: 'Attach files' }).focus();
    await chat.apply({ type: 'status', status: { ...withChips(chips), focusComposer: 1, turn: 'idle' } });
    await chat.page.waitForTimeout(50);
    assert.equal(await focused(chat.page), 'button.attach', 'the same request is not acted on twice');
  });

  it('has no serious accessibility violations with chips', async () => {
    assert.deepEqual(await axeViolations(chat.page), []);
  });
});

describe('<acp-chat-composer> @ mentions', function () {
  let chat;
  let box;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.apply({
      type: 'status',
      status: {
        ...status('idle'),
        controls: { configOptions: [], commands: [{ name: 'review', description: 'Review' }] },
      },
    });
    box = chat.page.getByRole('combobox', { name: 'Message the agent' });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  const items = [
    { id: 'm1', label: 'Problems in broken.ts', detail: '1 problem', icon: 'problems' },
    { id: 'm2', label: 'notes.md', detail: 'docs/notes.md', icon: 'file' },
    { id: 'm3', label: 'docs/', detail: 'docs/', icon: 'folder' },
  ];
  const menu = () => chat.page.getByRole('listbox', { name: 'Files, folders and problems to attach' });

  it('@ asks the host, lists its answer, and the chosen one is attached with the typed @word taken out', async () => {
    await box.focus();
    await chat.page.keyboard.type('look at @no');
    const queries = (await chat.posted()).filter((m) => m.type === 'mentionQuery');
    assert.deepEqual(
      queries.map((q) => q.query),
      ['', 'n', 'no'],
    );
    await chat.apply({ type: 'mentions', requestId: queries.at(-1).requestId, items });
    // One line each: the name, then where it is.
    assert.deepEqual(await menu().getByRole('option').allInnerTexts(), [
      'Problems in broken.ts 1 problem',
      'notes.md docs/notes.md',
      'docs/ docs/',
    ]);
    assert.equal(await box.getAttribute('aria-expanded'), 'true');
    await chat.page.keyboard.press('ArrowDown');
    assert.equal(await box.getAttribute('aria-activedescendant'), 'mention-1');
    await chat.clearPosted();
    await chat.page.keyboard.press('Enter');
    assert.deepEqual(
      await chat.posted(),
      [{ type: 'attachMention', chatId: 'c1', id: 'm2' }],
      'Enter chose, it did not send',
    );
    assert.equal(await box.inputValue(), 'look at ');
    await menu().waitFor({ state: 'detached' });
  });

  it('an answer to an older query is dropped; Escape closes; an email address opens nothing', async () => {
    await box.focus();
    await chat.page.keyboard.type('@a');
    const [first, second] = (await chat.posted()).filter((m) => m.type === 'mentionQuery');
    await chat.apply({ type: 'mentions', requestId: first.requestId, items });
    assert.equal(await menu().count(), 0, 'the answer to "@" came after "@a" was typed');
    await chat.apply({ type: 'mentions', requestId: second.requestId, items: items.slice(1) });
    assert.equal(await menu().getByRole('option').count(), 2);
    await chat.page.keyboard.press('Escape');
    assert.equal(await menu().count(), 0);
    await box.fill('');
    await chat.clearPosted();
    await chat.page.keyboard.type('mail me at me@example.com');
    assert.deepEqual(
      (await chat.posted()).filter((m) => m.type === 'mentionQuery'),
      [],
    );
  });

  it('shares the slash menu\'s keys: "/" still opens the commands', async () => {
    await box.focus();
    await chat.page.keyboard.type('/re');
    await chat.page.getByRole('listbox', { name: 'Slash commands' }).waitFor();
    await chat.page.keyboard.press('Tab');
    assert.equal(await box.inputValue(), '/review ');
  });

  it('has no serious accessibility violations with the menu open', async () => {
    await box.focus();
    await chat.page.keyboard.type('@');
    const [q] = (await chat.posted()).filter((m) => m.type === 'mentionQuery');
    await chat.apply({ type: 'mentions', requestId: q.requestId, items });
    await menu().waitFor();
    assert.deepEqual(await axeViolations(chat.page), []);
  });
});
