/**
 * Raw terminal output (ANSI escapes included) as styled text segments. The
 * output is never turned into HTML: segments become text nodes in spans, and
 * colours become class names (theme variables) or CSSOM properties, which the
 * webview's CSP allows where a `style` attribute would not be.
 */
import Anser from 'anser';
import { pieceEnd } from '../shared/text-pieces';

export interface Segment {
  text: string;
  /** `fg-red`, `bg-bright-blue`, `bold`, ...: see terminal-output's styles. */
  classes: string;
  /** Colours outside the 16 theme colours, as CSS colours. */
  color?: string;
  background?: string;
}

/** Operating system commands (window titles, hyperlinks, ...): anser keeps them as text. */
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g;
/** Whatever anser left: other CSI sequences and control characters except tab and newline. */
const LEFTOVER_ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]?|[\x00-\x08\x0b-\x1f\x7f]/g;
const SGR = /\x1b\[[0-9;]*m/g;
const DECORATIONS = new Set(['bold', 'dim', 'italic', 'underline', 'strikethrough', 'hidden']);

/** Parses `output` into segments; adjacent text of one style is one segment. */
export function ansiSegments(output: string): Segment[] {
  const entries = Anser.ansiToJson(applyCarriageReturns(output.replace(OSC, '')), {
    use_classes: true,
    remove_empty: true,
  });
  const segments: Segment[] = [];
  for (const entry of entries) {
    const text = entry.content.replace(LEFTOVER_ESCAPES, '');
    if (text === '') continue;
    const segment: Segment = { text, classes: classesOf(entry) };
    const color = cssColor(entry.fg, entry.fg_truecolor);
    const background = cssColor(entry.bg, entry.bg_truecolor);
    if (color) segment.color = color;
    if (background) segment.background = background;
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
  return segments;
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

function classesOf(entry: Anser.AnserJsonEntry): string {
  const classes: string[] = [];
  // anser names the 16 colours `ansi-red`, `ansi-bright-red`, ...
  if (entry.fg?.startsWith('ansi-') && isBasic(entry.fg)) classes.push(`fg-${entry.fg.slice(5)}`);
  if (entry.bg?.startsWith('ansi-') && isBasic(entry.bg)) classes.push(`bg-${entry.bg.slice(5)}`);
  for (const d of entry.decorations ?? []) if (DECORATIONS.has(d)) classes.push(d);
  return classes.join(' ');
}

function isBasic(name: string): boolean {
  return !name.startsWith('ansi-palette-') && name !== 'ansi-truecolor';
}

/** 256-colour palette entries and 24-bit colours; the 16 basic ones are classes. */
function cssColor(name: string | null, truecolor: string | null): string | undefined {
  // anser keeps a stale truecolor after the colour changes: trust it only with its class.
  if (name === 'ansi-truecolor' && truecolor) return `rgb(${truecolor})`;
  const palette = name?.match(/^ansi-palette-(\d+)$/);
  return palette ? paletteColor(Number(palette[1])) : undefined;
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
