/**
 * Agent Markdown, blocks: paragraphs, headings, lists, quotes, tables, rules
 * and raw HTML, checked in Node on the Lit templates render-blocks.ts builds
 * (see litHtml.ts). Code blocks build DOM nodes (highlight.ts) and are
 * checked in Chromium (test/webview) only.
 */
import * as assert from 'node:assert/strict';
import { Lexer } from 'marked';
import { renderBlocks } from '../../webview/markdown/render-blocks';
import { toHtml } from './litHtml';

const render = (markdown: string) => toHtml(renderBlocks(Lexer.lex(markdown)));

describe('markdown block rendering (agent text only as text)', () => {
  it('shows a raw HTML block as the text it is', () => {
    assert.equal(render('<div onclick="alert(1)">\n<script>x()</script>\n</div>'), '<p class="raw-html">&lt;div onclick=&quot;alert(1)&quot;&gt;\n&lt;script&gt;x()&lt;/script&gt;\n&lt;/div&gt;</p>'.replace(/\s*\n\s*/g, ' '));
  });

  it('renders each heading level, paragraphs and rules', () => {
    assert.equal(render('# 1\n## 2\n### 3\n#### 4\n##### 5\n###### 6'), '<h1>1</h1><h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>');
    assert.equal(render('one\n\n---\n\ntwo'), '<p>one</p><hr><p>two</p>');
  });

  it('renders lists: ordered from their start, task lists marked, tight items inline', () => {
    assert.equal(render('- a\n- b'), '<ul><li>a</li><li>b</li></ul>');
    assert.equal(render('3. c\n4. d'), '<ol start="3"><li>c</li><li>d</li></ol>');
    assert.equal(render('1. e'), '<ol><li>e</li></ol>');
    assert.match(render('- [x] done\n- [ ] open'), /^<ul class="tasks"><li class="task"><span class="task-mark done" [^>]*>.*<\/span>done<\/li><li class="task">/);
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
    assert.equal(render('| a | b | c | d |\n| :- | :-: | -: | - |\n| 1 | 2 | 3 | 4 |'),
      '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table><thead><tr><th class="align-left">a</th><th class="align-center">b</th><th class="align-right">c</th><th>d</th></tr></thead>'
      + '<tbody><tr><td class="align-left">1</td><td class="align-center">2</td><td class="align-right">3</td><td>4</td></tr></tbody></table></div>');
  });

  it('renders nothing for blank space and link definitions', () => {
    assert.equal(render('[ref]: https://example.com\n\n\n'), '');
  });
});
