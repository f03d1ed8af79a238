/**
 * The chat view's width contract (issue 46): VS Code opens the Secondary Side Bar at 292 px, and a side bar can be
 * narrower. At 240, 292 and 500 px, light and dark, in each of the chat's states (chat-states.mjs), no control is drawn
 * outside the window or cut by a box that does not scroll, a label or text cut short is said whole by its tooltip,
 * the page never scrolls sideways, and a permission request's buttons are in view whatever its diff's length.
 */
import * as assert from 'node:assert/strict';
import { STATES } from './chat-states.mjs';
import { openChatPage } from './harness.mjs';
import { outOfReach } from './reach.mjs';

/** Two frames: the state is laid out as the user sees it. */
const painted = (page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe('the chat view at the side bar widths', function () {
  this.timeout(120_000);
  for (const theme of ['light', 'dark']) {
    for (const width of [240, 292, 500]) {
      it(`keeps every control in reach at ${width} px (${theme})`, async () => {
        const chat = await openChatPage({ theme, width, height: 700 });
        try {
          const problems = [];
          for (const [name, apply] of Object.entries(STATES)) {
            await chat.page.reload();
            await chat.page.waitForFunction(
              () => document.querySelector('acp-chat-app')?.shadowRoot?.childElementCount,
            );
            await apply(chat);
            await painted(chat.page);
            for (const problem of await chat.page.evaluate(outOfReach)) problems.push(`${name}: ${problem}`);
          }
          assert.deepEqual(problems, []);
        } finally {
          await chat.close();
        }
      });
    }
  }

  for (const width of [240, 292]) {
    it(`shows a permission request's buttons in the window, its long diff scrolling instead (${width} px)`, async () => {
      const chat = await openChatPage({ theme: 'dark', width, height: 700 });
      try {
        await STATES.permission(chat);
        await painted(chat.page);
        const prompt = chat.page.locator('acp-permission-prompt');
        for (const name of ['Allow once', 'Always allow', 'Reject']) {
          const box = await prompt.getByRole('button', { name, exact: true }).boundingBox();
          assert.ok(
            box && box.x >= 0 && box.x + box.width <= width && box.y >= 0 && box.y + box.height <= 700,
            `${name} is in the window: ${JSON.stringify(box)}`,
          );
          // Not under anything else either: what is drawn at its middle is the button.
          const hit = await chat.page.evaluate(
            ([x, y]) => {
              let el = document.elementFromPoint(x, y);
              while (el?.shadowRoot?.elementFromPoint(x, y) && el.shadowRoot.elementFromPoint(x, y) !== el) {
                el = el.shadowRoot.elementFromPoint(x, y);
              }
              return el?.closest('button')?.textContent.trim();
            },
            [box.x + box.width / 2, box.y + box.height / 2],
          );
          assert.equal(hit, name);
        }
        const details = prompt.getByRole('region', { name: 'Details' });
        assert.ok(await details.evaluate((d) => d.scrollHeight > d.clientHeight), 'the diff scrolls in its box');
      } finally {
        await chat.close();
      }
    });
  }

  it('shows the toolbar pickers whole at 500 px once connected (the agent is named in the view title, not there)', async () => {
    const chat = await openChatPage({ theme: 'dark', width: 500, height: 700 });
    try {
      await STATES.streaming(chat);
      await painted(chat.page);
      const toolbar = chat.page.locator('acp-composer-toolbar');
      assert.equal(await toolbar.getByRole('combobox', { name: 'Agent' }).count(), 0, 'no agent picker');
      // Each picker as wide as its whole label would make it, and the label is a real one.
      const pickers = await toolbar.locator('select.compact').evaluateAll((selects) =>
        selects.map((select) => {
          const shown = select.getBoundingClientRect().width;
          const box = select.parentElement;
          const before = [select.style.maxWidth, box.style.maxWidth, box.style.flex];
          [select.style.maxWidth, box.style.maxWidth, box.style.flex] = ['none', 'none', 'none'];
          const whole = select.getBoundingClientRect().width;
          [select.style.maxWidth, box.style.maxWidth, box.style.flex] = before;
          return { label: select.options[select.selectedIndex]?.text, cut: whole - shown > 0.5 };
        }),
      );
      assert.deepEqual(pickers, [
        { label: 'Default', cut: false },
        { label: 'Claude Sonnet 4.5 (recommended)', cut: false },
      ]);
    } finally {
      await chat.close();
    }
  });
});
