/**
 * Syntax highlighting of code blocks: `Prism.tokenize` for the tokens, Lit
 * for the elements (never Prism's HTML string). Only common languages are
 * bundled, to keep the webview small (C# and Markdown, 11 KB between them,
 * did not make the cut); others are shown without colours.
 */
import './prism-setup';
import Prism from 'prismjs';
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
import { html, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';

/** Fence info names -> Prism grammar names (Prism knows a few aliases itself). */
const aliases: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  jsonc: 'json', json5: 'json',
  sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', shellsession: 'bash',
  py: 'python', python3: 'python', yml: 'yaml',
  rs: 'rust', golang: 'go', 'c++': 'cpp', cc: 'cpp', cxx: 'cpp', hpp: 'cpp', h: 'c',
  html: 'markup', xml: 'markup', svg: 'markup', patch: 'diff',
};

/** Display names for the code block header. */
const labels: Record<string, string> = {
  typescript: 'TypeScript', javascript: 'JavaScript', json: 'JSON', bash: 'Shell', python: 'Python', diff: 'Diff',
  yaml: 'YAML', rust: 'Rust', go: 'Go', java: 'Java', c: 'C', cpp: 'C++',
  sql: 'SQL', css: 'CSS', markup: 'HTML',
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

/** Highlights a finished code block in one pass, so that multi-line tokens are right. */
export function highlight(code: string, language: Language): unknown[] {
  const grammar = language.id ? Prism.languages[language.id] : undefined;
  if (!grammar) return [code];
  return render(Prism.tokenize(code, grammar));
}

/** Lines per chunk of a code block that is still streaming. */
const CHUNK_LINES = 40;

/** Finished chunks of a streaming code block, by offset. */
export type ChunkCache = Map<number, { readonly chunk: string; readonly language?: string; readonly view: unknown }>;

/**
 * Highlights a code block that is still streaming: in chunks of lines, each
 * highlighted once and kept in `cache`, so that a chunk of streamed code
 * costs one chunk of highlighting however long the block is. A token spanning
 * two chunks (a long comment) may be coloured wrongly until the block is
 * finished and highlighted whole.
 */
export function highlightStreaming(code: string, language: Language, cache: ChunkCache): unknown[] {
  const parts: unknown[] = [];
  let start = 0;
  while (start < code.length) {
    const cached = cache.get(start);
    if (cached && cached.language === language.id && code.startsWith(cached.chunk, start)) {
      parts.push(cached.view);
      start += cached.chunk.length;
      continue;
    }
    const full = afterLines(code, start, CHUNK_LINES);
    const end = full ?? code.length;
    const chunk = code.slice(start, end);
    const tokens = highlight(chunk, language);
    if (full !== undefined) {
      // A full chunk: it will not change while the block streams on.
      const view = guard([chunk], () => tokens);
      cache.set(start, { chunk, language: language.id, view });
      parts.push(view);
    } else {
      parts.push(tokens); // the growing last chunk: redone each time
    }
    start = end;
  }
  return parts;
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

function render(content: PrismContent): unknown[] {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : token(c)));
  return [token(content)];
}

function token(t: Prism.Token): TemplateResult {
  // Class names come from Prism's grammars, never from the agent's text.
  const alias = Array.isArray(t.alias) ? t.alias.join(' ') : t.alias;
  return html`<span class=${alias ? `token ${t.type} ${alias}` : `token ${t.type}`}>${render(t.content)}</span>`;
}
