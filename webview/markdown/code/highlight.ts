/**
 * Syntax highlighting of code blocks: `Prism.tokenize` for the tokens, and
 * the elements made here, a `<span class="token ...">` with a text node per
 * coloured token (never Prism's HTML string: the agent's code only ever
 * becomes text nodes, class names come from Prism's grammars).
 *
 * Not Lit templates: Lit marks every value of an array with two comment
 * nodes, so a token cost seven nodes (and a part object each) where two do.
 * In a long transcript that was most of the view's memory (measured: 1.4
 * million of 2 million nodes were Lit's markers, 250 MiB of 440, for 4 MiB of
 * rendered Markdown). Tokens that are not coloured (punctuation, operators:
 * see markdown.styles.ts) get no element at all.
 *
 * Only common languages are bundled, to keep the webview small (C# and
 * Markdown, 11 KB between them, did not make the cut); others are shown
 * without colours.
 */
import './prism-setup';
import Prism from 'prismjs';
import { pieceElement, pieceEnd, textPieces } from '../../shared/text-pieces';
import 'prismjs/components/prism-typescript';
import 'prismjs/components/prism-json';
import 'prismjs/components/prism-bash';
import 'prismjs/components/prism-python';
import 'prismjs/components/prism-diff';
import 'prismjs/components/prism-yaml';
import 'prismjs/components/prism-rust';
import 'prismjs/components/prism-go';
import 'prismjs/components/prism-java';
import 'prismjs/components/prism-c';
import 'prismjs/components/prism-cpp';
import 'prismjs/components/prism-sql';
import { visibleProse } from '../../../src/shared/text/visibleText';
import { showHidden } from '../visible-prose';

/** Fence info names -> Prism grammar names (Prism knows a few aliases itself). */
const aliases: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  node: 'javascript',
  jsonc: 'json',
  json5: 'json',
  sh: 'bash',
  shell: 'bash',
  zsh: 'bash',
  console: 'bash',
  shellsession: 'bash',
  py: 'python',
  python3: 'python',
  yml: 'yaml',
  rs: 'rust',
  golang: 'go',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  h: 'c',
  html: 'markup',
  xml: 'markup',
  svg: 'markup',
  patch: 'diff',
};

/** Display names for the code block header. */
const labels: Record<string, string> = {
  typescript: 'TypeScript',
  javascript: 'JavaScript',
  json: 'JSON',
  bash: 'Shell',
  python: 'Python',
  diff: 'Diff',
  yaml: 'YAML',
  rust: 'Rust',
  go: 'Go',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  sql: 'SQL',
  css: 'CSS',
  markup: 'HTML',
};

export interface Language {
  /** Prism's grammar name, when one is bundled. */
  readonly id?: string;
  /** What the header shows: a known name, else the fence's own word. */
  readonly label: string;
}

/** The language of a fence's info string (`ts title="x"` -> TypeScript). */
export function languageOf(info: string | undefined): Language {
  const word = (info ?? '').trim().split(/\s+/, 1)[0]!.toLowerCase().slice(0, 40);
  const id = Object.hasOwn(aliases, word) ? aliases[word]! : word;
  const known = id !== '' && Object.hasOwn(Prism.languages, id) && typeof Prism.languages[id] === 'object';
  if (!known) return { label: word };
  return { id, label: Object.hasOwn(labels, id) ? labels[id]! : id };
}

/**
 * Highlights a finished code block in one pass, so that multi-line tokens
 * are right: its nodes, for Lit to insert. A block longer than one piece
 * (see text-pieces.ts) is highlighted piece by piece, each piece a block of
 * its own: a token spanning two pieces may be coloured wrongly.
 */
export function highlight(code: string, language: Language): Node {
  const pieces = textPieces(code);
  if (pieces.length === 1) return highlightPart(code, language);
  const out = document.createDocumentFragment();
  for (const piece of pieces) out.append(pieceElement(highlightPart(piece, language)));
  return out;
}

/** One part of a code block, highlighted, with the bidi controls that would reorder it made visible (each part once). */
function highlightPart(code: string, language: Language): Node {
  const grammar = language.id ? Prism.languages[language.id] : undefined;
  if (!grammar) return document.createTextNode(visibleProse(code));
  const out = document.createDocumentFragment();
  append(out, Prism.tokenize(code, grammar));
  return showHidden(out);
}

/** Lines per chunk of a code block that is still streaming. */
const CHUNK_LINES = 40;

/**
 * The chunks of a streaming code block, by offset: each finished one an
 * element, which Lit leaves in place while it is the same; the last one
 * (`full: false`) as it was last shown, kept for when the block completes.
 */
export type ChunkCache = Map<
  number,
  { readonly chunk: string; readonly language?: string; readonly view: Node; readonly full: boolean }
>;

/**
 * Highlights a code block that is still streaming: in chunks of lines, each
 * highlighted once and kept in `cache`, so that a chunk of streamed code
 * costs one chunk of highlighting however long the block is. A token spanning
 * two chunks (a long comment) may be coloured wrongly until the block is
 * finished and highlighted whole. A chunk is a piece (see text-pieces.ts):
 * at most CHUNK_LINES lines and PIECE_CHARS characters.
 */
export function highlightStreaming(code: string, language: Language, cache: ChunkCache): Node[] {
  const parts: Node[] = [];
  let start = 0;
  while (start < code.length) {
    const cached = cache.get(start);
    if (cached?.full && cached.language === language.id && code.startsWith(cached.chunk, start)) {
      parts.push(cached.view);
      start += cached.chunk.length;
      continue;
    }
    const full = firstDefined(afterLines(code, start, CHUNK_LINES), pieceEnd(code, start));
    const end = full ?? code.length;
    const chunk = code.slice(start, end);
    const tokens = highlightPart(chunk, language);
    if (full !== undefined) {
      // A full chunk: it will not change while the block streams on.
      const view = pieceElement(tokens);
      cache.set(start, { chunk, language: language.id, view, full: true });
      parts.push(view);
    } else {
      // The growing last chunk: redone each time.
      cache.set(start, { chunk, language: language.id, view: tokens, full: false });
      parts.push(tokens);
    }
    start = end;
  }
  return parts;
}

/**
 * A finished code block that was streamed as one chunk, that chunk being all
 * of its code: the nodes it was last shown with (one pass over the whole
 * code, as `highlight` would make), so that Lit leaves them in place rather
 * than the block being highlighted and built again. Undefined otherwise.
 */
export function streamedWhole(code: string, language: Language, cache: ChunkCache): Node[] | undefined {
  const only = cache.get(0);
  return only && !only.full && only.chunk === code && only.language === language.id ? [only.view] : undefined;
}

/** The smaller of two offsets, either of which may be undefined. */
function firstDefined(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** The offset just after the `count`-th newline from `start`; undefined when there are fewer. */
function afterLines(text: string, start: number, count: number): number | undefined {
  let at = start;
  for (let i = 0; i < count; i++) {
    const next = text.indexOf('\n', at);
    if (next < 0) return undefined;
    at = next + 1;
  }
  return at;
}

type PrismContent = string | Prism.Token | Array<string | Prism.Token>;

/** Token types that markdown.styles.ts does not colour: their text needs no element. */
const uncoloured = new Set(['punctuation', 'operator']);

function append(parent: Node, content: PrismContent): void {
  if (typeof content === 'string') {
    // Next to a text node (an uncoloured token before it): one node, not two.
    if (parent.lastChild instanceof Text) parent.lastChild.appendData(content);
    else parent.appendChild(document.createTextNode(content));
  } else if (Array.isArray(content)) {
    for (const c of content) append(parent, c);
  } else {
    const aliases = content.alias === undefined ? [] : Array.isArray(content.alias) ? content.alias : [content.alias];
    if (uncoloured.has(content.type) && aliases.every((a) => uncoloured.has(a))) return append(parent, content.content);
    const span = document.createElement('span');
    span.className = ['token', content.type, ...aliases].join(' ');
    append(span, content.content);
    parent.appendChild(span);
  }
}
