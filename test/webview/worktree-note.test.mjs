/**
 * A chat in its own worktree (issue 49): under the header the chat says so, and its Apply, Open and Discard reach the
 * host. At the side bar's default width the buttons stay whole however long the worktree's name is.
 */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { openChatPage, runningStatus } from './harness.mjs';

const status = (extra = {}) => runningStatus({ turn: 'idle', ...extra });

describe('a chat in a worktree', function () {
  for (const theme of ['light', 'dark']) {
    it(`says it works in a worktree, and its buttons ask the host (${theme}, 292 px)`, async () => {
      const chat = await openChatPage({ theme, width: 292 });
      try {
        await chat.clearPosted();
        const worktree = { label: 'detached at 1234567', path: '/home/me/.worktrees/app-1a2b' };
        await chat.apply({ type: 'status', status: status({ worktree }) });
        const note = chat.page.getByRole('note', { name: 'Worktree' });
        await note.waitFor();
        assert.match(await note.innerText(), /^\S*\s*In its own worktree\s*Apply/);
        assert.match(
          await note.locator('.text').getAttribute('title'),
          /\(detached at 1234567\) at \/home\/me\/\.worktrees\/app-1a2b/,
        );
        assert.deepEqual(await axeViolations(chat.page), []);
        await note.getByRole('button', { name: 'Apply worktree to my workspace' }).click();
        await note.getByRole('button', { name: 'Open worktree in new window' }).click();
        await note.getByRole('button', { name: 'Discard worktree' }).click();
        assert.deepEqual(await chat.posted(), [
          { type: 'worktree', action: 'apply', chatId: 'c1' },
          { type: 'worktree', action: 'open', chatId: 'c1' },
          { type: 'worktree', action: 'discard', chatId: 'c1' },
        ]);
        // A branch is named; a long one is cut with an ellipsis, the buttons staying whole inside the view.
        await chat.apply({
          type: 'status',
          status: status({ worktree: { ...worktree, label: `branch ${'agent/'.repeat(30)}fix` } }),
        });
        assert.match(await note.locator('.text').innerText(), /^Worktree on agent\/agent\//);
        const width = await chat.page.evaluate(() => document.documentElement.clientWidth);
        for (const name of ['Apply worktree to my workspace', 'Open worktree in new window', 'Discard worktree']) {
          const box = await note.getByRole('button', { name }).boundingBox();
          assert.ok(
            box && box.x >= 0 && box.x + box.width <= width,
            `${name} is whole: ${JSON.stringify(box)} in ${width}`,
          );
        }
        // Not in a worktree: no note.
        await chat.apply({ type: 'status', status: status() });
        await note.waitFor({ state: 'detached' });
      } finally {
        await chat.close();
      }
    });
  }
});
