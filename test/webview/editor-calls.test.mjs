/** <acp-editor-calls>: what the agent asked VS Code in a turn, under its answer; each call opening its place. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const answer = { kind: 'assistant', id: 'a1', text: 'Fixed the type error in `src/a.ts`.' };
const call = (tool, about, path, line) => ({ tool, about, ...(path ? { path } : {}), ...(line ? { line } : {}) });
const calls = (list, more) => ({ kind: 'editorCalls', id: 'k1', calls: list, ...(more ? { more } : {}) });
const lines = (chat) =>
  chat.page
    .locator('acp-editor-calls li')
    .evaluateAll((lis) => lis.map((li) => [li.querySelector('.codicon')?.classList[1], li.textContent.trim()]));

describe('<acp-editor-calls>', function () {
  let chat;
  afterEach(() => chat?.close());

  for (const theme of ['light', 'dark']) {
    it(`lists a turn's few calls open under the answer, each opening its place (${theme})`, async () => {
      chat = await openChatPage({ theme, width: 292 });
      await chat.setEntries([
        answer,
        calls([
          call('problems', 'problems in src/a.ts: 1 (1 error)', '/w/src/a.ts', 3),
          call('definition', 'definition at src/a.ts:3:7: src/b.ts:1:17', '/w/src/b.ts', 1),
          { ...call('problems', 'problems: not answered'), refused: true },
        ]),
      ]);
      const list = chat.page.locator('acp-editor-calls');
      assert.match(await list.locator('summary').textContent(), /Asked VS Code 3 questions: problems, definition/);
      assert.equal(await list.locator('details').getAttribute('open'), '');
      assert.deepEqual(await lines(chat), [
        ['codicon-warning', 'problems in src/a.ts: 1 (1 error)'],
        ['codicon-go-to-file', 'definition at src/a.ts:3:7: src/b.ts:1:17'],
        ['codicon-circle-slash', 'problems: not answered'],
      ]);
      // It comes after the answer.
      const order = await chat.page.locator('acp-chat-entry').evaluateAll((es) => es.map((e) => e.entry.kind));
      assert.deepEqual(order, ['assistant', 'editorCalls']);
      const links = list.getByRole('link');
      assert.equal(await links.count(), 2, 'a refused call opens nothing');
      await chat.clearPosted();
      await links.nth(0).click();
      await links.nth(1).focus();
      await chat.page.keyboard.press('Enter');
      assert.deepEqual(await chat.posted(), [
        { type: 'openLocation', path: '/w/src/a.ts', line: 3 },
        { type: 'openLocation', path: '/w/src/b.ts', line: 1 },
      ]);
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }

  it("opens a place of a workspace that is not on disk (VS Code for the Web) by VS Code's URI", async () => {
    chat = await openChatPage({ theme: 'light' });
    const uri = 'vscode-vfs://github/owner/repo/src/b.ts';
    await chat.setEntries([
      answer,
      calls([{ tool: 'definition', about: 'definition at src/a.ts:3:7: src/b.ts:1:17', uri, line: 1 }]),
    ]);
    await chat.clearPosted();
    await chat.page.locator('acp-editor-calls').getByRole('link').click();
    assert.deepEqual(await chat.posted(), [{ type: 'openPlace', uri, line: 1 }]);
  });

  it('keeps many calls behind their heading, counts those not listed, and keeps hostile text as text', async () => {
    chat = await openChatPage({ theme: 'dark' });
    const evil = 'symbols matching "<img src=x onerror=alert(1)>": 0';
    const many = Array.from({ length: 50 }, (_, i) =>
      call('references', `references at a.ts:${i + 1}:1: 2`, '/w/a.ts', i + 1),
    );
    await chat.setEntries([answer, calls([call('symbols', evil), ...many], 950)]);
    const list = chat.page.locator('acp-editor-calls');
    assert.equal(await list.locator('details').getAttribute('open'), null);
    assert.match(await list.locator('summary').textContent(), /Asked VS Code 1,001 questions: symbols, references/);
    await list.locator('summary').focus();
    await chat.page.keyboard.press('Enter');
    const shown = await lines(chat);
    assert.equal(shown.length, 52);
    assert.deepEqual(shown[0], ['codicon-search', evil]);
    assert.deepEqual(shown[51], [undefined, 'and 950 more']);
    assert.equal(await list.locator('img').count(), 0);
  });
});
