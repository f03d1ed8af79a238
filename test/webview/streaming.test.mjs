/**
 * <acp-markdown> while an answer streams in: the result equals a one-shot
 * rendering, completed blocks are neither re-lexed nor re-rendered, and
 * other entries are not touched.
 */
import * as assert from 'node:assert/strict';
import { markdownHtmls, withMarkdowns } from './dom.mjs';
import { openChatPage } from './harness.mjs';

/** A reply with every construct, long code (more than one highlighting chunk), references defined late, CRLF lines. */
function richReply() {
  const code = Array.from(
    { length: 95 },
    (_, i) => `  const v${i} = compute(${i}); /* multi\n     line */ // ${i}`,
  ).join('\n');
  return [
    '# Plan',
    '',
    'First we **read** the file, then we _change_ it; see [the docs][docs] and <https://example.com>.',
    '',
    '## Steps',
    '',
    '1. Open `src/app.ts`',
    '2. Edit\n   - nested item\n   - [x] done task',
    '3. Run the tests',
    '',
    '```ts',
    'function main(): void {',
    code,
    '}',
    '```',
    '',
    '> A quote with *emphasis*',
    '> over two lines',
    '',
    '| Name | Value |',
    '|:-----|------:|',
    '| a | 1 |',
    '| b | 2 |',
    '',
    'Raw <b>html</b> stays text. ![diagram](https://example.com/d.png)\r\nCRLF line two\r\n',
    '',
    '---',
    '',
    '    indented code',
    '    second line',
    '',
    '```diff',
    '-old',
    '+new',
    '```',
    '',
    ...Array.from({ length: 40 }, (_, i) => `Paragraph ${i} with a [link](src/file${i}.ts) and ~~old~~ text.\n`),
    '[docs]: https://docs.example/guide "Guide"',
    '',
    'The end, with a trailing open code block:',
    '',
    '```python',
    'def f(x):',
    '    return x * 2',
  ].join('\n');
}

/** Cuts `text` into `count` pieces at pseudo-random (but fixed) places. */
function chunks(text, count, seed = 7) {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const cuts = new Set();
  while (cuts.size < count - 1) cuts.add(1 + Math.floor(random() * (text.length - 1)));
  const sorted = [0, ...[...cuts].sort((a, b) => a - b), text.length];
  return sorted.slice(1).map((end, i) => text.slice(sorted[i], end));
}

describe('<acp-markdown> streaming', function () {
  let chat;
  before(async () => {
    chat = await openChatPage();
  });
  after(() => chat?.close());
  afterEach(() => assert.deepEqual(chat.errors(), []));

  it('renders a message built by 500 appends exactly as the same text set at once', async () => {
    const text = richReply();
    const pieces = chunks(text, 500);
    assert.equal(pieces.join(''), text);
    await chat.setEntries([
      { kind: 'assistant', id: 'streamed', text: '' },
      { kind: 'assistant', id: 'whole', text },
    ]);
    await chat.streamText(0, pieces);
    const [streamed, whole] = await markdownHtmls(chat.page);
    assert.ok(
      whole.includes(
        '<a class="link" role="link" tabindex="0" data-href="https://docs.example/guide" title="Guide">the docs</a>',
      ),
      'the late reference resolved',
    );
    assert.ok(whole.includes('Paragraph 39'));
    assert.equal(streamed, whole);
  });

  it('also when streamed one character at a time', async () => {
    const text =
      '## Title\n\n- a\n- b\n\n```js\nlet x = 1;\n```\n\n| h |\n|---|\n| c |\n\n> q\n\ndone [r]\n\n[r]: /path';
    await chat.setEntries([
      { kind: 'assistant', id: 'chars', text: '' },
      { kind: 'assistant', id: 'set', text },
    ]);
    await chat.streamText(0, [...text]);
    const [streamed, whole] = await markdownHtmls(chat.page);
    assert.equal(streamed, whole);
  });

  it('lexes and renders each completed block once: total work stays linear in the length', async () => {
    const paragraphs = Array.from({ length: 150 }, (_, i) => `Paragraph number ${i} says something *useful*.\n\n`);
    const text = paragraphs.join('');
    const pieces = chunks(text, 600, 3);
    await chat.setEntries([{ kind: 'assistant', id: 'linear', text: '' }]);
    await chat.streamText(0, pieces);
    const work = await withMarkdowns(chat.page, (els) => els[0].work);
    // Each update lexes at most the open paragraph plus the new chunk; without caching it is the whole text so far (~550,000 here).
    const longestChunk = Math.max(...pieces.map((p) => p.length));
    const bound = pieces.length * (Math.max(...paragraphs.map((p) => p.length)) + longestChunk);
    assert.ok(work.lexedChars <= bound, `lexed ${work.lexedChars} characters for ${text.length}; bound ${bound}`);
    // Each update renders the open block (rarely two), and each paragraph is rendered once more when it completes.
    assert.ok(
      work.renderedBlocks <= 2 * pieces.length + paragraphs.length,
      `rendered ${work.renderedBlocks} blocks in ${pieces.length} updates`,
    );
    const [html] = await markdownHtmls(chat.page);
    assert.equal(html.match(/<p>/g).length, 150);
  });

  it('re-lexes earlier blocks for late link definitions within a budget: a definition per block stays linear', async () => {
    // Each definition can turn `[x]` in an earlier block into a link: re-lexing them all for each one is quadratic.
    const blocks = Array.from({ length: 400 }, (_, i) => `See [r${i}] and [r${i + 1}].\n\n[r${i}]: /p${i}\n\n`);
    const late = `[late]: /${'x'.repeat(200)}`;
    const pieces = [...blocks, ...chunks(late, 100)];
    await chat.setEntries([{ kind: 'assistant', id: 'definitions', text: '' }]);
    await chat.streamText(0, pieces);
    const work = await withMarkdowns(chat.page, (els) => els[0].work);
    const text = pieces.join('');
    // The open part once per update, and earlier blocks again for at most twice the text plus 64 KiB (4 MB before).
    const bound = pieces.length * 256 + 2 * text.length + 64 * 1024;
    assert.ok(work.lexedChars <= bound, `lexed ${work.lexedChars} characters for ${text.length}; bound ${bound}`);
    const [html] = await markdownHtmls(chat.page);
    assert.ok(html.includes('data-href="/p0"') && html.includes('data-href="/p1"'), 'the first references resolved');
  });

  for (const [shape, line] of [
    ['list', (i) => `- item **${i}** with some words\n`],
    ['table', (i) => (i === 0 ? '| a | b |\n|---|---|\n' : `| row ${i} | \`${i}\` |\n`)],
    ['quote', (i) => `> quoted line ${i} goes on\n`],
    ['paragraph', (i) => `line ${i} of one paragraph that never ends\n`],
  ]) {
    it(`bounds the work per update while one ${shape} grows past 64 KiB, and then shows the rest as its source`, async () => {
      const lines = [];
      for (let i = 0, size = 0; size < 160 * 1024; i++) size += (lines[i] = line(i)).length;
      const text = lines.join('');
      const pieces = Array.from({ length: 400 }, (_, i) =>
        text.slice(Math.floor((i * text.length) / 400), Math.floor(((i + 1) * text.length) / 400)),
      );
      await chat.setEntries([{ kind: 'assistant', id: `grows-${shape}`, text: '' }]);
      await chat.streamText(0, pieces);
      const work = await withMarkdowns(chat.page, (els) => els[0].work);
      // Lexing the whole block on every update would be ~400 * 80 KiB = 32 MB; the open block is lexed only until 64 KiB.
      const bound = (pieces.length * (64 * 1024 + 1024)) / 2 + 64 * 1024;
      assert.ok(
        work.lexedChars <= bound,
        `lexed ${work.lexedChars} characters of a ${text.length}-character ${shape}; bound ${bound}`,
      );
      // All of it is shown, as its source once the block outgrew the bound.
      const shown = await withMarkdowns(chat.page, (els) => els[0].shadowRoot.textContent);
      assert.ok(shown.includes(lines.at(-1).trim().slice(0, 20)), 'the last line is shown');
      const source = await withMarkdowns(
        chat.page,
        (els) => els[0].shadowRoot.querySelector('.raw-html.long-line')?.textContent.length ?? 0,
      );
      assert.ok(source > 64 * 1024, `${source} characters shown as source`);
    });
  }

  it('shows a table of more than 16 KiB as its source: laid out whole, it would cost a frame per row added', async () => {
    const rows = Array.from({ length: 1_200 }, (_, i) => `| row ${i} | ${i * 2} |`).join('\n');
    const small = '| a | b |\n|---|---|\n| 1 | 2 |';
    await chat.setEntries([
      { kind: 'assistant', id: 'big-table', text: `| a | b |\n|---|---|\n${rows}\n\nAfter.` },
      { kind: 'assistant', id: 'small-table', text: `${small}\n\nAfter.` },
    ]);
    const [big, little] = await markdownHtmls(chat.page);
    assert.ok(
      !big.includes('<table') && big.includes('table-source'),
      'the big table is its source, in the editor font',
    );
    assert.ok(big.includes('| row 1199 | 2398 |'));
    assert.ok(little.includes('<table'), 'a small table is a table');
  });

  it('does not touch the DOM of completed blocks', async () => {
    await chat.setEntries([{ kind: 'assistant', id: 'stable', text: 'First paragraph.\n\nSecond, still open' }]);
    await withMarkdowns(chat.page, ([md]) => {
      const [first] = md.shadowRoot.querySelectorAll('p');
      first.dataset.mark = 'first';
      window.__mutations = [];
      new MutationObserver((records) => window.__mutations.push(...records.map((r) => r.type))).observe(first, {
        subtree: true,
        childList: true,
        characterData: true,
        attributeFilter: ['class', 'title'],
      });
    });
    const more = Array.from({ length: 270 }, (_, i) => `\n\nMore paragraph ${i} with \`code\` and **bold**`);
    await chat.streamText(0, [' and now closed.', ...more.flatMap((p) => [p.slice(0, 9), p.slice(9)])]);
    const state = await withMarkdowns(chat.page, ([md]) => {
      const ps = [...md.shadowRoot.querySelectorAll('p')];
      // Completed blocks are grouped by 128; every group is skipped by rendering while off screen.
      const groups = [...md.shadowRoot.querySelectorAll('.markdown > .blocks')].map(
        (g) => `${g.className} ${g.children.length} ${getComputedStyle(g).contentVisibility}`,
      );
      return {
        count: ps.length,
        first: ps[0].dataset.mark,
        secondText: ps[1].textContent,
        mutations: window.__mutations.length,
        groups,
      };
    });
    assert.deepEqual(state, {
      count: 272,
      first: 'first',
      secondText: 'Second, still open and now closed.',
      mutations: 0,
      groups: ['blocks closed 128 auto', 'blocks closed 128 auto', 'blocks 16 auto'],
    });
  });

  it('gives each long paragraph of right-to-left or Thai text a group of its own: a group on screen is laid out whole', async () => {
    // 2,400 characters of alternating Latin and Hebrew took 15-25 ms each to lay out; five in one group, 75-120 ms.
    const costly = ['aא'.repeat(1200), 'ภาษาไทย'.repeat(340), 'שלום '.repeat(480), 'مرحبا '.repeat(400)];
    const latin = Array.from({ length: 4 }, (_, i) => `Paragraph ${i} ${'of plain words '.repeat(80)}`);
    await chat.setEntries([{ kind: 'assistant', id: 'scripts', text: [...costly, ...latin].join('\n\n') }]);
    const groups = await withMarkdowns(chat.page, ([md]) =>
      [...md.shadowRoot.querySelectorAll('.markdown > .blocks')].map((g) => `${g.className} ${g.children.length}`),
    );
    assert.deepEqual(groups, [
      'blocks closed 1',
      'blocks closed 1',
      'blocks closed 1',
      'blocks closed 1',
      // As long, in Latin letters: four in one group.
      'blocks 4',
    ]);
  });

  it("keeps a streamed code block's highlighted nodes when it completes, not highlighting it again", async () => {
    await chat.setEntries([{ kind: 'assistant', id: 'code', text: 'Code:\n\n```ts\nconst a = 1;\nlet b = "two";' }]);
    await withMarkdowns(chat.page, ([md]) => {
      md.shadowRoot.querySelector('code .token.keyword').dataset.mark = 'kept';
    });
    await chat.streamText(0, ['\n```\n\nAfter the code.']);
    const state = await withMarkdowns(chat.page, ([md]) => ({
      kept: md.shadowRoot.querySelector('code .token.keyword')?.dataset.mark,
      code: md.shadowRoot.querySelector('code').textContent,
      after: md.shadowRoot.querySelector('.code-block ~ p')?.textContent,
    }));
    assert.deepEqual(state, { kept: 'kept', code: 'const a = 1;\nlet b = "two";', after: 'After the code.' });
  });

  it('leaves the other entries alone while one streams', async () => {
    await chat.setEntries([
      { kind: 'assistant', id: 'done', text: '# Earlier answer\n\nWith `code`.\n\n```js\nx()\n```' },
      { kind: 'user', id: 'q', text: 'and now?' },
      { kind: 'assistant', id: 'live', text: 'Start' },
    ]);
    await chat.page.evaluate(() => {
      window.__mutations = 0;
      const list = document.querySelector('acp-chat-app').shadowRoot.querySelector('acp-message-list').shadowRoot;
      const [first, second] = list.querySelectorAll('acp-chat-entry');
      const observe = (root) =>
        new MutationObserver((r) => {
          window.__mutations += r.length;
        }).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
      observe(first.shadowRoot);
      observe(first.shadowRoot.querySelector('acp-markdown').shadowRoot);
      observe(second.shadowRoot);
    });
    await chat.streamText(
      2,
      Array.from({ length: 50 }, (_, i) => ` word${i}`),
    );
    assert.equal(await chat.page.evaluate(() => window.__mutations), 0);
    assert.match(await chat.deepText(), /Start word0 word1 .* word49/);
  });

  it('starts over when the text is replaced rather than extended', async () => {
    await chat.setEntries([{ kind: 'assistant', id: 'r', text: 'Old first.\n\nOld second.\n\n- old list' }]);
    await chat.setEntries([
      { kind: 'assistant', id: 'r', text: 'New *text* only.' },
      { kind: 'assistant', id: 'fresh', text: 'New *text* only.' },
    ]);
    const [replaced, fresh] = await markdownHtmls(chat.page);
    assert.equal(replaced, '<div class="blocks"><p>New <em>text</em> only.</p></div>');
    assert.equal(replaced, fresh);
  });
});
