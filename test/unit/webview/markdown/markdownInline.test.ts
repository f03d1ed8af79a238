/**
 * Agent Markdown, inline: what reaches the page, checked in Node on the DOM
 * nodes render-inline.ts builds (made by miniDom.ts and serialised as a
 * browser would): agent text only as text nodes or attribute values, never
 * as markup. The browser suites
 * (test/webview: xss, no-html-sinks) check the rendered DOM; this one runs
 * under mutation testing (npm run mutate).
 */
import * as assert from 'node:assert/strict';
import { Lexer, type Token, type Tokens } from 'marked';
import { decodeEntities } from '../../../../webview/markdown/entities';
import { plainText, renderInline } from '../../../../webview/markdown/render-inline';
import { toHtml } from '../litHtml';
import { withMiniDom } from '../miniDom';

/** The inline tokens of the first block of `markdown`. */
function inline(markdown: string): Token[] {
  const block = Lexer.lex(markdown)[0] as Tokens.Paragraph | Tokens.List;
  // A list item's first line: its task box (a token of its own) and its text.
  return block.type === 'list'
    ? block.items[0].tokens.flatMap((t) => (t.type === 'text' ? ((t as Tokens.Text).tokens ?? []) : [t]))
    : block.tokens;
}
const render = (markdown: string) => withMiniDom(() => toHtml(renderInline(inline(markdown))));
const link = (target: string, content: string, title = target) =>
  `<a class="link" role="link" tabindex="0" data-href="${target}" title="${title}" @click="[handler]" @keydown="[handler]">${content}</a>`;

describe('markdown inline rendering (agent text only as text)', () => {
  it('shows raw HTML as the text it is, never as markup', () => {
    assert.equal(
      render('a <img src=x onerror=alert(1)> b'),
      'a <span class="raw-html">&lt;img src=x onerror=alert(1)&gt;</span> b',
    );
    assert.equal(
      render('x <script>alert(1)</script>'),
      'x <span class="raw-html">&lt;script&gt;</span>alert(1)<span class="raw-html">&lt;/script&gt;</span>',
    );
  });

  it('renders emphasis, code, strike-through, breaks and escapes', () => {
    assert.equal(
      render('**b** *i* ~~d~~ `<b>&amp;` \\* x  \ny'),
      '<strong>b</strong> <em>i</em> <del>d</del> <code>&lt;b&gt;&amp;amp;</code> * x<br>y',
    );
  });

  it('decodes character references in text, as a browser would show them', () => {
    assert.equal(render('&copy; &amp; &#60;b&#62; &unknown;'), '© &amp; &lt;b&gt; &amp;unknown;');
  });

  it('makes a link only of a safe target, and says what it did not open', () => {
    assert.equal(render('[site](https://example.com/a "The site")'), link('https://example.com/a', 'site', 'The site'));
    assert.equal(render('[site](https://example.com/a)'), link('https://example.com/a', 'site'));
    assert.equal(render('<https://example.com>'), link('https://example.com/', 'https://example.com'));
    assert.equal(
      render('[x](javascript:alert(1))'),
      '<span class="not-a-link" title="Not opened: javascript:alert(1)">x</span>',
    );
    assert.equal(
      render('[x](&#106;avascript&colon;alert(1))'),
      '<span class="not-a-link" title="Not opened: javascript:alert(1)">x</span>',
    );
    assert.equal(
      render('[t](https://e.com "&quot;quoted&quot; &amp; more")'),
      link('https://e.com/', 't', '&quot;quoted&quot; &amp; more'),
    );
  });

  it('never loads an image: its description, linked when its target is safe', () => {
    const icon = '<span class="codicon codicon-file-media" aria-hidden="true"></span>';
    const label = (alt: string) => `${icon}<span class="sr-only">Image: </span>${alt}`;
    const shown = render('![a *cat*](https://e.com/cat.png)');
    assert.ok(!/<img/i.test(shown), shown);
    assert.equal(
      shown.replace(/<span class="codicon[^>]*><\/span>/, icon),
      `<span class="image">${link('https://e.com/cat.png', label('a cat'), 'Open image https://e.com/cat.png')}</span>`,
    );
    assert.equal(
      render('![](javascript:alert(1))').replace(/<span class="codicon[^>]*><\/span>/, icon),
      `<span class="image" title="Image not shown: javascript:alert(1)">${label('image')}</span>`,
    );
  });

  it('makes no link inside a link', () => {
    const shown = render('[![pic](https://e.com/p.png) and more](https://e.com/page)');
    assert.equal((shown.match(/<a /g) ?? []).length, 1, shown);
    assert.match(shown, /title="Image not shown: https:\/\/e\.com\/p\.png"/);
    assert.match(shown, /data-href="https:\/\/e\.com\/page"/);
  });

  it('shows a task box as a mark that says whether it is done', () => {
    assert.match(render('- [x] shipped'), /<span class="task-mark done" role="img" aria-label="Done">/);
    assert.match(render('- [ ] not yet'), /<span class="task-mark" role="img" aria-label="Not done">/);
  });

  it('shows emphasis nested past 32 levels as its source, without recursing further', () => {
    const deep = `${'*a '.repeat(40)}x${' a*'.repeat(40)}`;
    const shown = render(deep);
    assert.equal((shown.match(/<em>/g) ?? []).length, 33, 'levels rendered: the top one and 32 inside it');
    assert.ok(shown.includes('*a'), 'the rest is shown as typed');
    const shallow = render(`${'*a '.repeat(5)}x${' a*'.repeat(5)}`);
    assert.equal((shallow.match(/<em>/g) ?? []).length, 5);
  });

  it("takes an image's description from its text alone, however it is marked up", () => {
    const image = inline('![**bold**, `code`, &amp; <b>tag</b> \\*](x.png)')[0] as Tokens.Image;
    assert.equal(plainText(image.tokens), 'bold, code, & <b>tag</b> *');
  });
});

describe('markdown character references', () => {
  it('decodes decimal, hex and the known names; leaves the rest as typed', () => {
    const cases: [string, string][] = [
      ['no references', 'no references'],
      ['&#65;&#x42;&#X43;', 'ABC'],
      ['&#128512;&#x1F600;', '\u{1f600}\u{1f600}'],
      ['&lt;&gt;&quot;&apos;&nbsp;', '<>"\'\u00a0'],
      ['&colon;&sol;&Tab;&NewLine;', ':/\t\n'],
      ['&AMP; &Copy; &constructor; &__proto__; &toString;', '&AMP; &Copy; &constructor; &__proto__; &toString;'],
      ['&#; &#x; &#12345678; &#x1234567; & amp;', '&#; &#x; &#12345678; &#x1234567; & amp;'],
      ['&#0; &#xD800; &#xDFFF; &#1114112; &#x110000;', '\ufffd \ufffd \ufffd \ufffd \ufffd'],
      ['&#xD7FF;&#xE000;&#1114111;', '\ud7ff\ue000\u{10ffff}'],
      ['&a; &amp', '&a; &amp'],
    ];
    for (const [text, expected] of cases) assert.equal(decodeEntities(text), expected, text);
  });
});
