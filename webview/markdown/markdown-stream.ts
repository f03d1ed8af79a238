/**
 * Markdown that grows: lexes only what is new, renders only what changed.
 *
 * The text is cut into top-level blocks. Every block but the last is
 * complete (a later block follows it, so nothing appended can change it): it
 * is lexed and rendered once, and its template is reused behind a `guard`, so
 * Lit does not touch its DOM again. Only the last, open block is re-lexed and
 * re-rendered on each update: the work per streamed chunk is bounded by the
 * size of that block, not of the message.
 *
 * The browser's share is bounded too: each group of blocks is one element
 * (`.blocks`), and a closed group is `content-visibility: auto` (see
 * markdown.styles.ts), so a frame lays out, pre-paints and paints the open
 * group and one box per closed group, not every block of a long reply.
 */
import { html, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { getDefaults, Lexer, type Links, type MarkedToken, type Token, type TokensList } from 'marked';
import type { TextGrowth } from '../shared/appended-entries';
import { COSTLY_SCRIPT, growingText, type PieceCache } from '../shared/text-pieces';
import type { ChunkCache } from './code/highlight';
import { LinkDefinitions } from './link-definitions';
import { rawText, renderBlock, type BlockContext } from './render-blocks';
import { showHidden } from './visible-prose';

/**
 * Completed blocks are grouped, so that an update visits one guard per group
 * rather than per block, and the browser lays out one box per closed group.
 * Larger groups make fewer closed groups, and each one the browser has to
 * start skipping costs style work that grows with how many such boxes the
 * page already has (about 10 ms per group after a 2,000-entry transcript);
 * smaller groups make the open one, which every frame lays out and
 * pre-paints, smaller. Measured on a 1 MB reply: 32 costs a fifth more main
 * thread than 128; 256 is no better than 128.
 */
const GROUP_SIZE = 128;
/**
 * A group also closes once its blocks weigh this much (see layoutWeight): a group on screen is laid out whole, and
 * some text costs far more to lay out than its length says (see text-pieces.ts: 128 paragraphs of 2,000 alternating
 * Latin and Hebrew letters took 680 ms in one group; at 8 KiB of such text a group still took 75-120 ms, where each
 * paragraph of it now has a group of its own).
 */
const GROUP_WEIGHT = 8 * 1024;

/** How much more a block with such text weighs than its length (a 2,000-character paragraph then fills a group). */
const COSTLY_WEIGHT = 8;

/** What a block adds to its group's weight: its length, times COSTLY_WEIGHT when it has text of a costly script. */
function layoutWeight(source: string): number {
  return COSTLY_SCRIPT.test(source) ? source.length * COSTLY_WEIGHT : source.length;
}

/**
 * A line longer than this is not lexed: it and what follows it in the open
 * part are shown as plain text. Like VS Code's editor, which stops
 * tokenizing lines over 20,000 characters (editor.maxTokenizationLineLength):
 * such a line is data, not prose, and lexing one as Markdown takes the
 * view's main thread for a noticeable time (150 ms for 256 KiB of
 * punctuation, measured) and its layout as inline elements longer still.
 */
export const MAX_MARKDOWN_LINE = 20_000;

/**
 * An open block (the last one, still growing) longer than this is not lexed
 * again: from its start, the rest of the message is shown as its source, as
 * after a long line. Each update lexes and renders the open block whole, so
 * one block that kept growing made every update slower than the last
 * (measured, streamed as one block: 256 KiB of list items took 31 ms to lex
 * per update, of quote lines 15 ms; the view spent 14 s of main thread on a
 * 1 MB list where the same text as paragraphs took 1.5 s).
 */
export const MAX_OPEN_BLOCK = 64 * 1024;

interface Block {
  /** The block's Markdown source, newlines normalised (kept to re-lex it if link definitions change). */
  readonly source: string;
  readonly template: unknown;
  /** `guard` over the template: re-committing it is a no-op. */
  readonly view: unknown;
}

interface Group {
  readonly blocks: Block[];
  /** The blocks' layout weight (see layoutWeight). */
  weight: number;
  /** Set when the group is full; the group's blocks never change after that (but see `relink`). */
  closed?: unknown;
}

/**
 * `breaks`: a single newline inside a paragraph is a line break (GFM's
 * "breaks"), for text that is not really Markdown, such as a tool's output.
 */
export interface MarkdownOptions {
  readonly breaks?: boolean;
}

export class MarkdownStream {
  private groups: Group[] = [{ blocks: [], weight: 0 }];
  /** How long the text of the completed blocks is: an update must start with it, else everything is redone. */
  private frozenLength = 0;
  /** The text of the last update, and its part after the completed blocks. */
  private source = '';
  private tail = '';
  /** Reference definitions (`[x]: url`): when they change, completed blocks with brackets are lexed again. */
  private defs = new LinkDefinitions();
  /** Where the completed blocks that have a `[` are ([group, block]), their length and groups: what relinking costs. */
  private bracketBlocks: Array<readonly [number, number]> = [];
  private bracketChars = 0;
  private bracketGroups = 0;
  private open: unknown[] = [];
  /** How many of the last lexed tokens were completed (the rest are the open block). */
  private frozenTokens = 0;
  /** Highlighted chunks of the open block's code, when it is a code block. */
  private chunks: ChunkCache = new Map();
  /** Set once the open block outgrew MAX_OPEN_BLOCK: the rest is shown as its source, never lexed. */
  private sourceOnly = false;
  /** The pieces of the part shown as its source (after a long line, or once sourceOnly). */
  private pieces: PieceCache = new Map();
  /** Characters lexed and top-level blocks rendered so far, for tests and benchmarks: streaming must keep both linear. */
  readonly work = { lexedChars: 0, renderedBlocks: 0 };

  constructor(private readonly options: MarkdownOptions = {}) {}

  /**
   * `growth`: set when the caller knows that `text` is `growth.from` plus
   * `growth.appended`. When `from` is the last update's text (the same
   * string: `===` is then a pointer comparison), the part to lex is the old
   * tail plus `appended`, and the whole text is never looked at. Otherwise
   * `text` is checked to start with the completed blocks' text, which copies
   * and compares all of it (V8 first flattens a string built by `+`): for a
   * 1 MB reply, a megabyte per update.
   */
  update(text: string, growth?: TextGrowth): void {
    const tail = this.tailOf(text, growth);
    this.source = text;
    this.tail = tail;
    if (this.sourceOnly) {
      this.open = [this.asSource(tail)];
      return;
    }
    // From a line too long to lex on, the open part is plain text.
    const long = longLineStart(tail);
    const lexable = long < 0 ? tail : tail.slice(0, long);
    const plain = long < 0 ? [] : [this.asSource(tail.slice(long))];
    let tokens: TokensList;
    try {
      tokens = lex(lexable, this.defs.completed, this.options);
    } catch (error) {
      // marked gave up (it throws on inputs it cannot advance on): show the text as it is.
      console.warn('Markdown could not be parsed', error);
      this.open = [rawText(tail)];
      return;
    }
    this.work.lexedChars += lexable.length;
    this.relink(tokens);
    const consumed = this.freezeCompleted(tokens, lexable);
    this.frozenLength += consumed;
    this.tail = tail.slice(consumed);
    if (lexable.length - consumed > MAX_OPEN_BLOCK) {
      this.sourceOnly = true;
      this.open = [this.asSource(this.tail)];
      return;
    }
    const rest = tokens.slice(this.frozenTokens).filter((t) => t.type !== 'space') as MarkedToken[];
    this.work.renderedBlocks += rest.length;
    this.open = [
      ...rest.map((t, i) => safely(t, i === rest.length - 1 && long < 0 ? { streaming: this.chunks } : {})),
      ...plain,
    ];
  }

  /** Text shown as it is, in pieces that are made once each while it grows. */
  private asSource(text: string): TemplateResult {
    return html`<p class="raw-html long-line">${growingText(text, this.pieces)}</p>`;
  }

  /** The part of `text` after the completed blocks; everything, from scratch, when `text` does not extend them. */
  private tailOf(text: string, growth: TextGrowth | undefined): string {
    if (growth && growth.from === this.source) return this.tail + growth.appended;
    if (text.startsWith(this.source.slice(0, this.frozenLength))) return text.slice(this.frozenLength);
    this.reset();
    return text;
  }

  /** What to render: the groups of completed blocks, the open block last in the last group. */
  view(): unknown[] {
    const last = this.groups.length - 1;
    return this.groups.map((g, i) =>
      i < last ? g.closed : groupTemplate([...g.blocks.map((b) => b.view), ...this.open], false),
    );
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
      // The first was the open block: its code's chunks may be kept as they were shown.
      if (t.type !== 'space') this.complete(t.raw, [t], i === 0 ? this.chunks : undefined);
    }
    this.frozenTokens = i;
    if (i > 0) this.chunks = new Map();
    return normalized === tail ? at : originalLength(tail, at);
  }

  private complete(source: string, tokens: Token[], streamed?: ChunkCache): void {
    this.defs.complete(tokens);
    const block = makeBlock(source, tokens, streamed);
    this.work.renderedBlocks++;
    const at = addBlock(this.groups, block);
    if (source.includes('[')) {
      if (this.bracketBlocks.at(-1)?.[0] !== at[0]) this.bracketGroups++;
      this.bracketBlocks.push(at);
      this.bracketChars += source.length;
    }
  }

  /**
   * A new reference definition can turn `[text][ref]` in an earlier block
   * into a link: when the definitions change, completed blocks that have
   * brackets are lexed again with all of them, in place (their groups are
   * made anew, so that Lit renders them). Rare (chat Markdown seldom uses
   * references), and bounded by LinkDefinitions' budget: each time costs
   * those blocks' length and a group's worth per group they are in.
   */
  private relink(tokens: TokensList): void {
    if (!this.defs.changed(tokens) || this.bracketBlocks.length === 0) return;
    if (!this.defs.mayRelex(this.bracketChars + this.bracketGroups * GROUP_SIZE, this.frozenLength)) return;
    const relexed = new Map<number, Block[]>();
    for (const [g, b] of this.bracketBlocks) {
      const blocks = relexed.get(g) ?? [...this.groups[g]!.blocks];
      blocks[b] = this.relexed(blocks[b]!, tokens.links);
      relexed.set(g, blocks);
    }
    for (const [g, blocks] of relexed) {
      const group: Group = { blocks, weight: this.groups[g]!.weight };
      if (this.groups[g]!.closed !== undefined) group.closed = closedView(group);
      this.groups[g] = group;
    }
  }

  private relexed(block: Block, links: Links): Block {
    this.work.lexedChars += block.source.length;
    this.work.renderedBlocks++;
    try {
      return makeBlock(block.source, [...lex(block.source, links, this.options)]);
    } catch {
      return block; // it lexed before; keep it as it was
    }
  }

  private reset(): void {
    this.groups = [{ blocks: [], weight: 0 }];
    this.frozenLength = 0;
    this.defs = new LinkDefinitions();
    this.bracketBlocks = [];
    this.bracketChars = 0;
    this.bracketGroups = 0;
    this.chunks = new Map();
    this.sourceOnly = false;
    this.pieces = new Map();
  }
}

/** Adds a completed block to the last (open) group, closing it when full and opening the next; returns where it went. */
function addBlock(groups: Group[], block: Block): readonly [number, number] {
  const at = groups.length - 1;
  const group = groups[at]!;
  group.blocks.push(block);
  group.weight += layoutWeight(block.source);
  if (group.blocks.length === GROUP_SIZE || group.weight >= GROUP_WEIGHT) {
    group.closed = closedView(group);
    groups.push({ blocks: [], weight: 0 });
  }
  return [at, group.blocks.length - 1];
}

/** Where the first line longer than MAX_MARKDOWN_LINE starts in `text`, or -1. */
function longLineStart(text: string): number {
  for (let start = 0; text.length - start > MAX_MARKDOWN_LINE;) {
    const end = text.indexOf('\n', start);
    if ((end < 0 ? text.length : end) - start > MAX_MARKDOWN_LINE) return start;
    start = end + 1;
  }
  return -1;
}

/**
 * One call site for open and closed groups: Lit then updates a group in place
 * when it closes (only its class changes), so no block's DOM is made twice.
 */
function groupTemplate(items: unknown[], closed: boolean): TemplateResult {
  return html`<div class=${closed ? 'blocks closed' : 'blocks'}>${items}</div>`;
}

function closedView(group: Group): unknown {
  const items = group.blocks.map((b) => b.view);
  return guard([group], () => groupTemplate(items, true));
}

/** Renders a block; if that fails (a bug, or input beyond what marked's tokens can carry), shows its source. */
function safely(t: MarkedToken, ctx: BlockContext): unknown {
  try {
    return showHidden(renderBlock(t, ctx));
  } catch (error) {
    console.warn('A Markdown block could not be rendered', error);
    return rawText(t.raw);
  }
}

function makeBlock(source: string, tokens: Token[], streamed?: ChunkCache): Block {
  const views = tokens.filter((t) => t.type !== 'space').map((t) => safely(t as MarkedToken, { streamed }));
  const template = views.length === 1 ? views[0] : views;
  return { source, template, view: guard([template], () => template) };
}

function lex(source: string, defs: Links, options: MarkdownOptions): TokensList {
  const lexer = new Lexer({ ...getDefaults(), gfm: true, breaks: options.breaks ?? false });
  Object.assign(lexer.tokens.links, defs);
  return lexer.lex(source);
}

/** The length in `original` of its first `normalizedLength` characters once `\r\n` and `\r` became `\n`. */
function originalLength(original: string, normalizedLength: number): number {
  let i = 0;
  for (let n = 0; n < normalizedLength; n++) i += original[i] === '\r' && original[i + 1] === '\n' ? 2 : 1;
  return i;
}
