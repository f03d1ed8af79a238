/**
 * Markdown that grows: lexes only what is new, renders only what changed.
 *
 * The text is cut into top-level blocks. Every block but the last is
 * complete (a later block follows it, so nothing appended can change it): it
 * is lexed and rendered once, and its template is reused behind a `guard`, so
 * Lit does not touch its DOM again. Only the last, open block is re-lexed and
 * re-rendered on each update: the work per streamed chunk is bounded by the
 * size of that block, not of the message.
 */
import { html, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { getDefaults, Lexer, type Links, type MarkedToken, type Token, type TokensList } from 'marked';
import type { ChunkCache } from './highlight';
import { renderBlock, type BlockContext } from './render-blocks';

/** Completed blocks are grouped, so that an update visits one guard per group rather than per block. */
const GROUP_SIZE = 32;

interface Block {
  /** The block's Markdown source, newlines normalised (kept to re-lex it if link definitions change). */
  readonly source: string;
  readonly template: unknown;
  /** `guard` over the template: re-committing it is a no-op. */
  readonly view: unknown;
}

interface Group {
  readonly blocks: Block[];
  /** Set when the group is full; the group's blocks never change after that (but see `relink`). */
  closed?: unknown;
}

export class MarkdownStream {
  private groups: Group[] = [{ blocks: [] }];
  /** The text of the completed blocks: an update must start with it, else everything is redone. */
  private prefix = '';
  /** Reference definitions (`[x]: url`) of completed blocks, first one wins (as in CommonMark). */
  private defs: Links = Object.create(null);
  /** All definitions the completed blocks were rendered with; when it changes they are re-rendered. */
  private defsKey = '[]';
  private open: unknown[] = [];
  /** How many of the last lexed tokens were completed (the rest are the open block). */
  private frozenTokens = 0;
  /** Highlighted chunks of the open block's code, when it is a code block. */
  private chunks: ChunkCache = new Map();
  /** Characters lexed and top-level blocks rendered so far, for tests and benchmarks: streaming must keep both linear. */
  readonly work = { lexedChars: 0, renderedBlocks: 0 };

  update(text: string): void {
    if (!text.startsWith(this.prefix)) this.reset();
    const tail = text.slice(this.prefix.length);
    let tokens: TokensList;
    try {
      tokens = lex(tail, this.defs);
    } catch (error) {
      // marked gave up (it throws on inputs it cannot advance on): show the text as it is.
      console.warn('Markdown could not be parsed', error);
      this.open = [html`<p class="raw-html">${tail}</p>`];
      return;
    }
    this.work.lexedChars += tail.length;
    this.relink(tokens.links);
    const consumed = this.freezeCompleted(tokens, tail);
    this.prefix = text.slice(0, this.prefix.length + consumed);
    const rest = tokens.slice(this.frozenTokens).filter((t) => t.type !== 'space') as MarkedToken[];
    this.work.renderedBlocks += rest.length;
    this.open = rest.map((t, i) => safely(t, i === rest.length - 1 ? { streaming: this.chunks } : {}));
  }

  /** What to render: the groups of completed blocks, the open block last in the last group. */
  view(): unknown[] {
    const last = this.groups.length - 1;
    return this.groups.map((g, i) => (i < last ? g.closed : groupTemplate([...g.blocks.map((b) => b.view), ...this.open])));
  }

  /**
   * Completes every block but the last non-blank one; returns how many
   * characters of `tail` (as given, before newline normalisation) they span.
   */
  private freezeCompleted(tokens: TokensList, tail: string): number {
    const normalized = tail.includes('\r') ? tail.replace(/\r\n?/g, '\n') : tail;
    let last = tokens.length - 1;
    while (last > 0 && tokens[last]!.type === 'space') last--;
    let at = 0;
    let i = 0;
    for (; i < last; i++) {
      const t = tokens[i]!;
      // The raws should add up to the source; if marked ever disagrees, keep the rest open.
      if (!normalized.startsWith(t.raw, at)) break;
      at += t.raw.length;
      if (t.type !== 'space') this.complete(t.raw, [t]);
    }
    this.frozenTokens = i;
    if (i > 0) this.chunks = new Map();
    return normalized === tail ? at : originalLength(tail, at);
  }

  private complete(source: string, tokens: Token[]): void {
    collectDefs(tokens, this.defs);
    const block = makeBlock(source, tokens);
    this.work.renderedBlocks++;
    const group = this.groups[this.groups.length - 1]!;
    group.blocks.push(block);
    if (group.blocks.length === GROUP_SIZE) {
      group.closed = closedView(group);
      this.groups.push({ blocks: [] });
    }
  }

  /**
   * A new reference definition can turn `[text][ref]` in an earlier block
   * into a link: when the set of definitions changes, completed blocks that
   * have brackets are lexed again with all of them. Rare (chat Markdown
   * seldom uses references), and never per chunk of ordinary text.
   */
  private relink(links: Links): void {
    const key = JSON.stringify(Object.entries(links));
    if (key === this.defsKey) return;
    this.defsKey = key;
    const blocks = this.groups.flatMap((g) => g.blocks);
    if (!blocks.some((b) => b.source.includes('['))) return;
    const relexed = blocks.map((b) => (b.source.includes('[') ? this.relexed(b, links) : b));
    this.groups = [];
    for (let i = 0; i < relexed.length; i += GROUP_SIZE) {
      const group: Group = { blocks: relexed.slice(i, i + GROUP_SIZE) };
      if (group.blocks.length === GROUP_SIZE) group.closed = closedView(group);
      this.groups.push(group);
    }
    if (this.groups.length === 0 || this.groups[this.groups.length - 1]!.closed) this.groups.push({ blocks: [] });
  }

  private relexed(block: Block, links: Links): Block {
    this.work.lexedChars += block.source.length;
    this.work.renderedBlocks++;
    try {
      return makeBlock(block.source, [...lex(block.source, links)]);
    } catch {
      return block; // it lexed before; keep it as it was
    }
  }

  private reset(): void {
    this.groups = [{ blocks: [] }];
    this.prefix = '';
    this.defs = Object.create(null);
    this.defsKey = '[]';
    this.chunks = new Map();
  }
}

/** One call site for open and closed groups: Lit then updates a group in place when it closes. */
function groupTemplate(items: unknown[]): TemplateResult {
  return html`${items}`;
}

function closedView(group: Group): unknown {
  const items = group.blocks.map((b) => b.view);
  return guard([group], () => groupTemplate(items));
}

/** Renders a block; if that fails (a bug, or input beyond what marked's tokens can carry), shows its source. */
function safely(t: MarkedToken, ctx: BlockContext): unknown {
  try {
    return renderBlock(t, ctx);
  } catch (error) {
    console.warn('A Markdown block could not be rendered', error);
    return html`<p class="raw-html">${t.raw}</p>`;
  }
}

function makeBlock(source: string, tokens: Token[]): Block {
  const views = tokens.filter((t) => t.type !== 'space').map((t) => safely(t as MarkedToken, {}));
  const template = views.length === 1 ? views[0] : views;
  return { source, template, view: guard([template], () => template) };
}

function lex(source: string, defs: Links): TokensList {
  const lexer = new Lexer({ ...getDefaults(), gfm: true, breaks: false });
  Object.assign(lexer.tokens.links, defs);
  return lexer.lex(source);
}

/** Definitions that marked registered while lexing `tokens` (they stay in the tree as `def` tokens). */
function collectDefs(tokens: readonly Token[], into: Links): void {
  for (const t of tokens as MarkedToken[]) {
    if (t.type === 'def') {
      if (!Object.hasOwn(into, t.tag)) into[t.tag] = { href: t.href, title: t.title };
    } else if (t.type === 'blockquote') {
      collectDefs(t.tokens, into);
    } else if (t.type === 'list') {
      for (const item of t.items) collectDefs(item.tokens, into);
    }
  }
}

/** The length in `original` of its first `normalizedLength` characters once `\r\n` and `\r` became `\n`. */
function originalLength(original: string, normalizedLength: number): number {
  let i = 0;
  for (let n = 0; n < normalizedLength; n++) i += original[i] === '\r' && original[i + 1] === '\n' ? 2 : 1;
  return i;
}
