/** <acp-tool-card>: one tool call, collapsed by default, expanded by keyboard or mouse. */
import * as assert from 'node:assert/strict';
import { axeViolations } from './axe.mjs';
import { installVsCodeState, openChatPage } from './harness.mjs';

const tool = (id, extra = {}) => ({
  kind: 'tool',
  id,
  toolCallId: `call-${id}`,
  title: `Tool ${id}`,
  toolKind: 'other',
  status: 'completed',
  content: [],
  locations: [],
  ...extra,
});

describe('<acp-tool-card>', function () {
  let chat;
  beforeEach(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  afterEach(() => chat?.close());

  it('renders one collapsed card per tool call with kind icon, title and a spoken status', async () => {
    const kinds = [
      'read',
      'edit',
      'delete',
      'move',
      'search',
      'execute',
      'think',
      'fetch',
      'switch_mode',
      'other',
      'something-new',
    ];
    const icons = [
      'eye',
      'edit',
      'trash',
      'move',
      'search',
      'terminal',
      'lightbulb',
      'globe',
      'arrow-swap',
      'tools',
      'tools',
    ];
    await chat.setEntries(kinds.map((k, i) => tool(`t${i}`, { toolKind: k, title: `Title ${k}` })));
    const cards = chat.page.locator('acp-tool-card');
    assert.equal(await cards.count(), kinds.length);
    for (let i = 0; i < kinds.length; i++) {
      const c = cards.nth(i);
      assert.equal(await c.locator('.kind .codicon').getAttribute('class'), `codicon codicon-${icons[i]} `);
      assert.equal(await c.locator('.title').textContent(), `Title ${kinds[i]}`);
      assert.equal(await c.locator('button.head').getAttribute('aria-expanded'), 'false');
      assert.equal(await c.locator('.body').count(), 0, 'collapsed: no body');
    }

    const statuses = {
      pending: ['Pending', 'ellipsis'],
      in_progress: ['Running', 'loading'],
      completed: ['Completed', 'check'],
      failed: ['Failed', 'error'],
      cancelled: ['Cancelled', 'circle-slash'],
    };
    await chat.setEntries(
      Object.keys(statuses).map((s, i) => tool(`s${i}`, { status: s, toolKind: 'read', title: 'Read a.ts' })),
    );
    for (const [i, [status, [label, icon]]] of Object.entries(statuses).entries()) {
      const button = chat.page.locator('acp-tool-card').nth(i).locator('button.head');
      // The accessible name carries kind, title and status for screen readers.
      assert.equal(
        await button.evaluate((b) => b.textContent.replace(/\s+/g, ' ').trim()),
        `Read: Read a.ts , ${label}`,
      );
      assert.ok((await button.locator(`.status.${status} .codicon-${icon}`).count()) === 1, `${status} icon`);
    }
    assert.equal(
      await chat.page.locator('acp-tool-card .status.in_progress .codicon.spin').count(),
      1,
      'running spins',
    );
  });

  it("names the tool's programmatic name where the agent gave one: on the title and first in the body", async () => {
    await chat.setEntries([tool('n', { name: 'mcp__github__create_issue', title: 'Create an issue' }), tool('m')]);
    const [named, plain] = [chat.page.locator('acp-tool-card').first(), chat.page.locator('acp-tool-card').nth(1)];
    assert.equal(await named.locator('.title').getAttribute('title'), 'Tool: mcp__github__create_issue');
    assert.equal(await plain.locator('.title').getAttribute('title'), null);
    await named.locator('button.head').click();
    assert.equal(await named.locator('.body .tool-name').textContent(), 'Tool mcp__github__create_issue');
    await plain.locator('button.head').click();
    assert.equal(await plain.locator('.body .tool-name').count(), 0);
  });

  it("shows a subagent's steps inside the call that started it: their count, its tool calls as cards, its text", async () => {
    const child = (id, extra) => ({ ...tool(id), toolCallId: `child-${id}`, ...extra });
    await chat.setEntries([
      tool('task', {
        title: 'Explore the parser',
        status: 'in_progress',
        children: [
          child('c1', { title: 'Read parser.ts', toolKind: 'read' }),
          { kind: 'thought', id: 'c2', text: 'Looking <b>closer</b>.' },
          { kind: 'assistant', id: 'c3', text: 'Found **it**.' },
        ],
        childrenCut: 2,
      }),
    ]);
    const card = chat.page.locator('acp-tool-card').first();
    assert.equal(await card.locator('button.head .steps').first().textContent(), '5 steps');
    await card.locator('button.head').first().click();
    const subagent = card.locator('section.subagent');
    assert.equal(await subagent.getAttribute('aria-label'), 'Subagent');
    assert.equal(await subagent.locator('.quiet').first().textContent(), '2 earlier steps are not kept.');
    assert.equal(await subagent.locator('acp-tool-card .title').textContent(), 'Read parser.ts');
    assert.equal(await subagent.locator('.subagent-thought').textContent(), 'Looking <b>closer</b>.');
    assert.equal(
      await subagent.locator('acp-markdown').evaluate((m) => m.shadowRoot.innerHTML.includes('<strong>it</strong>')),
      true,
    );
    // The child card opens on its own.
    await subagent.locator('acp-tool-card button.head').click();
    assert.equal(await subagent.locator('acp-tool-card button.head').getAttribute('aria-expanded'), 'true');
    assert.deepEqual(await axeViolations(chat.page), []);
  });

  it('expands and collapses with the keyboard and the mouse', async () => {
    await chat.setEntries([tool('a', { input: '{\n  "path": "a.ts"\n}' }), tool('b')]);
    const head = chat.page.locator('acp-tool-card').first().locator('button.head');
    await head.focus();
    await chat.page.keyboard.press('Enter');
    assert.equal(await head.getAttribute('aria-expanded'), 'true');
    assert.equal(await head.getAttribute('aria-controls'), 'body');
    assert.match(
      await chat.page.locator('acp-tool-card').first().locator('#body pre.input').textContent(),
      /"path": "a.ts"/,
    );
    await chat.page.keyboard.press('Space');
    assert.equal(await head.getAttribute('aria-expanded'), 'false');
    assert.equal(await chat.page.locator('acp-tool-card').first().locator('.body').count(), 0);
    // Tab reaches the next card's button.
    await chat.page.keyboard.press('Tab');
    assert.equal(
      await chat.page.evaluate(() => {
        let a = document.activeElement;
        while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
        return a?.getRootNode().host.entry.id;
      }),
      'b',
    );
    await chat.page.locator('acp-tool-card').nth(1).locator('button.head').click();
    assert.equal(
      await chat.page.locator('acp-tool-card').nth(1).locator('button.head').getAttribute('aria-expanded'),
      'true',
    );
  });

  it('shows the command of an execute call, all content, and links that post only when used', async () => {
    await chat.setEntries([
      tool('x', {
        toolKind: 'execute',
        title: 'Run tests',
        input: 'npm test -- --grep "a b"',
        locations: [{ path: '/w/src/a.ts', line: 12 }, { path: '/w/src/b.ts' }, { path: '/w/c.ts', line: 0 }],
        content: [
          { type: 'content', block: { type: 'text', text: 'Done **well**' } },
          { type: 'content', block: { type: 'image', mimeType: 'image/png' } },
          { type: 'content', block: { type: 'audio', mimeType: 'audio/wav' } },
          {
            type: 'content',
            block: { type: 'resource', uri: 'file:///w/notes.md', name: 'notes.md', text: 'resource body' },
          },
        ],
      }),
    ]);
    await chat.clearPosted();
    const c = chat.page.locator('acp-tool-card');
    await c.locator('button.head').click();
    assert.deepEqual(await chat.posted(), [], 'expanding opens nothing');
    assert.equal((await c.locator('pre.command').textContent()).replace('Command: ', ''), '$ npm test -- --grep "a b"');
    assert.equal(await c.locator('acp-markdown').evaluate((m) => m.text), 'Done **well**');
    assert.match(await c.locator('acp-markdown').locator('strong').textContent(), /well/);
    assert.equal(
      await c
        .locator('.placeholder')
        .nth(0)
        .textContent()
        .then((t) => t.trim()),
      'Image (image/png), not shown',
    );
    assert.equal(
      await c
        .locator('.placeholder')
        .nth(1)
        .textContent()
        .then((t) => t.trim()),
      'Audio (audio/wav), not shown',
    );
    assert.equal(await c.locator('img, audio, video').count(), 0);
    assert.equal(await c.locator('.resource pre').textContent(), 'resource body');

    const links = c.locator('a.location');
    assert.deepEqual(await links.allTextContents().then((t) => t.map((s) => s.trim())), [
      '/w/src/a.ts:12',
      '/w/src/b.ts',
      '/w/c.ts',
    ]);
    await links.nth(0).click();
    await links.nth(1).focus();
    await chat.page.keyboard.press('Enter');
    await links.nth(2).click();
    await c.locator('.resource a').click();
    assert.deepEqual(await chat.posted(), [
      { type: 'openLocation', path: '/w/src/a.ts', line: 12 },
      { type: 'openLocation', path: '/w/src/b.ts' },
      { type: 'openLocation', path: '/w/c.ts' },
      { type: 'openLink', href: 'file:///w/notes.md' },
    ]);
    assert.equal(chat.navigations().length, 1, 'no navigation');
    assert.deepEqual(chat.foreignRequests(), []);
  });

  it('keeps hostile text as text', async () => {
    const evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    await chat.setEntries([
      tool('h', {
        title: evil,
        input: evil,
        locations: [{ path: evil }],
        content: [{ type: 'content', block: { type: 'resource', uri: 'javascript:alert(3)', name: evil, text: evil } }],
      }),
    ]);
    const c = chat.page.locator('acp-tool-card');
    await c.locator('button.head').click();
    assert.equal(await c.locator('.title').textContent(), evil);
    assert.equal(await c.locator('img, script').count(), 0);
    await c.locator('.resource a').click();
    assert.deepEqual(chat.dialogs(), []);
    assert.deepEqual(await chat.violations(), []);
  });

  it("keeps the line breaks of a tool's text output, still rendered as Markdown", async () => {
    const file = 'import { a } from "./a";\nconst b = a + 1;\nexport default b;\n\nSecond **paragraph**\nline two';
    await chat.setEntries([
      tool('read', { toolKind: 'read', content: [{ type: 'content', block: { type: 'text', text: file } }] }),
      { kind: 'assistant', id: 'reply', text: file },
    ]);
    const c = chat.page.locator('acp-tool-card');
    await c.locator('button.head').click();
    // innerText needs rendered text: a Markdown block group (content-visibility: auto) is
    // known to be on screen only after a frame has been rendered with it.
    await chat.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const output = c.locator('acp-markdown');
    assert.deepEqual(await output.locator('p').evaluateAll((ps) => ps.map((p) => p.innerText)), [
      'import { a } from "./a";\nconst b = a + 1;\nexport default b;',
      'Second paragraph\nline two',
    ]);
    assert.equal(await output.locator('br').count(), 3);
    assert.equal(await output.locator('strong').textContent(), 'paragraph', 'still Markdown');
    // An agent's message keeps CommonMark's soft breaks: one paragraph line per paragraph.
    const reply = chat.page.locator('acp-chat-entry acp-markdown').last();
    assert.equal(await reply.locator('br').count(), 0);
    assert.equal(
      await reply
        .locator('p')
        .first()
        .evaluate((p) => p.innerText),
      'import { a } from "./a"; const b = a + 1; export default b;',
    );
  });

  it('shows a path once when a diff already shows it', async () => {
    await chat.setEntries([
      tool('e', {
        toolKind: 'edit',
        locations: [
          { path: '/w/a.ts' },
          { path: '/w/b.ts' },
          { path: '/w/a.ts', line: 7 },
          { path: '/w/a.ts', line: 0 },
        ],
        content: [{ type: 'diff', path: '/w/a.ts', oldText: 'x\n', newText: 'y\n' }],
      }),
    ]);
    const c = chat.page.locator('acp-tool-card');
    await c.locator('button.head').click();
    // The location list keeps what the diff does not say: another file, a line.
    assert.deepEqual(
      await c
        .locator('.locations a.location')
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ['/w/b.ts', '/w/a.ts:7'],
    );
    assert.deepEqual(
      await c
        .locator('.diff a.location')
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ['/w/a.ts'],
    );

    // Without a diff every location is listed.
    await chat.setEntries([
      tool('e', {
        toolKind: 'read',
        locations: [{ path: '/w/a.ts' }],
        content: [{ type: 'content', block: { type: 'text', text: 'x' } }],
      }),
    ]);
    assert.deepEqual(
      await c
        .locator('a.location')
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ['/w/a.ts'],
    );
  });

  it('updates in place as the call progresses, keeping it expanded', async () => {
    await chat.setEntries([tool('p', { status: 'in_progress', toolKind: 'execute' })]);
    await chat.page.locator('acp-tool-card button.head').click();
    await chat.apply({
      type: 'entries',
      length: 1,
      ops: [
        {
          op: 'set',
          index: 0,
          entry: tool('p', {
            status: 'failed',
            toolKind: 'execute',
            content: [{ type: 'terminal', terminalId: 't', output: 'boom\n', exitCode: 2 }],
          }),
        },
      ],
    });
    const c = chat.page.locator('acp-tool-card');
    assert.equal(await c.locator('button.head').getAttribute('aria-expanded'), 'true');
    assert.match(await c.locator('button.head').textContent(), /Failed/);
    assert.match(await c.locator('acp-terminal-output pre').textContent(), /boom/);
  });

  it('remembers expanded cards by entry id across a reload of the view', async () => {
    await installVsCodeState(chat.page);
    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    const entries = [tool('r1'), tool('r2'), tool('r3')];
    await chat.setEntries(entries);
    await chat.page.locator('acp-tool-card').nth(1).locator('button.head').click();
    await chat.page.locator('acp-tool-card').nth(2).locator('button.head').click();
    await chat.page.locator('acp-tool-card').nth(2).locator('button.head').click();
    await chat.page.waitForTimeout(400); // saves are coalesced

    await chat.page.reload();
    await chat.page.waitForFunction(() => window.__acpHarness?.posted.some((m) => m.type === 'ready'));
    await chat.setEntries(entries);
    const expanded = await chat.page
      .locator('acp-tool-card button.head')
      .evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-expanded')));
    assert.deepEqual(expanded, ['false', 'true', 'false']);

    // A new chat (the list cleared) forgets them: its ids may repeat.
    await chat.apply({ type: 'entries', length: 0, ops: [] });
    await chat.setEntries(entries);
    assert.equal(await chat.page.locator('acp-tool-card button.head[aria-expanded="true"]').count(), 0);
  });

  for (const theme of ['dark', 'light', 'high-contrast']) {
    it(`has no serious accessibility violations when expanded (${theme})`, async () => {
      await chat.setTheme(theme);
      await chat.setEntries([
        tool('a', {
          toolKind: 'execute',
          status: 'failed',
          input: 'make',
          locations: [{ path: '/w/a.ts', line: 1 }],
          content: [{ type: 'terminal', terminalId: 't', output: '\x1b[31merror\x1b[0m ok\n', exitCode: 1 }],
        }),
        tool('b', {
          toolKind: 'edit',
          content: [
            { type: 'diff', path: '/w/b.ts', oldText: 'a\nb\n', newText: 'a\nc\n' },
            { type: 'content', block: { type: 'image', mimeType: 'image/png' } },
          ],
        }),
        tool('c', {
          status: 'pending',
          content: [{ type: 'content', block: { type: 'resource', uri: 'file:///w/r', name: 'r' } }],
        }),
      ]);
      for (const head of await chat.page.locator('acp-tool-card button.head').all()) await head.click();
      assert.deepEqual(await axeViolations(chat.page), []);
    });
  }
});
