/**
 * Text an agent names (a tool call's title, a path, a command) shown as it
 * is, not as it would make itself look: bidirectional formatting characters
 * (U+202E shows "gnp.exe" as "exe.png", CVE-2021-42574) are shown as what
 * they are, `⟨U+202E⟩`, and a run of combining marks longer than any script
 * needs (10,000 marks on one letter spill over every line below) keeps its
 * first few and says how many more it had. One pass, linear in the text.
 */

/** Bidi embeddings, overrides and isolates, which reorder what follows them. */
const REORDERING = '\\u202a-\\u202e\\u2066-\\u2069';
/** Bidi marks: they move neutral characters, not words; shown in names, left alone in prose. */
const MARKS = '\\u200e\\u200f\\u061c';
/** Combining marks on one character: Vietnamese stacks two, pointed Hebrew with cantillation four. */
export const MAX_COMBINING = 4;

const IN_NAMES = new RegExp(`[${REORDERING}${MARKS}]|\\p{M}{${MAX_COMBINING + 1},}`, 'gu');
const IN_PROSE = new RegExp(`[${REORDERING}]|\\p{M}{${2 * MAX_COMBINING + 1},}`, 'gu');
/** The same, without the global flag's state: for a test. */
const ANY_IN_PROSE = new RegExp(IN_PROSE.source, 'u');

function shown(found: string, keep: number): string {
  const code = found.codePointAt(0)!;
  if (found.length === 1 && !/\p{M}/u.test(found)) return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  const marks = [...found];
  return `${marks.slice(0, keep).join('')}⟨+${(marks.length - keep).toLocaleString('en-US')} marks⟩`;
}

/** A name as shown: every bidi control visible, combining marks at most MAX_COMBINING to a character. */
export function visibleName(text: string): string {
  return text.replace(IN_NAMES, (found) => shown(found, MAX_COMBINING));
}

/** Prose as shown: the controls that reorder visible, combining marks at most twice MAX_COMBINING to a character. */
export function visibleProse(text: string): string {
  return text.replace(IN_PROSE, (found) => shown(found, 2 * MAX_COMBINING));
}

/** Whether `text` has anything visibleProse would change. */
export function hasHiddenProse(text: string): boolean {
  return ANY_IN_PROSE.test(text);
}
