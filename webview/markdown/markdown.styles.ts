/**
 * Styles of <acp-markdown>. Colours only from VS Code's theme variables;
 * syntax colours from the debug view's token colours (the closest thing to
 * editor token colours a webview gets), which every theme defines.
 */
import { css } from 'lit';
import { codiconStyles, srOnlyStyles } from '../shared/codicons';
import { pieceStyles } from '../shared/text-pieces';
import { copyButtonStyles } from './code/copy-button';
import { sideScrollStyles } from './side-scroll';

const text = css`
  :host { display: block; overflow-wrap: anywhere; line-height: 1.5; }
  /*
   * The blocks come in groups (.blocks, see MarkdownStream; a group closes at
   * 128 completed blocks or 8 KiB of Latin text, one long paragraph of
   * right-to-left or Thai). Every group is skipped by style, layout and paint
   * while it is off screen: without this, every frame of a streaming reply
   * re-did layout and pre-paint for all of its blocks (PrePaint went from 2 to
   * 39 ms per frame over a 1 MB reply). A group has the property from birth:
   * turning it on for an existing element made Chromium restyle the whole page
   * (~11 ms per group closed late in a 1 MB reply; 0.2 ms this way). Its size
   * is remembered once laid out; the estimates are for groups never seen.
   * Containment stops margins collapsing through a group: its last block's
   * bottom margin is dropped and the next block's top margin makes the gap.
   * Its paint is clipped to its padding box: 2px of padding, taken back by
   * the negative margin, keep focus outlines at its edges whole.
   */
  .blocks { content-visibility: auto; contain-intrinsic-block-size: auto 3em; padding: 2px; margin: -2px; }
  .blocks.closed { contain-intrinsic-block-size: auto 100em; }
  /* Two groups' -2px margins collapse into one -2px: take back the second group's padding too. */
  .blocks + .blocks { margin-top: -4px; }
  .blocks:first-child > :first-child, blockquote > :first-child, li > :first-child { margin-top: 0; }
  .blocks > :last-child, blockquote > :last-child, li > :last-child { margin-bottom: 0; }
  p { margin: 0.5em 0; }
  h1, h2, h3, h4, h5, h6 { margin: 0.9em 0 0.4em; line-height: 1.3; font-weight: 600; }
  h1 { font-size: 1.35em; } h2 { font-size: 1.2em; } h3 { font-size: 1.1em; } h4, h5, h6 { font-size: 1em; }
  /* In a small panel (a plan): headings no larger than the text around them. */
  :host([compact]) :is(h1, h2, h3) { font-size: 1em; margin: 0.5em 0 0.2em; }
  ul, ol { margin: 0.4em 0; padding-left: 1.6em; }
  li { margin: 0.15em 0; }
  ul.tasks { list-style: none; padding-left: 0.4em; }
  .task-mark { display: inline-flex; vertical-align: -3px; margin-right: 4px; }
  /* charts.green, not testing.iconPassed: the latter is #73c991 in the light themes, 1.9:1 on a light side bar. */
  .task-mark.done { color: var(--vscode-charts-green, var(--vscode-testing-iconPassed, inherit)); }
  blockquote {
    margin: 0.5em 0; padding: 2px 10px;
    border-left: 3px solid var(--vscode-textBlockQuote-border, currentColor);
    background: var(--vscode-textBlockQuote-background, transparent);
  }
  hr { border: none; border-top: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, currentColor)); margin: 0.8em 0; }
  code {
    font-family: var(--vscode-editor-font-family, monospace); font-size: 0.95em;
    color: var(--vscode-textPreformat-foreground, inherit);
    background: var(--vscode-textPreformat-background, transparent);
    padding: 1px 4px; border-radius: 3px;
  }
  .raw-html { white-space: pre-wrap; }
  /* A line too long to lex (MAX_MARKDOWN_LINE): often one long word, so it may break anywhere. */
  .long-line { overflow-wrap: anywhere; }
  /* A table too long to lay out as one (MAX_TABLE_CHARS), shown as its source: in the editor's font, so its columns line up. */
  .table-source { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.95em; }
  /* An image that is never loaded: a chip (icon and description) kept apart from the text and links around it. */
  .image {
    display: inline-block; max-width: 100%; box-sizing: border-box; margin: 0 0.25em; padding: 0 4px; border-radius: 3px;
    border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, currentColor));
  }
  .image .codicon { vertical-align: -3px; margin-right: 3px; font-size: 14px; }
`;

const links = css`
  /* Underlined: colour alone must not be what tells a link from text. */
  .link {
    color: var(--vscode-textLink-foreground, inherit); cursor: pointer;
    text-decoration: underline; text-underline-offset: 2px;
  }
  .link:hover, .link:active { color: var(--vscode-textLink-activeForeground, inherit); }
  .link:focus-visible { outline: 1px solid var(--vscode-focusBorder, currentColor); outline-offset: 1px; border-radius: 2px; }
`;

const tables = css`
  /*
   * Words in cells stay whole: with the overflow-wrap: anywhere of :host, a
   * narrow view squeezed every column down to one letter per line. A table
   * wider than the view scrolls sideways inside its wrapper instead.
   */
  /* Scrolls sideways on demand (side-scroll.ts); the room for its scrollbar is kept below it. */
  .table-wrap { margin: 0.5em 0; overflow-wrap: normal; padding-bottom: var(--acp-scrollbar, 0px); }
  .table-wrap.scrolls { padding-bottom: 0; }
  .table-wrap:focus-visible { outline: 1px solid var(--vscode-focusBorder, currentColor); }
  table { border-collapse: collapse; }
  th, td { border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, currentColor)); padding: 3px 8px; text-align: left; vertical-align: top; }
  th { font-weight: 600; }
  .align-center { text-align: center; }
  .align-right { text-align: right; }
`;

const code = css`
  .code-block {
    margin: 0.5em 0; border-radius: 4px; overflow: hidden;
    border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border, transparent));
    /* The editor's colours: the token colours below are made for them. */
    background: var(--vscode-editor-background, transparent); color: var(--vscode-editor-foreground, inherit);
  }
  .code-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; padding: 1px 4px 1px 8px; min-height: 24px; }
  .code-lang { font-size: 0.9em; color: var(--vscode-descriptionForeground, inherit); }
  /* Scrolls sideways on demand (side-scroll.ts): its bottom padding is the room for the scrollbar, 8px at least. */
  pre { margin: 0; padding: 4px 8px max(8px, var(--acp-scrollbar, 0px)); overflow-wrap: normal; white-space: pre; line-height: 1.4; }
  pre.scrolls { padding-bottom: max(0px, 8px - var(--acp-scrollbar, 0px)); }
  pre:focus-visible { outline: 1px solid var(--vscode-focusBorder, currentColor); outline-offset: -1px; }
  pre code { padding: 0; background: none; color: inherit; font-size: var(--vscode-editor-font-size, 0.95em); }
  .token.comment, .token.prolog, .token.doctype, .token.cdata, .token.blockquote { color: var(--vscode-descriptionForeground, inherit); font-style: italic; }
  .token.keyword, .token.boolean, .token.builtin, .token.atrule, .token.important, .token.rule, .token.null { color: var(--vscode-debugTokenExpression-boolean, inherit); }
  .token.string, .token.char, .token.attr-value, .token.regex, .token.url, .token.template-string, .token.code { color: var(--vscode-debugTokenExpression-string, inherit); }
  .token.number, .token.constant, .token.symbol, .token.inserted, .token.unit { color: var(--vscode-debugTokenExpression-number, inherit); }
  .token.function, .token.class-name, .token.tag, .token.selector, .token.property, .token.attr-name, .token.namespace, .token.title, .token.key { color: var(--vscode-debugTokenExpression-name, inherit); }
  .token.deleted { color: var(--vscode-debugTokenExpression-error, inherit); }
  .token.punctuation, .token.operator { color: inherit; }
  .token.bold { font-weight: bold; } .token.italic { font-style: italic; }
`;

export const markdownStyles = [
  codiconStyles,
  srOnlyStyles,
  pieceStyles,
  copyButtonStyles,
  sideScrollStyles,
  text,
  links,
  tables,
  code,
];
