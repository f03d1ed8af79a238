/**
 * <acp-markdown>: every Markdown construct, rendered from an assistant entry
 * in the real bundle. Assertions are on the composed DOM (shadow roots
 * inlined), so a construct rendered as the wrong element fails.
 */
import * as assert from 'node:assert/strict';
import { composedHtml, squash, withMarkdowns } from './dom.mjs';
import { openChatPage } from './harness.mjs';

describe('<acp-markdown> rendering', function () {
  let chat;
  let n = 0;
  before(async () => {
    chat = await openChatPage({ theme: 'dark' });
  });
  after(() => chat?.close());
  afterEach(async () => {
    assert.deepEqual(chat.errors(), [], 'no page errors');
  });

  /** Renders `text` as a new assistant entry; returns the composed HTML of its <acp-markdown>. */
  async function render(text) {
    await chat.setEntries([{ kind: 'assistant', id: `a${++n}`, text }]);
    const html = await composedHtml(chat.page, 'acp-markdown');
    // A short text is one group of blocks (`.blocks`, see MarkdownStream).
    return html.replace(
      /^<acp-markdown><#shadow><div class="markdown"><div class="blocks">|<\/div><\/div><\/#shadow><\/acp-markdown>$/g,
      '',
    );
  }

  it('shows a line over 20,000 characters, and what follows it, as plain text (like the editor, which stops highlighting there)', async () => {
    const long = 'a_b*c`d[e]f(g)h<i>&j~'.repeat(1_000); // 21,000 characters of Markdown punctuation
    const html = await render(`# Title\n\n**bold** before\n\n${long}\n\nafter **not bold**`);
    const escaped = (t) => t.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    // In pieces of at most 2,048 characters, each a block laid out on its own (see text-pieces.ts); together the whole text.
    const match =
      /^<h1>Title<\/h1><p><strong>bold<\/strong> before<\/p><p class="raw-html long-line">((?:<span class="piece">[^<]*<\/span>)+)<\/p>$/.exec(
        html.replace(/&lt;/g, '\u0001'),
      );
    assert.ok(match, html.slice(0, 300));
    const pieces = [...match[1].matchAll(/<span class="piece">([^<]*)<\/span>/g)].map((m) =>
      m[1].replace(/\u0001/g, '&lt;'),
    );
    assert.equal(pieces.join(''), escaped(`${long}\n\nafter **not bold**`));
    assert.equal(pieces.length, 11);
    // A line under the limit is still Markdown (a paragraph of it is shown in pieces past 2,048 characters: see below).
    const html2 = await render(`${'x'.repeat(2_030)} **bold**`);
    assert.match(html2, /^<p>x+ <strong>bold<\/strong><\/p>$/);
  });

  it('shows a block whose text is laid out as one (a paragraph, a heading, a table cell) as its source in pieces past 2,048 characters', async () => {
    const words = 'word **bold** '.repeat(160); // 2,240 characters
    const html = await render(`${words}\n\n# ${words}\n\n| a |\n| - |\n| ${words} |\n\nshort **bold**`);
    assert.equal(
      (html.match(/<p class="raw-html"><span class="piece">/g) ?? []).length,
      2,
      'the paragraph and the heading',
    );
    assert.match(html, /<td><span class="piece">word \*\*bold\*\* /, 'the cell');
    assert.match(html, /<p>short <strong>bold<\/strong><\/p>$/, 'a short paragraph after them is Markdown');
    const under = await render('word **bold** '.repeat(140));
    assert.ok(
      under.startsWith('<p>word <strong>bold</strong> word') && !under.includes('piece'),
      `one under the bound is Markdown: ${under.slice(0, 100)}`,
    );
  });

  it('highlights a long code block piece by piece, each a block of its own', async () => {
    const code = Array.from({ length: 400 }, (_, i) => `const value${i} = "text";`).join('\n');
    const html = await render(`\`\`\`ts\n${code}\n\`\`\``);
    const pieces = html.match(/<span class="piece">/g) ?? [];
    assert.ok(pieces.length >= 5, `${pieces.length} pieces`);
    assert.equal(
      (html.match(/<span class="token keyword">const<\/span>/g) ?? []).length,
      400,
      'every line highlighted',
    );
    assert.equal(
      await withMarkdowns(chat.page, (elements) => elements[0].shadowRoot.querySelector('pre code').textContent),
      code,
      'the code is whole',
    );
  });

  it('renders paragraphs, soft and hard line breaks', async () => {
    const html = await render('First line\nsame paragraph  \nafter a hard break\\\nand another\n\nSecond paragraph');
    assert.equal(html, '<p>First line\nsame paragraph<br>after a hard break<br>and another</p><p>Second paragraph</p>');
  });

  it('renders ATX and setext headings h1-h6', async () => {
    const html = await render('# One\n## Two\n### Three\n#### Four\n##### Five\n###### Six\n\nSet\n===\n\next\n---');
    assert.equal(
      html,
      '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6><h1>Set</h1><h2>ext</h2>',
    );
  });

  it('renders emphasis, strong, strikethrough and inline code', async () => {
    const html = await render('*em* _em_ **strong** __strong__ ***both*** ~~gone~~ `a <b> & c`');
    assert.equal(
      html,
      '<p><em>em</em> <em>em</em> <strong>strong</strong> <strong>strong</strong> <em><strong>both</strong></em> <del>gone</del> <code>a &lt;b&gt; &amp; c</code></p>',
    );
  });

  it('decodes character references in text but not in code', async () => {
    const html = await render('&amp; &copy; &#60;&#x3E; &bogus; `&amp;`');
    assert.equal(html, '<p>&amp; © &lt;&gt; &amp;bogus; <code>&amp;amp;</code></p>');
  });

  it('renders fenced code with a language, highlighted by Prism tokens', async () => {
    const html = await render('```ts\nconst x: number = 1; // note\n```');
    assert.match(html, /<div class="code-block" role="group" aria-label="TypeScript code">/);
    assert.match(html, /<span class="code-lang">TypeScript<\/span>/);
    // Operators and punctuation are not coloured: their text has no element.
    assert.match(
      html,
      /<span class="token keyword">const<\/span> x: <span class="token builtin">number<\/span> = <span class="token number">1<\/span>;/,
    );
    assert.match(html, /<span class="token comment">\/\/ note<\/span>/);
    assert.match(html, /<acp-copy-button label="Copy code">/);
  });

  it('renders indented code and unknown languages as plain code', async () => {
    const indented = await render('Text\n\n    let y = 2;\n    y++;');
    assert.match(indented, /<pre class="side-scroll" tabindex="0"><code>let y = 2;\ny\+\+;<\/code><\/pre>/);
    assert.match(indented, /aria-label="Code"/);
    const unknown = await render('```brainfuck\n++[>+<-]\n```');
    assert.match(unknown, /<span class="code-lang">brainfuck<\/span>/);
    assert.match(unknown, /<code>\+\+\[&gt;\+&lt;-\]<\/code>/);
  });

  it('highlights the bundled languages', async () => {
    const samples = {
      js: 'let a = "s";',
      json: '{"k": true}',
      bash: 'echo "hi" | grep h',
      python: 'def f(x): return None',
      diff: '+added\n-removed',
      yaml: 'key: value',
      rust: 'fn main() { let x = 5; }',
      go: 'func main() {}',
      java: 'public class A {}',
      c: 'int main(void) { return 0; }',
      cpp: 'class A { public: int x; };',
      sql: 'SELECT * FROM t WHERE a = 1',
      css: 'a { color: red; }',
      html: '<div class="x"></div>',
    };
    for (const [lang, code] of Object.entries(samples)) {
      const html = await render('```' + lang + '\n' + code + '\n```');
      assert.match(html, /<span class="token /, `${lang} is highlighted`);
    }
  });

  it('renders tables with alignment as classes (the CSP forbids style attributes)', async () => {
    const html = await render('| L | C | R | N |\n|:--|:-:|--:|---|\n| a | *b* | c | d |');
    assert.match(
      html,
      /<div class="table-wrap side-scroll" tabindex="0" role="region" aria-label="Table"><table><thead><tr><th class="align-left">L<\/th><th class="align-center">C<\/th><th class="align-right">R<\/th><th>N<\/th><\/tr><\/thead><tbody><tr><td class="align-left">a<\/td><td class="align-center"><em>b<\/em><\/td><td class="align-right">c<\/td><td>d<\/td><\/tr><\/tbody><\/table><\/div>/,
    );
    assert.doesNotMatch(html, /style=/);
  });

  it('renders bullet, ordered (with start), nested and loose lists', async () => {
    const html = await render('- a\n- b\n  - nested\n\n3. three\n4. four\n\n* loose one\n\n* loose two');
    assert.equal(
      html,
      '<ul><li>a</li><li>b<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li><li>four</li></ol><ul><li><p>loose one</p></li><li><p>loose two</p></li></ul>',
    );
  });

  it('renders task lists with a labelled mark', async () => {
    const html = await render('- [x] done\n- [ ] to do');
    assert.match(
      html,
      /^<ul class="tasks"><li class="task"><span class="task-mark done" role="img" aria-label="Done"><span class="codicon codicon-pass" aria-hidden="true"><\/span><\/span>done<\/li><li class="task"><span class="task-mark" role="img" aria-label="Not done"><span class="codicon codicon-circle-large" aria-hidden="true"><\/span><\/span>to do<\/li><\/ul>$/,
    );
    assert.doesNotMatch(html, /<input/);
  });

  it('renders blockquotes and rules', async () => {
    const html = await render('> quoted\n> > nested\n\n---\n\nafter');
    assert.equal(html, '<blockquote><p>quoted</p><blockquote><p>nested</p></blockquote></blockquote><hr><p>after</p>');
  });

  it('shows raw HTML, block and inline, as text', async () => {
    const html = await render(
      '<div onclick="x()">block <b>html</b></div>\n\nInline <span style="color:red">red</span> text',
    );
    assert.equal(
      html,
      '<p class="raw-html">&lt;div onclick="x()"&gt;block &lt;b&gt;html&lt;/b&gt;&lt;/div&gt;</p><p>Inline <span class="raw-html">&lt;span style="color:red"&gt;</span>red<span class="raw-html">&lt;/span&gt;</span> text</p>',
    );
  });

  it('renders safe links without an href, and refuses the rest', async () => {
    const html = await render(
      [
        '[web](https://example.com/a?b=1 "Title") <http://auto.example> www.example.org',
        '[rel](src/app.ts#L3) [abs](/etc/hosts) [file](file:///tmp/x.txt) [win](C:\\x\\y.txt)',
        '[js](javascript:alert(1)) [data](data:text/html,x) [remote file](file://evil.example/share) [mail](mailto:a@b.c) [net](//evil.example/x)',
      ].join('\n'),
    );
    const links = [
      ...html.matchAll(/<a class="link" role="link" tabindex="0" data-href="([^"]*)" title="([^"]*)">([^<]*)<\/a>/g),
    ].map((m) => [m[3], m[1], m[2]]);
    assert.deepEqual(links, [
      ['web', 'https://example.com/a?b=1', 'Title'],
      ['http://auto.example', 'http://auto.example/', 'http://auto.example/'],
      ['www.example.org', 'http://www.example.org/', 'http://www.example.org/'],
      ['rel', 'src/app.ts#L3', 'src/app.ts#L3'],
      ['abs', '/etc/hosts', '/etc/hosts'],
      ['file', 'file:///tmp/x.txt', 'file:///tmp/x.txt'],
      ['win', 'C:\\x\\y.txt', 'C:\\x\\y.txt'],
    ]);
    for (const text of ['js', 'data', 'remote file', 'mail', 'net']) {
      assert.match(
        html,
        new RegExp(`<span class="not-a-link" title="Not opened: [^"]+">${text}</span>`),
        `${text} is plain text`,
      );
    }
    assert.doesNotMatch(html, /\shref=/);
  });

  it('resolves reference links, including definitions that arrive later', async () => {
    const html = await render(
      'See [the docs][d] and [Other].\n\nMore text.\n\n[d]: https://docs.example "Docs"\n[other]: ./other.md',
    );
    assert.match(
      html,
      /<a class="link" role="link" tabindex="0" data-href="https:\/\/docs.example\/" title="Docs">the docs<\/a>/,
    );
    assert.match(html, /data-href=".\/other.md" title=".\/other.md">Other<\/a>/);
  });

  it('never loads images: shows the description, and a link when the source is safe', async () => {
    const html = await render(
      '![a *cat*](https://example.com/cat.png) ![beacon](javascript:x) ![](data:image/png;base64,AAAA)',
    );
    assert.doesNotMatch(html, /<img|src=/);
    assert.match(
      html,
      /<span class="image"><a class="link" role="link" tabindex="0" data-href="https:\/\/example.com\/cat.png" title="Open image https:\/\/example.com\/cat.png">.*<span class="sr-only">Image: <\/span>a cat<\/a><\/span>/,
    );
    assert.match(html, /<span class="image" title="Image not shown: javascript:x">.*beacon<\/span>/);
    assert.match(html, /<span class="image" title="Image not shown: data:image\/png;base64,AAAA">.*image<\/span>/);
  });

  it('does not nest links (an image inside a link is only its description)', async () => {
    const html = await render('[![logo](https://e.example/l.png)](https://e.example)');
    assert.equal((html.match(/<a /g) ?? []).length, 1);
  });

  it('shows very deep nesting as text instead of overflowing the stack', async () => {
    const quotes = `${'> '.repeat(300)}deep quote`;
    const list = Array.from({ length: 120 }, (_, i) => `${' '.repeat(i * 2)}- level ${i}`).join('\n');
    const emphasis = `${'*a '.repeat(60)}core${' a*'.repeat(60)}`;
    const html = await render(`${quotes}\n\n${list}\n\n${emphasis}`);
    assert.ok((html.match(/<blockquote>/g) ?? []).length <= 16, 'quotes nest at most 16 deep');
    assert.ok((html.match(/<ul>/g) ?? []).length <= 16, 'lists nest at most 16 deep');
    assert.ok((html.match(/<em>/g) ?? []).length <= 40, 'emphasis nests at most ~32 deep');
    const text = squash(await chat.deepText());
    for (const expected of ['deep quote', 'level 0', 'level 119', 'core']) assert.ok(text.includes(expected), expected);
  });

  it('groups the blocks of a long text without changing how it looks', async () => {
    // 128 completed blocks make a closed group; every group has content-visibility: auto, so margins
    // do not collapse through it and the styles make up for that. The same blocks in a short text are the reference.
    const long = [
      ...Array.from({ length: 127 }, (_, i) => `Paragraph ${i}.`),
      'Last of the group, with a [link](src/a.ts).',
      '## Heading',
      'After.',
      '- item',
      'Tail.',
    ].join('\n\n');
    const short = ['Last of the group, with a [link](src/a.ts).', '## Heading', 'After.', '- item', 'Tail.'].join(
      '\n\n',
    );
    await chat.setEntries([
      { kind: 'assistant', id: `a${++n}`, text: long },
      { kind: 'assistant', id: `a${++n}`, text: short },
    ]);
    const [grouped, plain] = await chat.page.locator('acp-markdown').evaluateAll((els) =>
      els.map((md) => {
        const groups = [...md.shadowRoot.querySelectorAll('.markdown > .blocks')].map(
          (g) => `${g.className} ${getComputedStyle(g).contentVisibility}`,
        );
        const blocks = [...md.shadowRoot.querySelectorAll('.blocks > *')].slice(-5);
        const boxes = blocks.map((b) => b.getBoundingClientRect());
        // Gaps between consecutive blocks, and each block's left edge and width relative to the element.
        const host = md.getBoundingClientRect();
        return {
          groups,
          gaps: boxes.slice(1).map((b, i) => Math.round(b.top - boxes[i].bottom)),
          x: boxes.map((b) => [Math.round(b.left - host.left), Math.round(b.width)]),
        };
      }),
    );
    assert.deepEqual(grouped.groups, ['blocks closed auto', 'blocks auto']);
    assert.deepEqual(plain.groups, ['blocks auto']);
    assert.deepEqual(grouped.gaps, plain.gaps);
    assert.deepEqual(grouped.x, plain.x);
  });

  it('keeps agent text that looks like template syntax as text', async () => {
    const text = '${alert(1)} {{constructor.constructor("x")()}} <!-- comment --> <?php ?> <![CDATA[x]]>';
    await render(text);
    assert.match(
      squash(await chat.deepText('acp-chat-app')),
      /\$\{alert\(1\)\} \{\{constructor\.constructor\("x"\)\(\)\}\} <!-- comment --> <\?php \?> <!\[CDATA\[x\]\]>/,
    );
  });
});

describe('<acp-markdown> layout in a narrow view', function () {
  let chat;
  before(async () => {
    chat = await openChatPage({ theme: 'dark', width: 300 });
  });
  after(() => chat?.close());

  /**
   * Words of the text nodes under `selector` (in every <acp-markdown>) that
   * the layout broke across lines: a word drawn as more than one box.
   */
  const brokenWords = (selector) =>
    chat.page.locator('acp-markdown').evaluateAll((els, sel) => {
      const broken = [];
      for (const md of els) {
        for (const el of md.shadowRoot.querySelectorAll(sel)) {
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              if (range.getClientRects().length > 1) broken.push(m[0]);
            }
          }
        }
      }
      return broken;
    }, selector);

  it('keeps the words of a wide table whole and scrolls the table, not the page', async () => {
    const table = [
      '| Component | Responsibility | Configuration | Status |',
      '|---|---|---|---|',
      '| MarkdownStream | incremental tokenisation of streamed replies | groupSize=128 | implemented |',
      '| ToolCard | collapsible presentation of tool invocations | expandedCards | implemented |',
    ].join('\n');
    const long = 'averyveryverylongwordwithoutanyspacesthatcannotfitinanarrowsidebarcolumn';
    await chat.setEntries([{ kind: 'assistant', id: 'wide', text: `${table}\n\nA paragraph with ${long} in it.` }]);
    assert.deepEqual(await brokenWords('th, td'), [], 'no word of a cell is broken across lines');
    const sizes = await chat.page.locator('acp-markdown .table-wrap').evaluate((wrap) => ({
      wrap: [wrap.scrollWidth, wrap.clientWidth],
      tabindex: wrap.getAttribute('tabindex'),
      label: wrap.getAttribute('aria-label'),
      page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    }));
    assert.ok(sizes.wrap[0] > sizes.wrap[1], `the table scrolls inside its wrapper (${sizes.wrap})`);
    assert.deepEqual([sizes.tabindex, sizes.label], ['0', 'Table'], 'keyboard users can scroll it');
    assert.ok(sizes.page[0] <= sizes.page[1], `the page does not scroll sideways (${sizes.page})`);
    // A long word in a paragraph still wraps rather than widening the page.
    assert.deepEqual(await brokenWords('p'), [long]);
  });

  it('scrolls a wide code block or table sideways while it is pointed at or focused, and nothing moves when it starts', async () => {
    const wide = `const ${'veryLongIdentifier'.repeat(8)} = 1;`;
    const table = `| ${Array.from({ length: 8 }, (_, i) => `column${i}`).join(' | ')} |\n|${' --- |'.repeat(8)}\n| ${'value | '.repeat(8)}`;
    await chat.setEntries([
      {
        kind: 'assistant',
        id: 'side',
        text: `\`\`\`ts\n${wide}\n\`\`\`\n\n\`\`\`ts\nshort();\n\`\`\`\n\n${table}\n\nAfter.`,
      },
    ]);
    const state = () =>
      chat.page.locator('acp-markdown').evaluate((md) =>
        [...md.shadowRoot.querySelectorAll('pre, .table-wrap')].map((el) => ({
          overflow: getComputedStyle(el).overflowX,
          scrollLeft: el.scrollLeft,
          height: el.getBoundingClientRect().height,
          wider: el.scrollWidth > el.clientWidth,
        })),
      );
    const atRest = await state();
    assert.deepEqual(
      atRest.map((s) => [s.overflow, s.wider]),
      [
        ['clip', true],
        ['clip', false],
        ['clip', true],
      ],
      'at rest nothing is a scroll container (each one costs every frame), though two are wider than the view',
    );

    // The keyboard: focus the wide block, scroll it with the arrow keys, move on.
    await chat.page.locator('acp-markdown pre').first().focus();
    await chat.page.keyboard.press('ArrowRight');
    await chat.page.keyboard.press('ArrowRight');
    // Keyboard scrolling may be animated: wait (up to 2 s) for it to start.
    await chat.page
      .locator('acp-markdown pre')
      .first()
      .evaluate((pre) => {
        const until = performance.now() + 2000;
        return new Promise((done) => {
          const tick = () => (pre.scrollLeft > 0 || performance.now() > until ? done() : requestAnimationFrame(tick));
          tick();
        });
      });
    let now = await state();
    assert.equal(now[0].overflow, 'auto', 'the focused wide block scrolls');
    assert.ok(now[0].scrollLeft > 0, `the arrow keys scrolled it (${now[0].scrollLeft})`);
    assert.equal(now[0].height, atRest[0].height, 'its scrollbar took the room kept for it: nothing below moved');
    await chat.page.locator('acp-markdown pre').nth(1).focus();
    now = await state();
    assert.deepEqual(
      now.map((s) => s.overflow),
      ['auto', 'clip', 'clip'],
      'a scrolled block keeps scrolling (and its place); a block that fits never becomes a scroll container',
    );

    // The pointer: the table scrolls while pointed at, and goes back to rest when left unscrolled.
    await chat.page.locator('acp-markdown .table-wrap').hover();
    now = await state();
    assert.equal(now[2].overflow, 'auto', 'the pointed-at wide table scrolls');
    assert.equal(now[2].height, atRest[2].height, 'nothing moved when its scrollbar appeared');
    // To another block of the same reply (the same shadow tree), then out of the chat.
    await chat.page.locator('acp-markdown pre').nth(1).hover();
    assert.equal((await state())[2].overflow, 'clip', 'left unscrolled, it is no scroll container again');
    await chat.page.locator('acp-markdown .table-wrap').hover();
    assert.equal((await state())[2].overflow, 'auto');
    await chat.page.mouse.move(1, 1);
    assert.equal((await state())[2].overflow, 'clip', 'left for outside the reply, too');
  });

  it('keeps an image placeholder apart from the link after it', async () => {
    // Short paragraphs: each placeholder and what follows it are on one line.
    await chat.setEntries([
      {
        kind: 'assistant',
        id: 'img',
        text: '![diagram](https://e.example/a.png)[docs](https://e.example/docs)\n\n![chart](javascript:x)next.',
      },
    ]);
    const gaps = await chat.page.locator('acp-markdown p .image').evaluateAll((images) =>
      images.map((image) => {
        // The box of the first thing drawn after the placeholder: a link, or the first letter of a text.
        let next = image.nextSibling;
        while (next.nodeType === Node.COMMENT_NODE || (next.nodeType === Node.TEXT_NODE && next.data === '')) {
          next = next.nextSibling;
        }
        const range = document.createRange();
        if (next.nodeType === Node.TEXT_NODE) {
          range.setStart(next, 0);
          range.setEnd(next, 1);
        } else range.selectNode(next);
        return {
          gap: Math.round(range.getBoundingClientRect().left - image.getBoundingClientRect().right),
          border: getComputedStyle(image).borderTopStyle,
        };
      }),
    );
    assert.equal(gaps.length, 2);
    for (const g of gaps) {
      assert.ok(g.gap >= 3, `at least 3px between the placeholder and what follows (${g.gap})`);
      assert.equal(g.border, 'solid', 'the placeholder is a chip');
    }
    assert.equal(await chat.page.locator('acp-markdown img').count(), 0);
    assert.deepEqual(chat.foreignRequests(), [], 'nothing is loaded');
  });
});
