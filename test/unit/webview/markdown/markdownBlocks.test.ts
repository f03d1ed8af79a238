/**
 * Agent Markdown, blocks: paragraphs, headings, lists, quotes, tables, rules
 * and raw HTML, checked in Node on the DOM nodes render-blocks.ts builds
 * (made by miniDom.ts). Code blocks build DOM nodes (highlight.ts) and are
 * checked in Chromium (test/webview) only.
 */
import * as assert from 'node:assert/strict';
import { Lexer, type Tokens } from 'marked';
import { renderBlocks } from '../../../../webview/markdown/render-blocks';
import { plainText, renderInline } from '../../../../webview/markdown/render-inline';
import { toHtml } from '../litHtml';
import { withMiniDom } from '../miniDom';

const render = (markdown: string) => withMiniDom(() => toHtml(renderBlocks(Lexer.lex(markdown))));

describe('markdown block rendering (agent text only as text)', () => {
  it('shows a raw HTML block as the text it is', () => {
    assert.equal(
      render('<div onclick="alert(1)">\n<script>x()</script>\n</div>'),
      '<p class="raw-html">&lt;div onclick=&quot;alert(1)&quot;&gt;\n&lt;script&gt;x()&lt;/script&gt;\n&lt;/div&gt;</p>',
    );
  });

  it('renders each heading level, paragraphs and rules', () => {
    assert.equal(
      render('# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6'),
      '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>',
    );
    assert.equal(render('one\n\n---\n\ntwo'), '<p>one</p><hr><p>two</p>');
  });

  it('renders lists: ordered from their start, task lists marked, tight items inline', () => {
    assert.equal(render('- a\n- b'), '<ul><li>a</li><li>b</li></ul>');
    assert.equal(render('3. c\n4. d'), '<ol start="3"><li>c</li><li>d</li></ol>');
    assert.equal(render('1. e'), '<ol><li>e</li></ol>');
    assert.match(
      render('- [x] done\n- [ ] open'),
      /^<ul class="tasks"><li class="task"><span class="task-mark done" [^>]*>.*<\/span>done<\/li><li class="task">/,
    );
  });

  it('shows lists and quotes nested past 16 levels as their source', () => {
    const quotes = (n: number) => render(`${'> '.repeat(n)}deep`);
    assert.equal((quotes(16).match(/<blockquote>/g) ?? []).length, 16);
    const deep = quotes(20);
    assert.equal((deep.match(/<blockquote>/g) ?? []).length, 16);
    assert.match(deep, /<p class="raw-html">&gt; &gt; &gt; &gt; deep<\/p>/);
    const list = (n: number) => render(Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- item ${i}`).join('\n'));
    assert.equal((list(16).match(/<ul/g) ?? []).length, 16);
    assert.equal((list(20).match(/<ul/g) ?? []).length, 16);
  });

  it('renders tables with alignment as classes (the CSP forbids style attributes), in a region a keyboard can scroll', () => {
    assert.equal(
      render('| a | b | c | d |\n| :- | :-: | -: | - |\n| 1 | 2 | 3 | 4 |'),
      '<div class="table-wrap side-scroll" tabindex="0" role="region" aria-label="Table"><table><thead><tr><th class="align-left">a</th><th class="align-center">b</th><th class="align-right">c</th><th>d</th></tr></thead>' +
        '<tbody><tr><td class="align-left">1</td><td class="align-center">2</td><td class="align-right">3</td><td>4</td></tr></tbody></table></div>',
    );
  });

  it('renders nothing for blank space and link definitions', () => {
    assert.equal(render('[ref]: https://example.com\n\n\n'), '');
  });
});

describe('markdown rendering of tokens out of their place', () => {
  const tok = (type: string, more: object = {}) =>
    ({ type, raw: `raw ${type}`, text: `text ${type}`, ...more }) as never;

  it('shows block tokens met inline as their source, and renders inline tokens met at block level inline', () =>
    withMiniDom(() => {
      for (const type of [
        'blockquote',
        'code',
        'def',
        'heading',
        'hr',
        'list',
        'list_item',
        'paragraph',
        'space',
        'table',
      ]) {
        assert.equal(toHtml(renderInline([tok(type)])), `raw ${type}`, type);
      }
      const inlineAtBlock: [string, object, string][] = [
        ['br', {}, '<br>'],
        ['codespan', {}, '<code>text codespan</code>'],
        ['escape', {}, 'text escape'],
        ['em', { tokens: [tok('text', { tokens: undefined })] }, '<em>raw text</em>'],
        ['strong', { tokens: [] }, '<strong></strong>'],
        ['del', { tokens: [] }, '<del></del>'],
        ['list_item', {}, 'raw list_item'],
        [
          'link',
          { href: 'javascript:x', tokens: [] },
          '<span class="not-a-link" title="Not opened: javascript:x"></span>',
        ],
        ['image', { href: 'javascript:x', tokens: [] }, 'Image not shown: javascript:x'],
        ['text', { tokens: undefined }, 'raw text'],
      ];
      for (const [type, more, expected] of inlineAtBlock) {
        assert.ok(toHtml(renderBlocks([tok(type, more)])).includes(expected), type);
      }
      assert.throws(() => renderBlocks([tok('hologram')]), /Unexpected value/);
      assert.throws(() => renderInline([tok('hologram')]), /Unexpected value/);
      assert.equal(toHtml(renderInline(undefined)), '');
      assert.equal(toHtml(renderInline(undefined, { inLink: false, depth: 99 })), '');
    }));

  it('marks a list as a task list when any item is a task, and gives a start only as a number', () => {
    assert.match(render('- [x] a\n- b'), /^<ul class="tasks"><li class="task">.*<\/li><li>b<\/li><\/ul>$/);
    const list = {
      type: 'list',
      raw: '',
      ordered: true,
      start: '',
      loose: false,
      items: [{ type: 'list_item', raw: '', task: false, loose: false, text: 'a', tokens: [] }],
    };
    assert.equal(
      withMiniDom(() => toHtml(renderBlocks([list as never]))),
      '<ol><li></li></ol>',
    );
  });

  it('renders blocks normally at the deepest level it allows', () => {
    assert.match(render(`${'> '.repeat(16)}deep`), /<p>deep<\/p>/);
  });

  it('uses the image and task codicons', () => {
    assert.match(render('![pic](https://e.com/p.png)'), /codicon-file-media/);
    assert.match(render('- [x] a'), /codicon-pass/);
    assert.match(render('- [ ] a'), /codicon-circle-large/);
  });

  it('takes an image description nested past 32 levels as its source', () => {
    const image = (markdown: string) => (Lexer.lex(markdown)[0] as Tokens.Paragraph).tokens[0] as Tokens.Image;
    const text = plainText(image(`![${'*a '.repeat(40)}x${' a*'.repeat(40)}](x.png)`).tokens);
    assert.ok(text.startsWith('a a a'), text.slice(0, 40));
    assert.ok(text.includes('*a'), 'past the bound, the source as typed');
    assert.ok(!text.includes('undefined') && !/NaN/.test(text), text.slice(0, 80));
    assert.equal(plainText(image('![a  \nb](x.png)').tokens), 'ab', 'a line break in it adds nothing');
  });
});
