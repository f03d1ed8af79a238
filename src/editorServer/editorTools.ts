/**
 * The editor server's tools: read-only questions an agent asks of VS Code, each answered as text within the bounds of
 * editorScope.ts and only about the session's folders. The table is the one list: the MCP server (editorMcp.ts)
 * serves what it holds, in the groups the user leaves on.
 */
import * as z from 'zod';
import type { Change, EditorPort, EditorSymbol, LocationKind, Place, Problem } from './editorPort';
import {
  MAX_ARGUMENT_CHARS,
  MAX_ANSWER_CHARS,
  MAX_MESSAGE_CHARS,
  boundedLines,
  cut,
  type EditorScope,
} from './editorScope';

/** The groups the user turns on and off (`vscode-acp.editorServer.*`). */
export const TOOL_GROUPS = ['problems', 'editors', 'symbols', 'navigation', 'changes'] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

export interface ToolAnswer {
  readonly text: string;
  /** The question could not be answered (a path outside the folders, a position past the end): the text says why. */
  readonly isError?: boolean;
  /** What the call was about, as the chat shows the user (src/shared/editorCalls.ts); none for a refusal. */
  readonly look?: Look;
}

/** A call as the user reads it: what it was about (a file, a symbol, how many), and the place it opens. */
export interface Look {
  readonly about: string;
  /** A uri inside the folders, and its line from 1. */
  readonly uri?: string;
  readonly line?: number;
}

/** What the tools are given: the editor's answers and the session's folders. */
export interface ToolContext {
  readonly editor: EditorPort;
  readonly scope: EditorScope;
}

export interface EditorTool {
  readonly name: string;
  readonly group: ToolGroup;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodObject;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer>;
}

/** A refusal or a question that has no answer: said to the agent as an error, never thrown past the tool. */
export class ToolRefusal extends Error {}

const pathArg = z.string().min(1).max(MAX_ARGUMENT_CHARS);
const path = pathArg.describe('A file in the workspace: absolute, or relative to the first workspace folder.');
const position = z.object({
  path,
  line: z.number().int().min(1).max(10_000_000).describe('Line, from 1.'),
  character: z.number().int().min(1).max(10_000_000).describe('Column, from 1 (a character of the symbol).'),
});

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2, hint: 3 } as const;

async function resolve(context: ToolContext, text: string): Promise<string> {
  const resolved = await context.scope.resolve(text);
  if (!resolved.ok) throw new ToolRefusal(`${JSON.stringify(cut(text, 200))} cannot be read: ${resolved.why}.`);
  return resolved.uri;
}

/** A place as `path:line:column`, 1-based; one outside the folders is not named. */
function at(context: ToolContext, place: Place): string {
  if (!context.scope.contains(place.uri)) return '(outside the workspace folders)';
  return `${context.scope.show(place.uri)}:${place.line + 1}:${place.character + 1}`;
}

/** A single line of an agent's or a language server's text: whitespace runs as one space, within the bound. */
function oneLine(text: string): string {
  return cut(text.replace(/\s+/g, ' ').trim(), MAX_MESSAGE_CHARS);
}

function problemLine(context: ToolContext, p: Problem): string {
  const code = p.code ? ` ${oneLine(p.code)}` : '';
  const source = p.source ? ` (${oneLine(p.source)})` : '';
  return `${at(context, p)}: ${p.severity}${code}: ${oneLine(p.message)}${source}`;
}

function counted(n: number, one: string): string {
  return `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
}

const problems: EditorTool = {
  name: 'problems',
  group: 'problems',
  title: 'Problems',
  description:
    "The problems VS Code reports (compiler errors, lint warnings: whatever the user's language extensions find), " +
    'of one file or of the whole workspace, errors first, as `path:line:column: severity code: message (source)`. ' +
    'At most 200; the answer says how many more.',
  input: z.object({ path: path.optional() }),
  async run(args, context) {
    const uri = typeof args.path === 'string' ? await resolve(context, args.path) : undefined;
    const found = (await context.editor.problems(uri))
      .filter((p) => context.scope.contains(p.uri))
      .sort(
        (a, b) =>
          SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.uri.localeCompare(b.uri) || a.line - b.line,
      );
    const where = uri ? context.scope.show(uri) : 'the workspace';
    if (found.length === 0 && uri && !context.editor.inEditor(uri)) {
      return {
        text:
          `No problems known in ${where}: it is not open in an editor, and TypeScript and some other language ` +
          'extensions check only files open in editors. The problems of open files are current.',
        look: { about: `problems in ${where}: not known (not open)`, uri },
      };
    }
    if (found.length === 0) {
      return { text: `No problems in ${where}.`, look: { about: `problems in ${where}: none`, uri } };
    }
    const errors = found.filter((p) => p.severity === 'error').length;
    const first = found[0]!;
    return {
      text: `${counted(found.length, 'problem')} in ${where} (${counted(errors, 'error')}):\n${boundedLines(found, (p) => problemLine(context, p))}`,
      look: {
        about: `problems in ${where}: ${found.length.toLocaleString('en-US')} (${counted(errors, 'error')})`,
        uri: first.uri,
        line: first.line + 1,
      },
    };
  },
};

const selection: EditorTool = {
  name: 'selection',
  group: 'editors',
  title: 'Selection',
  description:
    "The user's selection in the active editor: its file, its range (1-based) and its text as the editor shows it, " +
    'unsaved changes included. The text is cut at 40,000 characters.',
  input: z.object({}),
  async run(_args, context) {
    const s = context.editor.selection();
    if (!s) return { text: 'No text editor is active.' };
    if (!context.scope.contains(s.uri)) return { text: "The active editor's file is outside the workspace folders." };
    const range = `${at(context, s)}-${s.endLine + 1}:${s.endCharacter + 1}${s.dirty ? ' (unsaved changes)' : ''}`;
    const look = { about: `the selection in ${at(context, s)}`, uri: s.uri, line: s.line + 1 };
    if (s.text === '') return { text: `The cursor is at ${range}; nothing is selected.`, look };
    return { text: `Selected at ${range}:\n${cut(s.text, MAX_ANSWER_CHARS)}`, look };
  },
};

const openEditors: EditorTool = {
  name: 'open_editors',
  group: 'editors',
  title: 'Open editors',
  description:
    'The files open in editors: which is active, which have unsaved changes, and the lines in view (1-based).',
  input: z.object({}),
  async run(_args, context) {
    const open = context.editor.openEditors();
    const inside = open.filter((e) => context.scope.contains(e.uri));
    const look = { about: `open editors: ${inside.length.toLocaleString('en-US')}` };
    if (inside.length === 0) return { text: 'No file of the workspace is open in an editor.', look };
    const lines = boundedLines(inside, (e) => {
      const marks = [e.active ? 'active' : '', e.dirty ? 'unsaved changes' : ''].filter(Boolean).join(', ');
      const view = e.visible.map(([from, to]) => `${from + 1}-${to + 1}`).join(', ');
      return `${context.scope.show(e.uri)}${marks ? ` (${marks})` : ''}${view ? `: lines ${view} in view` : ''}`;
    });
    const outside = open.length - inside.length;
    const text = outside > 0 ? `${lines}\n(and ${counted(outside, 'file')} outside the workspace folders)` : lines;
    return { text, look };
  },
};

function symbolLine(context: ToolContext, s: EditorSymbol): string {
  const indent = '  '.repeat(Math.min(s.depth ?? 0, 8));
  const container = s.container && s.depth === undefined ? ` in ${oneLine(s.container)}` : '';
  return `${indent}${oneLine(s.name)} (${s.kind})${container}: ${at(context, s)}`;
}

const symbols: EditorTool = {
  name: 'symbols',
  group: 'symbols',
  title: 'Symbols',
  description:
    "With `path`: that file's outline (classes, functions, members, nested as the language extension gives them). " +
    'With `query`: a search for symbols of that name across the workspace (as Go to Symbol in Workspace). ' +
    'Each as `name (kind): path:line:column`; at most 200.',
  input: z.object({
    path: path.optional(),
    query: z.string().min(1).max(200).optional().describe('A symbol name or part of one, for a workspace search.'),
  }),
  async run(args, context) {
    if (typeof args.path === 'string') {
      const uri = await resolve(context, args.path);
      const found = await context.editor.documentSymbols(uri);
      const look = { about: `outline of ${context.scope.show(uri)}: ${counted(found.length, 'symbol')}`, uri };
      if (found.length === 0) return { text: `No symbols in ${context.scope.show(uri)}.`, look };
      return { text: boundedLines(found, (s) => symbolLine(context, s)), look };
    }
    if (typeof args.query !== 'string') {
      throw new ToolRefusal("Give `path` for a file's outline, or `query` to search.");
    }
    const found = (await context.editor.workspaceSymbols(args.query)).filter((s) => context.scope.contains(s.uri));
    const look = {
      about: `symbols matching ${JSON.stringify(oneLine(cut(args.query, 60)))}: ${found.length.toLocaleString('en-US')}`,
      ...(found[0] ? { uri: found[0].uri, line: found[0].line + 1 } : {}),
    };
    if (found.length === 0) return { text: `No symbol matches ${JSON.stringify(args.query)} in the workspace.`, look };
    return { text: boundedLines(found, (s) => symbolLine(context, { ...s, depth: undefined })), look };
  },
};

/** The position of `args` checked against its file (a line past the end is refused): uri and 0-based line, column. */
async function positionOf(args: Record<string, unknown>, context: ToolContext): Promise<[string, number, number]> {
  const uri = await resolve(context, args.path as string);
  const lines = await context.editor.lineCount(uri);
  if (lines === undefined) throw new ToolRefusal(`${context.scope.show(uri)} cannot be opened.`);
  const line = args.line as number;
  if (line > lines) {
    throw new ToolRefusal(`Line ${line} is past the end of ${context.scope.show(uri)} (${counted(lines, 'line')}).`);
  }
  return [uri, line - 1, (args.character as number) - 1];
}

function placesTool(kind: LocationKind, title: string, description: string): EditorTool {
  return {
    name: kind,
    group: 'navigation',
    title,
    description: `${description} As \`path:line:column\` (1-based); at most 200. Uses the user's language extensions.`,
    input: position,
    async run(args, context) {
      const [uri, line, character] = await positionOf(args, context);
      const found = await context.editor.locations(kind, uri, line, character);
      const where = `${context.scope.show(uri)}:${line + 1}:${character + 1}`;
      const look = placesLook(context, kind, where, found, { uri, line: line + 1 });
      if (found.length === 0) return { text: `No ${title.toLowerCase()} found for the symbol at ${where}.`, look };
      return { text: boundedLines(found, (p) => at(context, p)), look };
    },
  };
}

/** A definition opens where it is (the first, when there are several); references and implementations, where asked. */
function placesLook(
  context: ToolContext,
  kind: LocationKind,
  where: string,
  found: readonly Place[],
  asked: { uri: string; line: number },
): Look {
  const first = found.find((p) => context.scope.contains(p.uri));
  if (kind === 'definition' && first) {
    return { about: `definition at ${where}: ${at(context, first)}`, uri: first.uri, line: first.line + 1 };
  }
  return { about: `${kind} at ${where}: ${found.length.toLocaleString('en-US')}`, ...asked };
}

const hover: EditorTool = {
  name: 'hover',
  group: 'navigation',
  title: 'Hover',
  description:
    "What VS Code shows on hover at a position: the symbol's type or signature and its documentation, as Markdown.",
  input: position,
  async run(args, context) {
    const [uri, line, character] = await positionOf(args, context);
    const parts = (await context.editor.hover(uri, line, character)).filter((p) => p.trim() !== '');
    const where = `${context.scope.show(uri)}:${line + 1}:${character + 1}`;
    const look = { about: `hover at ${where}`, uri, line: line + 1 };
    if (parts.length === 0) return { text: `Nothing to show at ${where}.`, look };
    return { text: cut(parts.join('\n\n---\n\n'), MAX_ANSWER_CHARS), look };
  },
};

const NO_GIT = 'Git is not available here: its extension is off, or the workspace is not a Git repository.';

const changes: EditorTool = {
  name: 'changes',
  group: 'changes',
  title: 'Changes',
  description:
    "The working tree against HEAD, through VS Code's Git: without `path`, the changed files and how; with `path`, " +
    "that file's diff (unified, cut at 40,000 characters).",
  input: z.object({ path: path.optional() }),
  async run(args, context) {
    if (typeof args.path === 'string') {
      const uri = await resolve(context, args.path);
      const diff = await context.editor.diff(uri);
      const look = { about: `changes in ${context.scope.show(uri)}`, uri };
      if (diff === undefined) return { text: NO_GIT, look };
      return { text: diff === '' ? `${context.scope.show(uri)} has no changes.` : cut(diff, MAX_ANSWER_CHARS), look };
    }
    return changedFiles(await context.editor.changes(), context.scope);
  },
};

/** The answer listing `found` (the working tree's changed files; undefined without Git) inside `scope`. */
export function changedFiles(found: readonly Change[] | undefined, scope: EditorScope): ToolAnswer {
  if (found === undefined) return { text: NO_GIT, look: { about: 'changes: no Git' } };
  const inside = found.filter((c) => scope.contains(c.uri));
  const look = { about: `changes: ${counted(inside.length, 'file')}` };
  if (inside.length === 0) return { text: 'No changes against HEAD.', look };
  return { text: boundedLines(inside, (c) => `${c.status}: ${scope.show(c.uri)}`), look };
}

/** The server's name in a session's `mcpServers`: a user's server of this name keeps its own (see serverName). */
export const EDITOR_SERVER_NAME = 'vscode-editor';

/** A name for the editor server that none of the user's servers has. */
export function serverName(taken: ReadonlySet<string>): string {
  let name = EDITOR_SERVER_NAME;
  for (let n = 2; taken.has(name); n++) name = `${EDITOR_SERVER_NAME}-${n}`;
  return name;
}

/** Every tool, in the order they are listed to an agent. */
export const EDITOR_TOOLS: readonly EditorTool[] = [
  problems,
  selection,
  openEditors,
  symbols,
  placesTool('definition', 'Definition', 'Where the symbol at a position is defined (Go to Definition).'),
  placesTool('references', 'References', 'Where the symbol at a position is used (Find All References).'),
  placesTool('implementations', 'Implementations', 'What implements the interface or method at a position.'),
  hover,
  changes,
];

/** Runs `tool`: its refusals and the editor's failures come back as an error answer the agent reads. */
export async function runTool(
  tool: EditorTool,
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<ToolAnswer> {
  try {
    return await tool.run(args, context);
  } catch (error) {
    const why = error instanceof ToolRefusal ? error.message : `VS Code could not answer: ${oneLine(String(error))}`;
    return { text: why, isError: true };
  }
}
