/** <acp-chat-composer>: sending, keeping focus across a turn, and the draft surviving the view. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { installVsCodeState, openChatPage } from './harness.mjs';

const status = (turn) => ({
  chatId: 'c1', chats: [], agents: [{ id: 'a', name: 'Agent', available: true }], selectedAgentId: 'a', connection: 'connected', turn, plan: [], permissions: [],
  controls: { configOptions: [], commands: [] },
});

/** The focused element through shadow roots, as "tag.class". */
const focused = (page) => page.evaluate(() => {
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

  it('sends with Enter or the Send button, adds lines with Shift+Enter, and stops with Stop', async () => {
    await box.focus();
    await chat.page.keyboard.type('one');
    await chat.page.keyboard.press('Shift+Enter');
    await chat.page.keyboard.type('two');
    await chat.page.keyboard.press('Enter');
    assert.equal(await box.inputValue(), '');
    await box.fill('three');
    await chat.page.getByRole('button', { name: 'Send' }).click();
    await chat.apply({ type: 'status', status: status('running') });
    await chat.page.getByRole('button', { name: 'Stop' }).click();
    assert.deepEqual(await chat.posted(), [{ type: 'prompt', chatId: 'c1', text: 'one\ntwo' }, { type: 'prompt', chatId: 'c1', text: 'three' }, { type: 'cancel', chatId: 'c1' }]);
  });

  it('keeps focus in the text box when a turn starts and brings it back when it ends', async () => {
    // The composer never takes focus while the view as a whole does not have it (the user is in an editor).
    await chat.page.bringToFront();
    assert.equal(await chat.page.evaluate(() => document.hasFocus()), true);
    await box.fill('hello');
    // Clicking Send focuses the button, which a running turn replaces with Stop.
    await chat.page.getByRole('button', { name: 'Send' }).click();
    await chat.apply({ type: 'status', status: status('running') });
    assert.equal(await focused(chat.page), 'textarea');

    // Tab to Stop; when the turn ends Stop is replaced by Send, and focus returns to the box.
    await chat.page.keyboard.press('Tab');
    assert.equal(await focused(chat.page), 'button.stop');
    await chat.apply({ type: 'status', status: status('idle') });
    assert.equal(await focused(chat.page), 'textarea');
  });

  it('leaves focus alone when the user moved it elsewhere', async () => {
    await chat.setEntries([{ kind: 'tool', id: 't', toolCallId: 'c', title: 'Read', toolKind: 'read', status: 'in_progress', content: [], locations: [] }]);
    await chat.apply({ type: 'status', status: status('running') });
    await chat.page.locator('acp-tool-card button.head').focus();
    await chat.apply({ type: 'status', status: status('idle') });
    assert.equal(await focused(chat.page), 'button.head');
  });

  it('keeps the unsent draft when the view is hidden and shown again', async () => {
    await installVsCodeState(chat.page);
    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    await box.fill('a draft\nwith two lines');
    await chat.page.waitForTimeout(400); // saves are coalesced
    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    assert.equal(await box.inputValue(), 'a draft\nwith two lines');
    // Sending clears the saved draft too.
    await box.focus();
    await chat.page.keyboard.press('Enter');
    await chat.page.waitForTimeout(400);
    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    assert.equal(await box.inputValue(), '');
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.apply({ type: 'status', status: status('running') });
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
