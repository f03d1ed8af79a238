/**
 * Accessibility of a rich transcript (every entry kind, every Markdown
 * construct, thoughts open and closed, tool cards open and closed) with
 * axe-core, in light, dark and high-contrast themes: no serious or critical
 * violations.
 */
import * as assert from 'node:assert/strict';
import { runAxe, seriousOrWorse } from './axe.mjs';
import { openChatPage } from './harness.mjs';

const markdown = [
  '# Summary',
  '',
  'I **changed** two files, _renamed_ a ~~function~~ method and ran `npm test`. See [the guide](https://example.com/guide), [app.ts](src/app.ts#L4) and [bad](javascript:void 0).',
  '',
  '## Code',
  '',
  '```ts',
  'export function add(a: number, b: number): number {',
  '  // adds',
  '  return a + b; // "sum"',
  '}',
  '```',
  '',
  '```diff',
  '-const x = 1;',
  '+const x = 2;',
  '```',
  '',
  '```bash',
  'npm test -- --grep "streaming" && echo ok',
  '```',
  '',
  '```python',
  'def f(x=None):',
  '    return {"k": [1, 2.5, True]}',
  '```',
  '',
  '```json',
  '{ "name": "x", "ok": true, "n": 3, "nil": null }',
  '```',
  '',
  '    indented code',
  '',
  '| File | Lines | Status |',
  '|:-----|------:|:------:|',
  '| `src/app.ts` | 120 | done |',
  '| a-very-long-file-name-that-makes-the-table-wider-than-the-side-bar.ts | 9 | open |',
  '',
  '- [x] write tests',
  '- [ ] update docs',
  '',
  '1. first',
  '2. second',
  '   - nested',
  '',
  '> Note: a quote with a [link](https://example.com).',
  '',
  '---',
  '',
  'Image: ![architecture diagram](https://example.com/a.png) and raw <b>html</b>.',
  '',
  '### Smaller',
  '#### Smallest',
  'Line one  ',
  'line two',
].join('\n');

const transcript = [
  { kind: 'user', id: 'u1', text: 'Please refactor src/app.ts and explain.' },
  { kind: 'thought', id: 't1', text: 'The user wants a refactor. I should **read** the file first.' },
  {
    kind: 'tool',
    id: 'tool1',
    toolCallId: 'c1',
    title: 'Read src/app.ts',
    toolKind: 'read',
    status: 'completed',
    content: [{ type: 'content', block: { type: 'text', text: 'Read **120** lines:\n\n```ts\nconst a = 1;\n```' } }],
    locations: [{ path: 'src/app.ts', line: 1 }],
  },
  {
    kind: 'tool',
    id: 'tool2',
    toolCallId: 'c2',
    title: 'npm test',
    toolKind: 'execute',
    status: 'failed',
    content: [{ type: 'terminal', terminalId: 't', output: 'FAIL 1 test', exitCode: 1 }],
    locations: [],
    input: 'npm test',
  },
  {
    kind: 'plan',
    id: 'p1',
    entries: [
      { content: 'Read the file', priority: 'high', status: 'completed' },
      { content: 'Refactor', priority: 'medium', status: 'in_progress' },
      { content: 'Document', priority: 'low', status: 'pending' },
    ],
  },
  { kind: 'thought', id: 't2', text: 'Now the tests:\n\n- run them\n- read `the output`' },
  { kind: 'assistant', id: 'a1', text: markdown },
  { kind: 'notice', id: 'n1', level: 'info', text: 'Connected to Test Agent 1.2.3' },
  { kind: 'notice', id: 'n2', level: 'warning', text: 'The agent asked for a file outside the workspace.' },
  { kind: 'notice', id: 'n3', level: 'error', text: 'The agent stopped: exit code 1' },
  {
    kind: 'compaction',
    id: 'k1',
    compactionId: 'c1',
    status: 'completed',
    summary: '## What happened\n\n- the parser was **fixed**\n- tests pass',
  },
  { kind: 'compaction', id: 'k2', compactionId: 'c2', status: 'failed', summary: '', error: 'context still too long' },
];

describe('accessibility (axe-core)', function () {
  this.timeout(90_000);
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'light', height: 900 });
    await chat.setEntries(transcript);
    // One thought and one tool card open, the others closed: both states are checked.
    await chat.page.locator('details.thought summary').last().click();
    await chat.page.locator('details.thought[open] acp-markdown').waitFor();
    await chat.page.locator('details.compaction-summary summary').click();
    await chat.page.locator('details.compaction-summary[open] acp-markdown').waitFor();
    await chat.page.locator('acp-tool-card button.head').first().click();
    await chat.page.getByRole('button', { name: 'Copy code' }).first().waitFor();
  });
  after(() => chat?.close());

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`has no serious or critical violations in the ${theme} theme`, async () => {
      await chat.setTheme(theme);
      const violations = await runAxe(chat.page);
      assert.deepEqual(seriousOrWorse(violations), [], JSON.stringify(violations, null, 1));
    });
  }

  it('checks what it claims to: a broken page fails', async () => {
    // Same page with an unlabelled button and grey-on-grey text added through the DevTools protocol.
    await chat.page.evaluate(() => {
      const b = document.createElement('button');
      b.id = 'axe-canary';
      document.body.append(b);
    });
    const violations = seriousOrWorse(await runAxe(chat.page));
    await chat.page.evaluate(() => document.getElementById('axe-canary').remove());
    assert.ok(
      violations.some((v) => v.id === 'button-name'),
      JSON.stringify(violations),
    );
  });
});
