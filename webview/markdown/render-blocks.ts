/**
 * Block Markdown tokens -> DOM nodes: paragraphs, headings, lists (task lists
 * too), tables, quotes, rules. Raw HTML blocks are shown as their source
 * text. Elements, not Lit templates (see render-inline.ts); only a code block
 * is a template (code-block.ts), so that the one being streamed is updated
 * in place.
 */
import { nothing, render } from 'lit';
import type { MarkedToken, Token, Tokens } from 'marked';
import { assertNever } from '../../src/shared/thread/thread';
import { codeBlock } from './code/code-block';
import type { ChunkCache } from './code/highlight';
import { element, renderInline } from './render-inline';
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

/** `<tag>` holding the blocks of `tokens`. */
function blocksIn(tag: string, tokens: readonly Token[], ctx: BlockContext): HTMLElement {
  const holder = document.createElement(tag);
  for (const value of renderBlocks(tokens, ctx)) {
    if (value === nothing) continue;
    if (value instanceof Node) holder.appendChild(value);
    else render(value, holder.appendChild(document.createDocumentFragment())); // a nested code block
  }
  return holder;
}

/**
 * Markdown source shown as the text it is (raw HTML, nesting past the bound,
 * a block too long to lay out as one): in pieces when long (text-pieces.ts).
 */
export function rawText(source: string, className = ''): HTMLElement {
  return element('p', plainText(source), className ? `raw-html ${className}` : 'raw-html');
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
      return element('p', renderInline(t.tokens));
    case 'text':
      // Text directly in a tight list item.
      return renderInline(t.tokens ?? [t]);
    case 'heading':
      return element(`h${Math.min(Math.max(t.depth, 1), 6)}`, renderInline(t.tokens));
    case 'code':
      return codeBlock(t.text, t.lang, ctx);
    case 'list':
      return list(t, depth + 1);
    case 'blockquote':
      return blocksIn('blockquote', t.tokens, { depth: depth + 1 });
    case 'table':
      return table(t);
    case 'hr':
      return document.createElement('hr');
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

/** Nested blocks are highlighted whole even while streaming: only a top-level code block has a chunk cache. */
function list(t: Tokens.List, depth: number): HTMLElement {
  const ordered = t.ordered;
  const e = document.createElement(ordered ? 'ol' : 'ul');
  if (!ordered && t.items.some((i) => i.task)) e.className = 'tasks';
  if (ordered && typeof t.start === 'number' && t.start !== 1) e.setAttribute('start', String(t.start));
  for (const item of t.items) {
    const li = blocksIn('li', item.tokens, { depth });
    if (item.task) li.className = 'task';
    e.appendChild(li);
  }
  return e;
}

const alignClass = { left: 'align-left', center: 'align-center', right: 'align-right' } as const;

/** A cell's text is laid out as one: past PIECE_CHARS it is shown as its source, in pieces. Alignment by class: the CSP forbids style attributes. */
function cell(tag: 'th' | 'td', c: Tokens.TableCell): HTMLElement {
  return element(
    tag,
    c.text.length > PIECE_CHARS ? plainText(c.text) : renderInline(c.tokens),
    c.align ? alignClass[c.align] : '',
  );
}

function row(tag: 'th' | 'td', cells: readonly Tokens.TableCell[]): HTMLElement {
  const tr = document.createElement('tr');
  for (const c of cells) tr.appendChild(cell(tag, c));
  return tr;
}

function table(t: Tokens.Table): HTMLElement {
  const body = document.createElement('tbody');
  for (const r of t.rows) body.appendChild(row('td', r));
  const tableElement = document.createElement('table');
  tableElement.append(element('thead', row('th', t.header)), body);
  // The wrapper scrolls sideways (on demand, see side-scroll.ts); tabindex lets a keyboard user scroll it.
  const wrap = element('div', tableElement, 'table-wrap side-scroll');
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-label', 'Table');
  return wrap;
}
