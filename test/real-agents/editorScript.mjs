/**
 * The editor server step, the same for every agent: the extension gives each session its own MCP server,
 * `vscode-editor` (over HTTP on 127.0.0.1), and the fake model, asked to check the types in `typed.ts`, calls its
 * `problems` for that file, then its `definition` at the class the file uses, through the agent's own MCP client;
 * VS Code's TypeScript answers both. Then the model fixes the error with the agent's own edit tool (`fix`, per
 * agent) and says what it learned: the error codes the problems answer held and the place the definition answer
 * named, quoted from the answers, so that the test sees them reach the model.
 *
 * Each agent names an MCP tool its own way (Claude Code and Qwen Code `mcp__vscode-editor__problems`, OpenCode and
 * Kilo `vscode-editor_problems`, Gemini CLI `mcp_vscode-editor_problems`, ...): a rule names the tool by a pattern
 * (`toolMatching`, a RegExp source) that each fake matches against the tools the request offers, and where an agent
 * offers MCP tools only on demand, finds it as a model would: Claude Code's ToolSearch, Qwen Code's tool_search and
 * tool_call, Codex's `ALL_TOOLS` in code mode (see each fake).
 */
import * as path from 'node:path';

/** What the user asks (no agent has a rule of its own for it). */
export const EDITOR_MARKER = 'Please check the types in typed.ts';
/** The editor server's tools by pattern: `problems` alone, or after the server's name and any separator. */
export const PROBLEMS_TOOL = '^(?:.*vscode[-_]?editor[^a-z]*)?problems$';
export const DEFINITION_TOOL = '^(?:.*vscode[-_]?editor[^a-z]*)?definition$';

const GREETER = "export class Greeter {\n  greet(): string {\n    return 'hi';\n  }\n}\n";
/** Line 2: a string given to a number (TS2322); `Greeter` starts at column 27. */
const TYPED = "import { Greeter } from './greeter';\nconst count: number = new Greeter().greet();\nexport { count };\n";
const WRONG = 'const count: number';
const RIGHT = 'const count: string';

/** Everything a test needs to know, as plain data (JSON for the extension host). */
export function editorScenario(workspace) {
  return {
    marker: EDITOR_MARKER,
    greeter: { file: path.join(workspace, 'greeter.ts'), content: GREETER },
    typed: { file: path.join(workspace, 'typed.ts'), content: TYPED, fixed: TYPED.replace(WRONG, RIGHT) },
    /** Where the model asks for the definition (1-based): `Greeter` in `new Greeter()`. */
    definitionAt: { line: 2, character: 27 },
    /** The text the model changes, and to what, with the agent's own edit tool. */
    wrong: WRONG,
    right: RIGHT,
  };
}

/**
 * What the model says it learned, from the two answers as the agent gave them back (however it wraps them): the
 * error codes in the problems answer, the first `file:line:column` in the definition answer. (An answer's `isError` is
 * only read when it has neither: Codex's fake judges an output by its words, and "error 2322" is one.)
 */
export function learned(problems, definition) {
  const codes = [...new Set([...problems.text.matchAll(/error (\d+)/g)].map((m) => m[1]))];
  const place = /[\w./-]+\.ts:\d+:\d+/.exec(definition.text)?.[0];
  const quoted = (answer) => `${answer.isError ? 'failed' : 'said'}: ${answer.text.slice(0, 200)}`;
  const said = codes.length
    ? `typed.ts has error ${codes.join(', ')}`
    : `no error code in problems (${quoted(problems)})`;
  const where = place ? `Greeter is defined at ${place}` : `no place for Greeter (${quoted(definition)})`;
  return `VS Code says ${said}; ${where}.`;
}

/** The texts the model ends with: after a fix, or after a refused or failed one. */
export const fixedText = (summary) => `${summary} I fixed typed.ts.`;
export const notFixedText = (summary, result) => `${summary} The fix failed: ${result.text.slice(0, 200)}`;

/**
 * The rule of the fake model (of any of the fakes: each takes `toolMatching`, `input` and an `after` that returns the
 * next call): `problems`, then `definition`, then the agent's `fix(summary)` (its edit calls, ending with `fixedText`
 * or `notFixedText`).
 */
export function editorRule(workspace, fix) {
  const s = editorScenario(workspace);
  return {
    marker: s.marker,
    toolMatching: PROBLEMS_TOOL,
    input: { path: 'typed.ts' },
    after: (problems) => ({
      toolMatching: DEFINITION_TOOL,
      input: { path: s.typed.file, ...s.definitionAt },
      after: (definition) => fix(learned(problems, definition), s),
    }),
  };
}
