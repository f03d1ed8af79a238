/** <acp-diff-view>: a tool call's file edit as a real unified diff with line numbers. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const lines = (n, f = (i) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';
// Line 3 changed, a line inserted after 20, line 38 removed: two hunks far apart.
const OLD = lines(40);
const NEW = lines(40, (i) => (i === 3 ? 'line THREE' : i === 20 ? 'line 20\ninserted' : `line ${i}`)).replace(
  'line 38\n',
  '',
);

const editEntry = (diffs) => ({
  kind: 'tool',
  id: 'edit',
  toolCallId: 'c1',
  title: 'Edit a.ts',
  toolKind: 'edit',
  status: 'completed',
  locations: [],
  content: diffs.map(([path, oldText, newText]) => ({ type: 'diff', path, oldText, newText })),
});

/** Each row as [kind, old line, new line, sign, text]. */
function rows(diff) {
  return diff.locator('.row').evaluateAll((rs) =>
    rs.map((r) => {
      const cell = (c) => r.querySelector(`.${c}`)?.textContent ?? '';
      const kind = ['hunk', 'note', 'context', 'added', 'removed'].find((k) => r.classList.contains(k));
      const text = r.querySelector('.text');
      const spoken = text.querySelector('.sr-only')?.textContent ?? '';
      return [kind, cell('old'), cell('new'), cell('sign'), text.textContent.slice(spoken.length)];
    }),
  );
}

describe('<acp-diff-view>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  async function showDiffs(diffs) {
    await chat.setEntries([editEntry(diffs)]);
    await chat.page.locator('acp-tool-card button.head').click();
    return chat.page.locator('acp-diff-view');
  }

  it('shows hunks with old and new line numbers', async () => {
    const diff = await showDiffs([['/w/a.ts', OLD, NEW]]);
    const context = (o, n) => ['context', `${o}`, `${n}`, ' ', `line ${o}`];
    assert.deepEqual(await rows(diff), [
      ['hunk', '', '', '', '@@ -1,6 +1,6 @@'],
      context(1, 1),
      context(2, 2),
      ['removed', '3', '', '−', 'line 3'],
      ['added', '', '3', '+', 'line THREE'],
      context(4, 4),
      context(5, 5),
      context(6, 6),
      ['hunk', '', '', '', '@@ -18,6 +18,7 @@'],
      context(18, 18),
      context(19, 19),
      context(20, 20),
      ['added', '', '21', '+', 'inserted'],
      context(21, 22),
      context(22, 23),
      context(23, 24),
      ['hunk', '', '', '', '@@ -35,6 +36,5 @@'],
      context(35, 36),
      context(36, 37),
      context(37, 38),
      ['removed', '38', '', '−', 'line 38'],
      context(39, 39),
      context(40, 40),
    ]);
    assert.match(await diff.locator('.summary').textContent(), /\+2\s+−2/);
    // The path is a link that opens the file (only when used).
    await chat.clearPosted();
    await chat.page.locator('acp-tool-card .diff > a.location').click();
    assert.deepEqual(await chat.posted(), [{ type: 'openLocation', path: '/w/a.ts' }]);
  });

  it("highlights added and removed lines with the theme's diff colours", async () => {
    const diff = await showDiffs([['/w/a.ts', OLD, NEW]]);
    const background = (sel) =>
      diff
        .locator(`${sel} > .text`)
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor);
    const inserted = await chat.page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--vscode-diffEditor-insertedTextBackground'),
    );
    assert.equal(inserted.trim(), '#9ccc2c33');
    assert.equal(await background('.added'), 'rgba(156, 204, 44, 0.2)');
    assert.equal(await background('.removed'), 'rgba(255, 0, 0, 0.2)');
    assert.equal(await background('.context'), 'rgba(0, 0, 0, 0)');
    // The line colour wins when the theme has one.
    await chat.page.evaluate(() =>
      document.documentElement.style.setProperty('--vscode-diffEditor-insertedLineBackground', 'rgb(1, 2, 3)'),
    );
    assert.equal(await background('.added'), 'rgb(1, 2, 3)');
    // Screen readers hear what changed, not a colour.
    assert.equal(await diff.locator('.added .sr-only').first().textContent(), 'added: ');
    assert.equal(await diff.locator('.removed .sr-only').first().textContent(), 'removed: ');
  });

  it('shows a new file as all added, and an unchanged file as such', async () => {
    const diff = await showDiffs([
      ['/w/new.ts', null, 'one\ntwo\n'],
      ['/w/same.ts', 'x\n', 'x\n'],
    ]);
    assert.deepEqual(await rows(diff.nth(0)), [
      ['added', '', '1', '+', 'one'],
      ['added', '', '2', '+', 'two'],
    ]);
    assert.match(await diff.nth(0).locator('.summary').textContent(), /New file · \+2\s+−0/);
    assert.deepEqual(await rows(diff.nth(1)), []);
    assert.match(await diff.nth(1).locator('.summary').textContent(), /No changes/);
  });

  it('an edit the agent sent without its old text: against the file now, or "old text not sent", never a new file', async () => {
    await chat.setEntries([
      {
        ...editEntry([]),
        content: [
          { type: 'diff', path: '/w/notes.md', oldText: 'one\ntwo\n', newText: 'one\nTWO\n', oldFrom: 'disk' },
          { type: 'diff', path: '/w/other.md', oldText: null, newText: 'a\nb\n', oldFrom: 'unknown' },
        ],
      },
    ]);
    await chat.page.locator('acp-tool-card button.head').click();
    const diff = chat.page.locator('acp-diff-view');
    const summary = diff.nth(0).locator('.summary');
    assert.match(await summary.textContent(), /^Against the file now · \+1\s+−1$/);
    assert.match(
      await summary.getAttribute('title'),
      /did not send what this edit replaces: the diff is against the file/,
    );
    assert.deepEqual(
      (await rows(diff.nth(0))).map((r) => r[0]),
      ['hunk', 'context', 'removed', 'added'],
    );
    const unknown = diff.nth(1).locator('.summary');
    assert.match(await unknown.textContent(), /^Old text not sent · \+2\s+−0$/);
    assert.match(await unknown.getAttribute('title'), /could not be read here/);
  });

  it('keeps hostile file content as text', async () => {
    const diff = await showDiffs([['/w/x.html', '<p>old</p>\n', '<img src=x onerror="alert(1)">\n']]);
    assert.equal(await diff.locator('.added .text').textContent(), 'added: <img src=x onerror="alert(1)">');
    assert.equal(await chat.page.locator('acp-diff-view img').count(), 0);
    assert.deepEqual(chat.dialogs(), []);
  });

  it('an edit the host found too large to keep shows its line counts only', async () => {
    await chat.setEntries([
      {
        ...editEntry([]),
        content: [
          {
            type: 'diff',
            path: '/w/big.txt',
            oldText: '',
            newText: '',
            tooLarge: { oldLines: 150000, newLines: 100001 },
          },
        ],
      },
    ]);
    await chat.page.locator('acp-tool-card button.head').click();
    assert.equal(
      (await chat.page.locator('acp-diff-view .summary').textContent()).trim(),
      'Too large to show as a diff (150000 lines before, 100001 after).',
    );
    assert.equal(await chat.page.locator('acp-diff-view .row').count(), 0);
  });

  it('caps a huge edit instead of freezing', async () => {
    const diff = await showDiffs([['/w/big.txt', null, lines(5000)]]);
    assert.equal(await diff.locator('.row').count(), 2000);
    assert.match(await diff.locator('.more').textContent(), /3000 more lines not shown/);
  });

  it("a structured change (ACP v2): the agent's hunks with their line numbers, or what happened to the file", async () => {
    const change = (path, operation, extra = {}) => ({
      type: 'diff',
      path,
      oldText: operation === 'add' ? null : '',
      newText: '',
      change: { operation, ...(extra.oldPath ? { oldPath: extra.oldPath } : {}) },
      ...(extra.hunks ? { hunks: extra.hunks } : {}),
    });
    await chat.setEntries([
      {
        ...editEntry([]),
        content: [
          change('/w/a.ts', 'modify', {
            hunks: [
              { oldStart: 10, oldLines: 3, newStart: 10, newLines: 3, lines: [' keep', '-old <b>', '+new', ' end'] },
            ],
          }),
          change('/w/n.ts', 'add', {
            hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1, lines: ['+hello'] }],
          }),
          change('/w/gone.ts', 'delete'),
          change('/w/b.ts', 'move', { oldPath: '/w/old/b.ts' }),
          change('/w/c.ts', 'modify'),
        ],
      },
    ]);
    await chat.page.locator('acp-tool-card button.head').click();
    const diff = chat.page.locator('acp-diff-view');
    assert.deepEqual(await rows(diff.nth(0)), [
      ['hunk', '', '', '', '@@ -10,3 +10,3 @@'],
      ['context', '10', '10', ' ', 'keep'],
      ['removed', '11', '', '−', 'old <b>'],
      ['added', '', '11', '+', 'new'],
      ['context', '12', '12', ' ', 'end'],
    ]);
    const summary = (i) => diff.nth(i).locator('.summary').textContent();
    assert.match(await summary(0), /^\+1\s+−1$/);
    assert.match(await summary(1), /New file · \+1\s+−0/);
    assert.equal(await summary(2), 'Deleted');
    assert.equal(await summary(3), 'Moved from /w/old/b.ts');
    assert.equal(await summary(4), 'Modified');
    assert.equal(await diff.nth(2).locator('.row').count(), 0);
    await chat.setTheme('light');
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations (${theme})`, async () => {
      await chat.setTheme(theme);
      await showDiffs([
        ['/w/a.ts', OLD, NEW],
        ['/w/new.ts', null, 'x\n'],
      ]);
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
