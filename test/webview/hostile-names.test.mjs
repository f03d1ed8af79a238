/**
 * What an agent names, in the shapes that hide what it is (issue 45): a bidi
 * override in a tool call's title, path or command, and runs of combining
 * marks, at the side bar's default width (292 px). What the user reads before
 * approving reads as it is, nothing spills over what is below it, and the
 * buttons stay in reach. And the long lists an agent can grow, as the host
 * bounds them: a plan cut short, a run of notices cut short.
 */
import * as assert from 'node:assert/strict';
import { openChatPage, runningStatus } from './harness.mjs';

const RLO = '\u202e';
const ZALGO = `a${'\u0301'.repeat(10_000)}b`;

const tool = (id, title, extra = {}) => ({
  kind: 'tool',
  id: `t-${id}`,
  toolCallId: `call-${id}`,
  title,
  toolKind: 'execute',
  status: 'pending',
  locations: [{ path: `/w/photo${RLO}gnp.exe` }],
  content: [],
  input: `mv photo.png photo${RLO}gnp.exe ${ZALGO}`,
  ...extra,
});

const box = (locator) => locator.evaluate((e) => e.getBoundingClientRect().toJSON());

describe('hostile names at 292 px', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
    await chat.page.setViewportSize({ width: 292, height: 700 });
  });
  afterEach(() => chat?.close());

  it('a permission prompt shows a bidi override as what it is; combining marks do not spill; its buttons are in reach', async () => {
    const permission = {
      requestId: 'p1',
      tool: tool('p1', `Rename to photo${RLO}gnp.exe ${ZALGO}`),
      choices: ['allow_once', 'allow_always', 'reject'],
      agentOptions: [],
    };
    await chat.apply({ type: 'status', status: runningStatus({ permissions: [permission] }) });
    const prompt = chat.page.locator('acp-permission-prompt');
    const ask = await prompt.locator('.ask').innerText();
    assert.ok(ask.includes('photo⟨U+202E⟩gnp.exe'), ask.slice(0, 200));
    assert.ok(!ask.includes(RLO), 'no live override in what the user approves');
    assert.ok(ask.includes('⟨+9,996 marks⟩'), 'the marks beyond four are counted, not stacked');
    const input = await prompt.locator('.input').innerText();
    assert.ok(input.includes('photo⟨U+202E⟩gnp.exe') && !input.includes(RLO), input.slice(0, 200));
    const location = await prompt.locator('.location').first().innerText();
    assert.ok(location.includes('photo⟨U+202E⟩gnp.exe'), location);
    // The title is a few lines, not a tower of marks over the body.
    const askBox = await box(prompt.locator('.ask'));
    assert.ok(askBox.height < 120, `the title's height: ${askBox.height} px`);
    for (const button of await prompt.locator('.buttons button').all()) {
      const b = await box(button);
      assert.ok(
        b.left >= 0 && b.right <= 292 && b.bottom <= 700 && b.top >= 0,
        `a button out of reach: ${JSON.stringify(b)}`,
      );
    }
  });

  it('a tool card and a message: overrides visible, combining marks bounded, nothing drawn over the next entry', async () => {
    await chat.setEntries([
      tool('c1', `Open photo${RLO}gnp.exe ${ZALGO}`, { status: 'completed' }),
      {
        kind: 'assistant',
        id: 'a1',
        text: `I renamed it to photo${RLO}gnp.exe.\n\n${ZALGO}\n\n\`\`\`\nconst ok = "${RLO}tsil";\n\`\`\``,
      },
      { kind: 'notice', id: 'n1', level: 'info', text: 'after' },
    ]);
    const card = chat.page.locator('acp-tool-card').first();
    const title = await card.locator('.title').innerText();
    assert.ok(title.includes('photo⟨U+202E⟩gnp.exe') && title.includes('⟨+9,996 marks⟩'), title.slice(0, 200));
    const message = chat.page.locator('acp-markdown').first();
    // Its Markdown renders after the entry does.
    await message.locator('.code-block').waitFor();
    const text = await message.evaluate((e) => e.shadowRoot?.textContent ?? '');
    assert.ok(text.includes('photo⟨U+202E⟩gnp.exe'), text.slice(0, 200));
    assert.ok(text.includes('"⟨U+202E⟩tsil"'), 'in code too');
    assert.ok(text.includes('⟨+9,992 marks⟩'), 'marks in prose beyond eight are counted');
    assert.ok(
      !text.includes(RLO),
      JSON.stringify(text.slice(Math.max(0, text.indexOf(RLO) - 40), text.indexOf(RLO) + 40)),
    );
    // What follows starts below what came before: no glyph of one entry reaches into the next's box.
    const messageBox = await box(message);
    const after = await box(chat.page.locator('.notice').last());
    assert.ok(after.top >= messageBox.bottom - 1, `${after.top} >= ${messageBox.bottom}`);
    assert.ok(messageBox.height < 400, `the message's height: ${messageBox.height} px`);
  });

  it('a plan cut short says how many steps are left out; a run of notices cut short says how many', async () => {
    const steps = Array.from({ length: 199 }, (_, i) => ({ content: `Step ${i}`, priority: 'low', status: 'pending' }));
    const plan = [...steps, { content: '99,801 more steps, not shown', priority: '', status: 'left_out' }];
    await chat.setEntries([
      { kind: 'plan', id: 'plan', entries: plan },
      { kind: 'notice', id: 'n', level: 'info', text: 'Heads up', leftOut: 9_980 },
    ]);
    const view = chat.page.locator('acp-plan-view');
    assert.match(await view.locator('h2').innerText(), /Plan · 0 of 199 done/);
    // A long snapshot does not cover the transcript: its first steps, and a button for the rest.
    assert.equal(await view.locator('li').count(), 10);
    // It counts the steps it has, as the heading does: not the line that says how many more there were.
    await view.getByRole('button', { name: 'Show all 199 steps' }).click();
    assert.equal(await view.locator('li').count(), 200);
    assert.match(await view.locator('li').last().innerText(), /99,801 more steps, not shown/);
    assert.match(
      await chat.page.locator('.notice').last().innerText(),
      /Heads up \(9,980 more notices in a row before this one, not shown\)/,
    );
  });
});
