/** Markdown code fences around text that may hold backticks of its own (an agent's, a file's). */

/**
 * A fence of backticks longer than any run of them in `text`, and at least `min` long. One pass: spreading every
 * run into Math.max threw RangeError (too many arguments) past about 120,000 runs, as in a file of "`a" lines.
 */
export function fenceFor(text: string, min = 3): string {
  let longest = 0;
  for (let i = text.indexOf('`'); i >= 0; i = text.indexOf('`', i)) {
    const start = i;
    while (text[i] === '`') i++;
    longest = Math.max(longest, i - start);
  }
  return '`'.repeat(Math.max(min, longest + 1));
}
