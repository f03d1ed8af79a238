/**
 * Raw terminal output (ANSI escapes included) as styled text segments. The
 * output is never turned into HTML: segments become text nodes in spans, and
 * colours become class names (theme variables) or CSSOM properties, which the
 * webview's CSP allows where a `style` attribute would not be.
 *
 * The escapes are read here, in one pass with a bounded state, rather than by
 * a library: anser kept every decoration it was told (`ESC[1m` a thousand
 * times is a thousand "bold"s) and copied that list for each later piece of
 * text, so 25,000 characters of `ESC[1m` took 4 GB and minutes.
 */
import { pieceEnd } from '../shared/text-pieces';

export interface Segment {
  text: string;
  /** `fg-red`, `bg-bright-blue`, `bold`, ...: see terminal-output's styles. */
  classes: string;
  /** Colours outside the 16 theme colours, as CSS colours. */
  color?: string;
  background?: string;
}

/** Operating system commands (window titles, hyperlinks, ...): dropped with their text. */
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
/** A control sequence (ECMA-48): parameters, intermediates, the final byte. Disjoint runs: linear. */
const CSI = /\x1b\[([0-?]*)([ -/]*)([@-~])/g;
/** Other escapes and control characters except tab and newline. */
const LEFTOVER_ESCAPES = /\x1b[@-_]?|[\x00-\x08\x0b-\x1f\x7f]/g;
const SGR = /\x1b\[[0-9;]*m/g;

const COLOURS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'] as const;
/** What SGR codes switch on, by code, and what they switch off (22 ends both bold and dim). */
const DECORATION_ON: Readonly<Record<number, string>> = {
  1: 'bold',
  2: 'dim',
  3: 'italic',
  4: 'underline',
  7: 'reverse',
  8: 'hidden',
  9: 'strikethrough',
};
const DECORATION_OFF: Readonly<Record<number, readonly string[]>> = {
  21: ['bold'],
  22: ['bold', 'dim'],
  23: ['italic'],
  24: ['underline'],
  27: ['reverse'],
  28: ['hidden'],
  29: ['strikethrough'],
};

/** One of the 16 theme colours (`red`, `bright-red`) or a CSS colour. */
type Colour = { readonly name: string } | { readonly css: string };

/** The style SGR sequences have set so far: a set of decorations, however often each was asked for. */
interface Pen {
  fg?: Colour;
  bg?: Colour;
  readonly decorations: Set<string>;
}

/** Parses `output` into segments; adjacent text of one style is one segment. */
export function ansiSegments(output: string): Segment[] {
  const text = applyCarriageReturns(output.replace(OSC, ''));
  const pen: Pen = { decorations: new Set() };
  const segments: Segment[] = [];
  let at = 0;
  for (const match of text.matchAll(CSI)) {
    addText(segments, text.slice(at, match.index), pen);
    at = match.index + match[0].length;
    // Only SGR (no private marker, no intermediates, final `m`) is drawn; cursor moves and the like are dropped.
    if (match[3] === 'm' && match[2] === '' && /^[\d;]*$/.test(match[1]!)) applySgr(pen, match[1]!.split(';'));
  }
  addText(segments, text.slice(at), pen);
  return segments;
}

function addText(segments: Segment[], raw: string, pen: Pen): void {
  const text = raw.replace(LEFTOVER_ESCAPES, '');
  if (text === '') return;
  const segment = segmentOf(text, pen);
  const last = segments[segments.length - 1];
  if (
    last &&
    last.classes === segment.classes &&
    last.color === segment.color &&
    last.background === segment.background
  ) {
    last.text += text;
  } else segments.push(segment);
}

/** `text` in the pen's style; reverse swaps the colours (white on black when none is set). */
function segmentOf(text: string, pen: Pen): Segment {
  const reverse = pen.decorations.has('reverse');
  const fg = reverse ? (pen.bg ?? { name: 'black' }) : pen.fg;
  const bg = reverse ? (pen.fg ?? { name: 'white' }) : pen.bg;
  const classes: string[] = [];
  if (fg && 'name' in fg) classes.push(`fg-${fg.name}`);
  if (bg && 'name' in bg) classes.push(`bg-${bg.name}`);
  for (const d of pen.decorations) if (d !== 'reverse') classes.push(d);
  const segment: Segment = { text, classes: classes.join(' ') };
  if (fg && 'css' in fg) segment.color = fg.css;
  if (bg && 'css' in bg) segment.background = bg.css;
  return segment;
}

/** Applies one SGR sequence's parameters, left to right (an empty one is 0: reset). */
function applySgr(pen: Pen, params: readonly string[]): void {
  for (let i = 0; i < params.length; i++) {
    const code = Number(params[i] || 0);
    if (code === 0) {
      pen.fg = pen.bg = undefined;
      pen.decorations.clear();
    } else if (Object.hasOwn(DECORATION_ON, code)) pen.decorations.add(DECORATION_ON[code]!);
    else if (Object.hasOwn(DECORATION_OFF, code)) for (const d of DECORATION_OFF[code]!) pen.decorations.delete(d);
    else if (code === 39) pen.fg = undefined;
    else if (code === 49) pen.bg = undefined;
    else if (code === 38 || code === 48) {
      const [colour, used] = extendedColour(params, i + 1);
      if (colour) pen[code === 38 ? 'fg' : 'bg'] = colour;
      i += used;
    } else {
      const basic = basicColour(code);
      if (basic) pen[basic.ground] = { name: basic.name };
    }
  }
}

/** 30-37 and 90-97 (foreground), 40-47 and 100-107 (background). */
function basicColour(code: number): { ground: 'fg' | 'bg'; name: string } | undefined {
  const bright = code >= 90;
  const base = bright ? code - 60 : code;
  if (base < 30 || base > 47 || base === 38 || base === 39) return undefined;
  const name = COLOURS[base % 10]!;
  return { ground: base < 40 ? 'fg' : 'bg', name: bright ? `bright-${name}` : name };
}

/** `5;n` (the 256-colour palette) or `2;r;g;b` after 38 or 48, and how many parameters it took. */
function extendedColour(params: readonly string[], from: number): [Colour | undefined, number] {
  const byte = (i: number) => {
    const n = Number(params[i]);
    return params[i] !== undefined && params[i] !== '' && Number.isInteger(n) && n >= 0 && n <= 255 ? n : undefined;
  };
  if (params[from] === '5') {
    const index = byte(from + 1);
    if (index === undefined) return [undefined, 2];
    if (index >= 16) return [{ css: paletteColor(index) }, 2];
    return [{ name: index > 7 ? `bright-${COLOURS[index - 8]}` : COLOURS[index]! }, 2];
  }
  if (params[from] === '2') {
    const [r, g, b] = [byte(from + 1), byte(from + 2), byte(from + 3)];
    return r === undefined || g === undefined || b === undefined
      ? [undefined, 4]
      : [{ css: `rgb(${r}, ${g}, ${b})` }, 4];
  }
  return [undefined, params[from] === undefined ? 0 : 1];
}

/**
 * Progress bars redraw a line after `\r`: keep what the line finally shows,
 * plus the colour codes of the overwritten parts so that the style carries on.
 */
function applyCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      if (parts.length === 1) return line;
      let shown = parts.length - 1;
      while (shown > 0 && parts[shown] === '') shown--;
      const carried = parts
        .slice(0, shown)
        .map((p) => (p.match(SGR) ?? []).join(''))
        .join('');
      return carried + parts[shown];
    })
    .join('\n');
}

/** xterm's 256-colour palette above the 16 basic colours: a 6x6x6 cube, then 24 greys. */
export function paletteColor(index: number): string {
  if (index >= 232) {
    const grey = 8 + (index - 232) * 10;
    return `rgb(${grey}, ${grey}, ${grey})`;
  }
  const cube = index - 16;
  const level = (n: number) => (n === 0 ? 0 : 55 + n * 40);
  return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
}

/** `segments` split where text-pieces.ts cuts their text (a segment across a cut is split in two). */
export function inPieces(segments: readonly Segment[]): Segment[][] {
  const text = segments.map((s) => s.text).join('');
  const cuts: number[] = [];
  for (let end = pieceEnd(text, 0); end !== undefined; end = pieceEnd(text, end)) cuts.push(end);
  const pieces: Segment[][] = [[]];
  let offset = 0;
  for (const segment of segments) {
    let rest = segment;
    for (; cuts.length > 0 && offset + rest.text.length > cuts[0]!; cuts.shift(), pieces.push([])) {
      const at = cuts[0]! - offset;
      if (at > 0) pieces[pieces.length - 1]!.push({ ...rest, text: rest.text.slice(0, at) });
      rest = { ...rest, text: rest.text.slice(at) };
      offset += at;
    }
    if (rest.text) pieces[pieces.length - 1]!.push(rest);
    offset += rest.text.length;
  }
  return pieces;
}
