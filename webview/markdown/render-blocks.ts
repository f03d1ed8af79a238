/**
 * Block Markdown tokens -> Lit templates: paragraphs, headings, lists (task
 * lists too), tables, quotes, rules, code blocks. Raw HTML blocks are shown
 * as their source text.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { MarkedToken, Token, Tokens } from 'marked';
import { assertNever } from '../../src/shared/thread';
import { codeBlock } from './code-block';
import type { ChunkCache } from './highlight';
import { renderInline } from './render-inline';
import { PIECE_CHARS, plainText } from '../shared/text-pieces';

/**
 * `streaming`: the block is the message's last and still growing (its code
 * is highlighted in chunks). `streamed`: the block has just completed, and
 * these are the chunks it was shown in while it grew. `depth`: how many
 * lists and quotes it is in.
 */
export interface BlockContext {
  readonly streaming?: ChunkCache;
  readonly streamed?: ChunkCache;
  readonly depth?: number;
}

/**
 * Lists and quotes nested deeper than this are shown as their source text:
 * a few thousand levels from a hostile agent would otherwise overflow the
 * stack while rendering, or crash the renderer laying the DOM out.
 */
const MAX_NESTING = 16;

export function renderBlocks(tokens: readonly Token[], ctx: BlockContext = {}): unknown[] {
  return tokens.map((t) => renderBlock(t as MarkedToken, ctx));
}

/**
 * Markdown source shown as the text it is (raw HTML, nesting past the bound,
 * a block too long to lay out as one): in pieces when long (text-pieces.ts).
 */
export function rawText(source: string, className = ''): TemplateResult {
  return html`<p class=${className ? `raw-html ${className}` : 'raw-html'}>${plainText(source)}</p>`;
}

/**
 * Blocks whose text is laid out as one (a paragraph, a heading, a tight list
 * item's text): past PIECE_CHARS they are shown as their source, in pieces.
 */
const ONE_LAYOUT = new Set(['paragraph', 'heading', 'text']);

/**
 * A table is laid out whole (every row, to size its columns) whenever any
 * cell changes: one streamed table of 256 KiB took ~700 ms a frame at the end
 * (measured). Past this much source a table is shown as its source.
 */
export const MAX_TABLE_CHARS = 16 * 1024;

export function renderBlock(t: MarkedToken, ctx: BlockContext): unknown {
  const depth = ctx.depth ?? 0;
  if ((t.type === 'list' || t.type === 'blockquote') && depth >= MAX_NESTING) return rawText(t.raw);
  if (ONE_LAYOUT.has(t.type) && t.raw.length > PIECE_CHARS) return rawText(t.raw);
  if (t.type === 'table' && t.raw.length > MAX_TABLE_CHARS) return rawText(t.raw, 'table-source');
  switch (t.type) {
    case 'paragraph':
      return html`<p>${renderInline(t.tokens)}</p>`;
    case 'text':
      // Text directly in a tight list item.
      return renderInline(t.tokens ?? [t]);
    case 'heading':
      return heading(t);
    case 'code':
      return codeBlock(t.text, t.lang, ctx);
    case 'list':
      return list(t, depth + 1);
    case 'blockquote':
      return html`<blockquote>${renderBlocks(t.tokens, { depth: depth + 1 })}</blockquote>`;
    case 'table':
      return table(t);
    case 'hr':
      return html`<hr>`;
    case 'html':
      // Raw HTML from the agent: shown as the text it is.
      return rawText(t.raw);
    case 'space':
    case 'def':
      return nothing;
    case 'checkbox':
    case 'br':
    case 'codespan':
    case 'del':
    case 'em':
    case 'escape':
    case 'image':
    case 'link':
    case 'strong':
    case 'list_item':
      // Inline tokens at block level (a task box first in a tight item): render them inline.
      return renderInline([t]);
    default:
      return assertNever(t);
  }
}

function heading(t: Tokens.Heading): TemplateResult {
  const content = renderInline(t.tokens);
  switch (t.depth) {
    case 1:
      return html`<h1>${content}</h1>`;
    case 2:
      return html`<h2>${content}</h2>`;
    case 3:
      return html`<h3>${content}</h3>`;
    case 4:
      return html`<h4>${content}</h4>`;
    case 5:
      return html`<h5>${content}</h5>`;
    default:
      return html`<h6>${content}</h6>`;
  }
}

/** Nested blocks are highlighted whole even while streaming: only a top-level code block has a chunk cache. */
function list(t: Tokens.List, depth: number): TemplateResult {
  const items = t.items.map(
    (item) => html`<li class=${item.task ? 'task' : nothing}>${renderBlocks(item.tokens, { depth })}</li>`,
  );
  if (!t.ordered) return html`<ul class=${t.items.some((i) => i.task) ? 'tasks' : nothing}>${items}</ul>`;
  const start = typeof t.start === 'number' && t.start !== 1 ? t.start : nothing;
  return html`<ol start=${start}>${items}</ol>`;
}

const alignClass = { left: 'align-left', center: 'align-center', right: 'align-right' } as const;

/** Alignment by class: the CSP forbids style attributes. */
function align(a: Tokens.TableCell['align']): string | typeof nothing {
  return a ? alignClass[a] : nothing;
}

/** A cell's text is laid out as one: past PIECE_CHARS it is shown as its source, in pieces. */
function cell(c: Tokens.TableCell): unknown {
  return c.text.length > PIECE_CHARS ? plainText(c.text) : renderInline(c.tokens);
}

function table(t: Tokens.Table): TemplateResult {
  // The wrapper scrolls sideways (on demand, see side-scroll.ts); tabindex lets a keyboard user scroll it.
  const head = html`<thead><tr>${t.header.map((c) => html`<th class=${align(c.align)}>${cell(c)}</th>`)}</tr></thead>`;
  const body = html`<tbody>${t.rows.map((row) => html`<tr>${row.map((c) => html`<td class=${align(c.align)}>${cell(c)}</td>`)}</tr>`)}</tbody>`;
  return html`<div class="table-wrap side-scroll" tabindex="0" role="region" aria-label="Table"><table>${head}${body}</table></div>`;
}
