/**
 * Inline Markdown tokens -> Lit values. Every piece of agent text ends up in
 * a text node or an attribute value (escaped by Lit); raw HTML is shown as
 * the text it is; images are never loaded.
 */
import { html, type TemplateResult } from 'lit';
import type { MarkedToken, Token, Tokens } from 'marked';
import { assertNever } from '../../src/shared/thread';
import { codicon } from '../shared/codicons';
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

export function renderInline(tokens: readonly Token[] | undefined, ctx: InlineContext = top): unknown[] {
  if (ctx.depth > MAX_INLINE_NESTING) return (tokens ?? []).map((t) => t.raw);
  return (tokens ?? []).map((t) => inlineToken(t as MarkedToken, ctx));
}

const inner = (ctx: InlineContext, inLink = ctx.inLink): InlineContext => ({ inLink, depth: ctx.depth + 1 });

function inlineToken(t: MarkedToken, ctx: InlineContext): unknown {
  switch (t.type) {
    case 'text':
      // `raw`, not `text`: marked half-decodes `text` (numeric references only) for an HTML renderer.
      return t.tokens ? renderInline(t.tokens, inner(ctx)) : decodeEntities(t.raw);
    case 'escape':
      return t.text;
    case 'strong':
      return html`<strong>${renderInline(t.tokens, inner(ctx))}</strong>`;
    case 'em':
      return html`<em>${renderInline(t.tokens, inner(ctx))}</em>`;
    case 'del':
      return html`<del>${renderInline(t.tokens, inner(ctx))}</del>`;
    case 'codespan':
      return html`<code>${t.text}</code>`;
    case 'br':
      return html`<br>`;
    case 'link':
      return link(t, ctx);
    case 'image':
      return image(t, ctx);
    case 'html':
      // Raw HTML from the agent: shown, never parsed.
      return html`<span class="raw-html">${t.raw}</span>`;
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
      return t.raw;
    default:
      return assertNever(t);
  }
}

function link(t: Tokens.Link, ctx: InlineContext): unknown {
  // Autolinks are literal; other destinations may spell characters as entities (`&#106;avascript:`).
  const destination = t.autolink ? t.href : decodeEntities(t.href);
  const content = t.autolink ? t.text : renderInline(t.tokens, inner(ctx, true));
  const target = ctx.inLink ? undefined : safeLinkTarget(destination);
  if (target) return linkTo(target, content, t.title ? decodeEntities(t.title) : undefined);
  return html`<span class="not-a-link" title=${`Not opened: ${destination}`}>${content}</span>`;
}

/** Images are never loaded (no request may leave the webview): their description, and a link to open them. */
function image(t: Tokens.Image, ctx: InlineContext): TemplateResult {
  const alt = plainText(t.tokens);
  const destination = decodeEntities(t.href);
  const target = ctx.inLink ? undefined : safeLinkTarget(destination);
  const label = html`${codicon('file-media')}<span class="sr-only">Image: </span>${alt || 'image'}`;
  return target
    ? html`<span class="image">${linkTo(target, label, `Open image ${destination}`)}</span>`
    : html`<span class="image" title=${`Image not shown: ${destination}`}>${label}</span>`;
}

function checkbox(t: Tokens.Checkbox): TemplateResult {
  return html`<span class="task-mark ${t.checked ? 'done' : ''}" role="img" aria-label=${t.checked ? 'Done' : 'Not done'}>${codicon(t.checked ? 'pass' : 'circle-large')}</span>`;
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
