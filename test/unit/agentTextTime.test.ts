/**
 * Every check and scan of text an agent sends takes time linear in its length (issue 45, finding 6). A
 * backtracking regular expression (`/^[^\s@]+@[^\s@]+\.[^\s@]+$/` took 19 s on a 100,000-character elicitation
 * default, in the extension host and again in the webview) or a search that starts over from the beginning for
 * each piece is quadratic: a hostile agent freezes the window with one message. Each entry of CHECKS is fed
 * 100,000 characters (or `chars`) in every shape of SHAPES and its own, and must answer within BOUND_MS each.
 * A new check of agent text is one more entry.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ToolCall } from '@agentclientprotocol/sdk';
import { lineChanges, linesOf } from '../../src/changes/hunks';
import { countLines } from '../../src/changes/lineCounts';
import { diffItems } from '../../src/connection/v2/fileChanges';
import { pathInside } from '../../src/shared/text/pathInside';
import { imageTypeByName } from '../../src/shared/attachments';
import { fenceFor } from '../../src/shared/text/codeFence';
import { checkAnswer, fieldProblem, readElicitationSchema, type ElicitationField } from '../../src/shared/elicitation';
import { sliceLines } from '../../src/shared/text/lines';
import { contentText, replayedAttachment } from '../../src/shared/thread/messageEntries';
import { titleText } from '../../src/shared/text/titleText';
import { capOutput, commandLine, toolEntryFromCall } from '../../src/shared/thread/toolCalls';
import { agentPathInside } from '../../src-node/paths/agentPathText';
import { closeReason } from '../../src-node/bridge/closeReason';
import { StrayLineDetector } from '../../src-node/agentOutput/strayLines';
import { quotedShort, shown } from '../../src-node/terminals/launch/shownText';
import { diffRows } from '../../webview/diff-view/diff-rows';
import { decodeEntities } from '../../webview/markdown/entities';
import { languageOf } from '../../webview/markdown/code/highlight';
import { safeLinkTarget } from '../../webview/markdown/linkTarget';
import { setWorkspaceRoots, shownPath } from '../../webview/shared/shown-path';
import { textPieces } from '../../webview/shared/text-pieces';
import { ansiSegments, inPieces } from '../../webview/terminal-output/ansi-segments';

/**
 * Generous for a loaded 2-core machine: a linear check of 100,000 characters takes from under a millisecond to a
 * few tens (escaping each of them), a quadratic one seconds (the email check took 24 s).
 */
const BOUND_MS = 100;
const CHARS = 100_000;
/** For checks that do real work per line (a diff): 20,000 lines quadratically are seconds still. */
const LINES = 20_000;

interface Check {
  readonly name: string;
  readonly run: (text: string) => unknown;
  /** Shapes that only this check backtracks on, besides SHAPES. */
  readonly shapes?: (n: number) => string[];
  /** How long its input is, when not CHARS: more where 100,000 are too few to tell, fewer where each line is real work. */
  readonly chars?: number;
}

/** `prefix`, `c` repeated, `suffix`: `n` characters in all. */
const run = (n: number, c: string, prefix = '', suffix = '') =>
  prefix + c.repeat((n - prefix.length - suffix.length) / c.length) + suffix;

const text = (format?: 'email' | 'uri' | 'date' | 'date-time'): ElicitationField => ({
  kind: 'text',
  name: 'f',
  title: 'F',
  required: true,
  minLength: 1,
  maxLength: 200_000,
  ...(format ? { format } : {}),
});

const CHECKS: readonly Check[] = [
  {
    name: 'elicitation: an email address',
    run: (t) => fieldProblem(text('email'), t),
    shapes: (n) => [run(n, '.', 'a@'), run(n, '.', 'a@', ' '), run(n, '.', 'a@b', '@'), run(n, 'a@')],
  },
  {
    name: 'elicitation: a URI',
    run: (t) => fieldProblem(text('uri'), t),
    shapes: (n) => [run(n, 'b', 'a:', ' '), run(n, '+', 'a', '!')],
  },
  { name: 'elicitation: a date', run: (t) => fieldProblem(text('date'), t) },
  {
    name: 'elicitation: a date and time',
    run: (t) => fieldProblem(text('date-time'), t),
    shapes: (n) => [run(n, '1', '2020-01-01T00:00:00.', 'x')],
  },
  { name: 'elicitation: a length', run: (t) => fieldProblem(text(), t) },
  {
    name: 'elicitation: a form and its defaults',
    run: (t) => {
      const form = readElicitationSchema({
        type: 'object',
        title: t,
        properties: { [t.slice(0, 100)]: { type: 'string', title: t, description: t, format: 'email', default: t } },
      });
      if (form.ok) checkAnswer(form.value.fields, { [t.slice(0, 100)]: t });
    },
  },
  { name: 'a title', run: (t) => titleText(t) },
  {
    name: 'a tool call (title, location, input, content)',
    run: (t) =>
      toolEntryFromCall(
        'x',
        {
          toolCallId: 'x',
          title: t,
          kind: 'execute',
          locations: [{ path: t }],
          rawInput: { command: [t, t] },
          content: [{ type: 'content', content: { type: 'text', text: t } }],
        } as ToolCall,
        undefined,
      ),
  },
  { name: 'a command line', run: (t) => commandLine([t, `'${t}`]) },
  { name: 'terminal output, capped', run: (t) => capOutput(t + t) },
  { name: 'lines of a read', run: (t) => sliceLines(t, 2, 3), chars: LINES },
  {
    name: 'a replayed attachment (resource URI)',
    run: (t) => {
      replayedAttachment({ type: 'resource', resource: { uri: t, text: '' } });
      replayedAttachment({ type: 'resource_link', uri: t, name: t });
      contentText({ type: 'resource_link', uri: t, name: t });
    },
    shapes: (n) => [run(n, '#L1-L', '', 'x'), run(n, '1', '#L1-L', 'x')],
  },
  { name: 'an image name', run: (t) => imageTypeByName(t) },
  {
    name: 'a link target in Markdown',
    run: (t) => safeLinkTarget(t),
    shapes: (n) => [run(n, ' ', 'a', 'a'), run(n, '\u0001', 'a', 'a')],
  },
  { name: 'character references in Markdown', run: (t) => decodeEntities(t), shapes: (n) => [run(n, '&#')] },
  { name: "a code fence's language", run: (t) => languageOf(t) },
  {
    name: 'a shown path',
    run: (t) => {
      setWorkspaceRoots([t, '/w']);
      try {
        return shownPath(`/w/${t}`);
      } finally {
        setWorkspaceRoots([]);
      }
    },
  },
  { name: 'text cut into pieces', run: (t) => textPieces(t), chars: 1_000_000 },
  {
    name: 'terminal output: ANSI escapes',
    run: (t) => inPieces(ansiSegments(t)),
    shapes: (n) => [
      run(n, '\x1b['),
      run(n, '0', '\x1b['),
      run(n, 'a', '\x1b]'),
      run(n, 'a\r'),
      run(n, '\x1b[1m'),
      run(n, '\x1b[1mx'),
      run(n, '1;', '\x1b[', 'mx'),
      run(n, 'x\x1b[2m', `\x1b[${'1;'.repeat(1000)}m`),
      run(n, '\x1b[38;5;1m\r'),
    ],
  },
  { name: 'a code fence around text', run: (t) => fenceFor(t), shapes: (n) => [run(n, '`a'), run(n, '``b')] },
  { name: 'a diff', run: (t) => diffRows(t, `${t}x`), chars: LINES },
  { name: 'line counts of a changed file', run: (t) => countLines(t, `${t}x`), chars: LINES },
  { name: 'a review diff', run: (t) => lineChanges(linesOf(t), linesOf(`${t}x`)), chars: LINES },
  {
    name: 'an ACP v2 file change',
    run: (t) => diffItems({ changes: [{ path: t, operation: t }], patch: { format: 'git_patch', text: t } }),
    shapes: (n) => [run(n, ' a\n', `--- a/x\n+++ b/x\n@@ -1,${n} +1,${n} @@\n`), run(n, '@@ -1 +1 @@\n')],
    chars: LINES,
  },
  {
    name: "an agent's path, as text (Windows and POSIX)",
    run: (t) => [
      agentPathInside(path.win32, `C:\\work\\${t}`, ['C:\\work']),
      agentPathInside(path.win32, t, ['C:\\work']),
      agentPathInside(path.posix, `/work/${t}`, ['/work']),
    ],
    shapes: (n) => [run(n, 'a\\'), run(n, '..\\'), run(n, 'CON.'), run(n, ':')],
  },
  { name: 'a path inside a folder', run: (t) => pathInside(t, t.slice(0, t.length / 2)) },
  { name: 'a command or path in a consent prompt', run: (t) => [shown(t), quotedShort(t)] },
  { name: "the bridge's close reason (an agent's stderr)", run: (t) => closeReason(t) },
  {
    name: "an agent's stray stdout lines",
    run: (t) => {
      const detector = new StrayLineDetector(() => undefined, 8 * 1024 * 1024);
      detector.scan(new TextEncoder().encode(t));
      detector.end();
    },
  },
];

/** Shapes that make backtracking patterns and restarted searches slow: a long run of one character, then no match. */
const SHAPES = (n: number): string[] =>
  [...'a @./\\\n\r\t#[(`*_&:-0|<~\x1b\u00a0\ud800'].flatMap((c) => [
    run(n, c),
    run(n, c, '', '!'),
    run(n, c, '!', '\n!'),
  ]);

/** The time `check` takes on `input`, the best of three when the first is over the bound (a collection of garbage, say). */
function timeOf(check: Check, input: string): number {
  let best = Infinity;
  for (let i = 0; i < 3 && best >= BOUND_MS; i++) {
    const start = performance.now();
    check.run(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('every check of agent text takes time linear in its length', () => {
  for (const check of CHECKS) {
    it(check.name, () => {
      const n = check.chars ?? CHARS;
      check.run('warm up');
      for (const shape of [...SHAPES(n), ...(check.shapes?.(n) ?? [])]) {
        const ms = timeOf(check, shape);
        assert.ok(ms < BOUND_MS, `${Math.round(ms)} ms for ${JSON.stringify(shape.slice(0, 12))}… (${shape.length})`);
      }
    });
  }
});
