/**
 * Deterministic text for the benchmark: agent-style Markdown with code
 * blocks, source files to diff, and shell output with ANSI colours. Seeded,
 * so every run (and every machine) measures the same bytes.
 */

/** A small seeded PRNG (mulberry32): the same seed gives the same corpus. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;

const WORDS = (
  'the a to of and in is it that for on with as this be are by we can not from or an if will when should ' +
  'function value state thread entry view message chunk render update patch host agent session tool call file ' +
  'test build error result stream frame layout parser reducer webview protocol cache index list text code ' +
  'returns handles keeps changes reads writes sends checks splits merges updates renders'
).split(' ');
const IDENTS = [
  'thread',
  'entries',
  'patch',
  'view',
  'session',
  'chunk',
  'result',
  'options',
  'index',
  'config',
  'reader',
  'text',
];
const TYPES = ['Thread', 'Entry', 'Patch', 'Session', 'string', 'number', 'boolean', 'Options', 'Result'];

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const between = (rng: Rng, lo: number, hi: number): number => lo + Math.floor(rng() * (hi - lo + 1));

function sentence(rng: Rng): string {
  const words = Array.from({ length: between(rng, 6, 18) }, () => {
    const w = pick(rng, WORDS);
    const r = rng();
    if (r < 0.05) return `\`${pick(rng, IDENTS)}.${pick(rng, IDENTS)}()\``;
    if (r < 0.08) return `**${w}**`;
    if (r < 0.1) return `[${w}](https://example.com/docs/${pick(rng, IDENTS)})`;
    return w;
  });
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

const paragraph = (rng: Rng): string => Array.from({ length: between(rng, 2, 5) }, () => sentence(rng)).join(' ');

/** One plausible line of TypeScript at the given indent. */
function codeLine(rng: Rng, indent: number): string {
  const pad = '  '.repeat(indent);
  const a = pick(rng, IDENTS);
  const b = pick(rng, IDENTS);
  switch (between(rng, 0, 5)) {
    case 0:
      return `${pad}const ${a}${between(rng, 1, 9)} = ${b}.get(${between(rng, 0, 99)});`;
    case 1:
      return `${pad}if (${a}.length > ${between(rng, 1, 64)}) return ${b};`;
    case 2:
      return `${pad}${a}.push({ kind: '${pick(rng, WORDS)}', id: \`\${${b}.id}-${between(rng, 1, 99)}\` });`;
    case 3:
      return `${pad}// ${sentence(rng)}`;
    case 4:
      return `${pad}await ${a}.${pick(rng, ['send', 'flush', 'apply', 'update'])}(${b}, ${between(rng, 0, 9)});`;
    default:
      return `${pad}${a} = ${b}.slice(${between(rng, 0, 9)}).map((x: ${pick(rng, TYPES)}) => x);`;
  }
}

/** A source file of roughly `lines` lines: functions with bodies. */
export function sourceFile(rng: Rng, lines: number): string {
  const out: string[] = [`import { ${pick(rng, TYPES)} } from './${pick(rng, IDENTS)}';`, ''];
  while (out.length < lines) {
    out.push(
      `export function ${pick(rng, IDENTS)}${between(rng, 1, 999)}(${pick(rng, IDENTS)}: ${pick(rng, TYPES)}): ${pick(rng, TYPES)} {`,
    );
    for (let i = between(rng, 3, 10); i > 0; i--) out.push(codeLine(rng, 1));
    out.push('}', '');
  }
  return out.join('\n');
}

/** `text` with a few lines changed, inserted and removed: the other side of a diff. */
export function editedFile(rng: Rng, text: string): string {
  const lines = text.split('\n');
  for (let n = between(rng, 2, 6); n > 0; n--) {
    const at = between(rng, 0, lines.length - 1);
    const r = rng();
    if (r < 0.5) lines[at] = codeLine(rng, 1);
    else if (r < 0.8) lines.splice(at, 0, codeLine(rng, 1), codeLine(rng, 1));
    else lines.splice(at, 1);
  }
  return lines.join('\n');
}

function codeBlock(rng: Rng): string {
  const lang = pick(rng, ['ts', 'ts', 'python', 'bash', 'json', '']);
  const body =
    lang === 'bash'
      ? Array.from({ length: between(rng, 2, 6) }, () => `npm run ${pick(rng, IDENTS)} -- --${pick(rng, WORDS)}`).join(
          '\n',
        )
      : Array.from({ length: between(rng, 6, 28) }, () => codeLine(rng, between(rng, 0, 2))).join('\n');
  return '```' + lang + '\n' + body + '\n```';
}

function block(rng: Rng, index: number): string {
  if (index % 7 === 6) return codeBlock(rng);
  const r = rng();
  if (r < 0.1) return `## ${sentence(rng).slice(0, -1)}`;
  if (r < 0.25) return Array.from({ length: between(rng, 2, 6) }, () => `- ${sentence(rng)}`).join('\n');
  if (r < 0.3) return Array.from({ length: between(rng, 2, 4) }, (_, i) => `${i + 1}. ${sentence(rng)}`).join('\n');
  if (r < 0.33) return `> ${paragraph(rng)}`;
  if (r < 0.36) {
    return `| name | value |\n| --- | --- |\n${Array.from({ length: 3 }, () => `| \`${pick(rng, IDENTS)}\` | ${pick(rng, WORDS)} |`).join('\n')}`;
  }
  return paragraph(rng);
}

/** Agent-style Markdown of about `chars` characters (ASCII, so any split point is a character boundary). */
export function markdown(rng: Rng, chars: number): string {
  const blocks: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const b = block(rng, i);
    blocks.push(b);
    length += b.length + 2;
  }
  return blocks.join('\n\n').slice(0, chars);
}

/** Test-runner style output with ANSI colour escapes, as a terminal would capture it. */
export function terminalOutput(rng: Rng, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const ok = rng() > 0.1;
    out.push(
      `  ${ok ? '\x1b[32m✓\x1b[0m' : '\x1b[31m✗\x1b[0m'} ${sentence(rng).slice(0, 60)} \x1b[90m(${between(rng, 1, 400)} ms)\x1b[0m`,
    );
  }
  out.push('', `\x1b[1m${lines} tests\x1b[0m, \x1b[32m${Math.floor(lines * 0.9)} passed\x1b[0m`);
  return out.join('\n');
}

/** `text` split into `count` pieces of (almost) equal length, like a streamed reply. */
export function splitChunks(text: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    text.slice(Math.floor((i * text.length) / count), Math.floor(((i + 1) * text.length) / count)),
  );
}
