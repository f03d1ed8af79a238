/**
 * The Changes bar above the composer: hidden with no changes; the files with
 * their kinds and lines; each button asks the host for what it says (open
 * the diff, Keep, Undo, Keep All, Undo All); Undo is off where no copy was
 * kept, and every button waits while the host is at work; hostile file names
 * stay text; no accessibility violations.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const status = (changes) => ({
  chatId: 'c1',
  chats: [],
  agents: [{ id: 'a', name: 'Agent', available: true }],
  selectedAgentId: 'a',
  connection: 'connected',
  turn: 'idle',
  plan: [],
  permissions: [],
  controls: { configOptions: [], commands: [] },
  ...(changes ? { changes } : {}),
});

const files = [
  { path: '/ws/src/app.ts', label: 'src/app.ts', kind: 'edited', added: 12, removed: 3 },
  { path: '/ws/src/new.ts', label: 'src/new.ts', kind: 'created', added: 40, removed: 0 },
  { path: '/ws/old.txt', label: 'old.txt', kind: 'deleted', added: 0, removed: 7 },
  { path: '/ws/big.bin', label: 'big.bin', kind: 'edited', noUndo: 'No copy from before: the file is over 5 MiB.' },
];
const savedToo = { path: '/ws/both.ts', label: 'both.ts', kind: 'edited', added: 1, removed: 1, userSaved: true };

describe('the Changes bar', function () {
  let chat;
  let bar;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    bar = chat.page.getByRole('region', { name: 'Files the agent changed' });
    await chat.clearPosted();
  });
  afterEach(() => chat?.close());

  it('is not there while nothing changed', async () => {
    await chat.apply({ type: 'status', status: status() });
    await chat.apply({ type: 'status', status: status({ files: [], total: 0, busy: false }) });
    assert.equal(await bar.count(), 0);
  });

  it('lists each file with its kind and lines, and the totals', async () => {
    await chat.apply({ type: 'status', status: status({ files, total: 4, busy: false }) });
    await bar.waitFor();
    const text = (await bar.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /4 files changed \+52 -10/);
    assert.match(text, /src\/app\.ts \+12 -3/);
    assert.match(text, /src\/new\.ts \+40/);
    assert.match(text, /old\.txt -7/);
    for (const [label, kind] of [
      ['src/app.ts', 'edited'],
      ['src/new.ts', 'created'],
      ['old.txt', 'deleted'],
    ]) {
      await bar
        .getByRole('button', { name: `${label}, ${kind}: compare before the agent's change with now` })
        .waitFor();
    }
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  it('asks the host to open, keep and undo one file, and to keep or undo all', async () => {
    await chat.apply({ type: 'status', status: status({ files, total: 4, busy: false }) });
    await bar
      .getByRole('button', { name: /src\/app\.ts/ })
      .first()
      .click();
    await bar.getByRole('button', { name: 'Keep src/new.ts' }).click();
    await bar.getByRole('button', { name: 'Undo old.txt' }).click();
    await bar.getByRole('button', { name: 'Keep All' }).click();
    await bar.getByRole('button', { name: 'Undo All' }).click();
    assert.deepEqual(await chat.posted(), [
      { type: 'changes', action: 'open', path: '/ws/src/app.ts', chatId: 'c1' },
      { type: 'changes', action: 'keep', path: '/ws/src/new.ts', chatId: 'c1' },
      { type: 'changes', action: 'undo', path: '/ws/old.txt', chatId: 'c1' },
      { type: 'changes', action: 'keep', chatId: 'c1' },
      { type: 'changes', action: 'undo', chatId: 'c1' },
    ]);
  });

  it('gives focus to the prompt box when its last file is undone (the bar goes, focus does not fall to nowhere)', async () => {
    await chat.apply({ type: 'status', status: status({ files: files.slice(0, 1), total: 1, busy: false }) });
    await bar.getByRole('button', { name: 'Undo src/app.ts' }).click();
    await chat.apply({ type: 'status', status: status({ files: [], total: 0, busy: false }) });
    await chat.page.waitForFunction(
      () =>
        document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-chat-composer').shadowRoot.activeElement
          ?.localName === 'textarea',
      undefined,
      { timeout: 2_000 },
    );
  });

  it('offers no Undo for a file without a copy, and says why', async () => {
    await chat.apply({ type: 'status', status: status({ files, total: 4, busy: false }) });
    const undo = bar.getByRole('button', { name: 'Undo big.bin' });
    assert.equal(await undo.isDisabled(), true);
    assert.equal(await undo.getAttribute('title'), 'No copy from before: the file is over 5 MiB.');
  });

  it('marks a file the user saved while the agent worked on it', async () => {
    await chat.apply({ type: 'status', status: status({ files: [...files, savedToo], total: 5, busy: false }) });
    const marks = bar.getByRole('img', { name: 'Changed by you too' });
    assert.equal(await marks.count(), 1);
    assert.match(await marks.getAttribute('title'), /Undo asks first/);
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  it('holds every button while the host is at work', async () => {
    await chat.apply({ type: 'status', status: status({ files, total: 4, busy: true }) });
    for (const name of ['Keep All', 'Undo All', 'Keep src/app.ts', 'Undo src/app.ts']) {
      assert.equal(await bar.getByRole('button', { name }).isDisabled(), true, name);
    }
  });

  it('says how many more files there are than it lists, and folds away', async () => {
    await chat.apply({ type: 'status', status: status({ files: files.slice(0, 2), total: 250, busy: false }) });
    assert.match(await bar.innerText(), /and 248 more/);
    await bar.getByRole('button', { name: /250 files changed/ }).click();
    assert.equal(await bar.getByRole('listitem').count(), 0);
    assert.equal(await bar.getByRole('button', { name: /250 files changed/ }).getAttribute('aria-expanded'), 'false');
  });

  it('shows a hostile file name as text', async () => {
    const label = '<img src=x onerror=alert(1)>\u202Egnp.exe';
    await chat.apply({
      type: 'status',
      status: status({ files: [{ path: '/ws/x', label, kind: 'created' }], total: 1, busy: false }),
    });
    assert.equal(await bar.locator('img').count(), 0);
    assert.ok((await bar.innerText()).includes('<img src=x onerror=alert(1)>'));
  });

  it('offers Restore files to here on the prompts the host names, and asks the host for it', async () => {
    await chat.setEntries([
      { kind: 'user', id: 'u1', text: 'first' },
      { kind: 'assistant', id: 'a1', text: 'one' },
      { kind: 'user', id: 'u2', text: 'second' },
      { kind: 'assistant', id: 'a2', text: 'two' },
      { kind: 'user', id: 'u3', text: 'third, no changes after it' },
    ]);
    await chat.apply({
      type: 'status',
      status: { ...status({ files, total: 4, busy: false }), checkpoints: ['u1', 'u2'] },
    });
    const restore = chat.page.getByRole('button', { name: 'Restore files to here' });
    await restore.first().waitFor();
    assert.equal(await restore.count(), 2);
    assert.deepEqual(await axeViolations(chat.page), []);
    await restore.nth(1).click();
    assert.deepEqual(await chat.posted(), [{ type: 'restoreCheckpoint', entryId: 'u2', chatId: 'c1' }]);
    await chat.apply({ type: 'status', status: { ...status({ files, total: 4, busy: false }), checkpoints: [] } });
    await restore.first().waitFor({ state: 'detached' });
  });
});
