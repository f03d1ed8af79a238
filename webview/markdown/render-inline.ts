/**
 * Inline Markdown tokens -> DOM nodes. Every piece of agent text ends up in
 * a text node or an attribute value; raw HTML is shown as the text it is;
 * images are never loaded.
 *
 * Elements, not Lit templates: Lit marks each value of an array with two
 * comment nodes and a part object, so a paragraph of twenty inline tokens
 * cost forty comments and twenty parts that are never updated (a finished
 * block is rendered once); a streamed reply spent most of its script time
 * making them. A block's template takes the fragment as one value.
 */
import type { MarkedToken, Token, Tokens } from 'marked';
import { assertNever } from '../../src/shared/thread/thread';
import { codiconElement } from '../shared/codicons';
import { decodeEntities } from './entities';
import { safeLinkTarget } from './linkTarget';
import { linkTo } from './links';

/** Inside a link no other link may be made (nested interactive elements). `depth`: enclosing inline elements. */
export interface InlineContext {
  readonly inLink: boolean;
  readonly depth: number;
}

const top: InlineContext = { inLink: false, depth: 0 };

/** Emphasis nested deeper than this is shown as its source (see MAX_NESTING in render-blocks.ts). */
const MAX_INLINE_NESTING = 32;

export function renderInline(tokens: readonly Token[] | undefined, ctx: InlineContext = top): DocumentFragment {
  const out = document.createDocumentFragment();
  appendInline(out, tokens, ctx);
  return out;
}

function appendInline(parent: Node, tokens: readonly Token[] | undefined, ctx: InlineContext): void {
  for (const t of tokens ?? []) {
    if (ctx.depth > MAX_INLINE_NESTING) parent.appendChild(document.createTextNode(t.raw));
    else parent.appendChild(inlineNode(t as MarkedToken, ctx));
  }
}

const inner = (ctx: InlineContext, inLink = ctx.inLink): InlineContext => ({ inLink, depth: ctx.depth + 1 });

/** `<tag>` holding `tokens`. */
function wrap(tag: string, tokens: readonly Token[] | undefined, ctx: InlineContext): HTMLElement {
  const e = document.createElement(tag);
  appendInline(e, tokens, inner(ctx));
  return e;
}

/** `<tag>` holding `content`, with `className` when given (the block renderer builds with it too). */
export function element(tag: string, content: Node | string, className = ''): HTMLElement {
  const e = document.createElement(tag);
  if (className) e.className = className;
  e.append(content);
  return e;
}

function inlineNode(t: MarkedToken, ctx: InlineContext): Node {
  switch (t.type) {
    case 'text':
      // `raw`, not `text`: marked half-decodes `text` (numeric references only) for an HTML renderer.
      return t.tokens ? renderInline(t.tokens, inner(ctx)) : document.createTextNode(decodeEntities(t.raw));
    case 'escape':
      return document.createTextNode(t.text);
    case 'strong':
    case 'em':
    case 'del':
      return wrap(t.type, t.tokens, ctx);
    case 'codespan':
      return element('code', t.text);
    case 'br':
      return document.createElement('br');
    case 'link':
      return link(t, ctx);
    case 'image':
      return image(t, ctx);
    case 'html':
      // Raw HTML from the agent: shown, never parsed.
      return element('span', t.raw, 'raw-html');
    case 'checkbox':
      return checkbox(t);
    case 'blockquote':
    case 'code':
    case 'def':
    case 'heading':
    case 'hr':
    case 'list':
    case 'list_item':
    case 'paragraph':
    case 'space':
    case 'table':
      // Block tokens do not occur inline; if marked ever puts one here, show its source.
      return document.createTextNode(t.raw);
    default:
      return assertNever(t);
  }
}

function link(t: Tokens.Link, ctx: InlineContext): Node {
  // Autolinks are literal; other destinations may spell characters as entities (`&#106;avascript:`).
  const destination = t.autolink ? t.href : decodeEntities(t.href);
  const content = t.autolink ? document.createTextNode(t.text) : renderInline(t.tokens, inner(ctx, true));
  const target = ctx.inLink ? undefined : safeLinkTarget(destination);
  if (target) return linkTo(target, content, t.title ? decodeEntities(t.title) : undefined);
  const span = element('span', content, 'not-a-link');
  span.title = `Not opened: ${destination}`;
  return span;
}

/** Images are never loaded (no request may leave the webview): their description, and a link to open them. */
function image(t: Tokens.Image, ctx: InlineContext): Node {
  const alt = plainText(t.tokens);
  const destination = decodeEntities(t.href);
  const target = ctx.inLink ? undefined : safeLinkTarget(destination);
  const label = document.createDocumentFragment();
  label.append(codiconElement('file-media'), element('span', 'Image: ', 'sr-only'), alt || 'image');
  if (target) return element('span', linkTo(target, label, `Open image ${destination}`), 'image');
  const span = element('span', label, 'image');
  span.title = `Image not shown: ${destination}`;
  return span;
}

function checkbox(t: Tokens.Checkbox): Node {
  const span = document.createElement('span');
  span.className = t.checked ? 'task-mark done' : 'task-mark';
  span.setAttribute('role', 'img');
  span.setAttribute('aria-label', t.checked ? 'Done' : 'Not done');
  span.append(codiconElement(t.checked ? 'pass' : 'circle-large'));
  return span;
}

/** The text of inline tokens without their markup (an image's description). */
export function plainText(tokens: readonly Token[] | undefined, depth = 0): string {
  let out = '';
  for (const t of (tokens ?? []) as MarkedToken[]) {
    if (depth > MAX_INLINE_NESTING) out += t.raw;
    else if (t.type === 'text') out += t.tokens ? plainText(t.tokens, depth + 1) : decodeEntities(t.raw);
    else if (t.type === 'escape' || t.type === 'codespan') out += t.text;
    else if ('tokens' in t && t.tokens) out += plainText(t.tokens, depth + 1);
    else if (t.type === 'html') out += t.raw;
  }
  return out;
}
