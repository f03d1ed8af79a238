/**
 * Tool calls as the thread keeps them: content reduced to what the view may
 * show, the input as text, and shell output streamed by agents that run
 * commands themselves (Claude Code, Codex) through `_meta.terminal_*`.
 */
import type { ContentBlock, ToolCall, ToolCallContent, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { DisplayBlock, TerminalState, ToolContent, ToolEntry, ToolStatus } from './thread';
import { cutText, titleText } from '../text/titleText';
import { fileChangeOf } from './fileChanges';
import { leftOutOf } from '../leftOut';

/** The most of a tool's input, and of each text of its content, kept for display. */
export const MAX_INPUT_CHARS = 64 * 1024;
/**
 * A file edit whose old and new text together are longer is not diffed (the
 * view would take seconds) nor kept: only its line counts are.
 */
export const MAX_DIFF_CHARS = 2_000_000;
/** The most shell output kept per terminal; older output is dropped first. */
export const MAX_TERMINAL_CHARS = 1024 * 1024;
/** The longest tool call title kept: it is one line of a card and of a permission prompt (the input shows the rest). */
export const MAX_TOOL_TITLE_CHARS = 1000;
/**
 * Most content items (text, diffs, terminals) and locations of one tool call kept: a card is read, not scrolled
 * through 100,000 rows (one message is at most 32 MiB anyway, so this bounds the count, not the size). Past it, the
 * last item kept says how many more there were.
 */
export const MAX_TOOL_ITEMS = 200;
const MAX_LOCATION_PATH_CHARS = 4096;

/**
 * A call as announced. Announced again, or late (Kilo Code asks permission with the diff, writes, and only then
 * sends `tool_call` without it), it keeps what the entry already showed and the new announcement leaves out: the
 * diffs, the input and the locations the user approved stay in the card.
 */
export function toolEntryFromCall(id: string, call: ToolCall, old: ToolEntry | undefined): ToolEntry {
  const before = old?.content ?? [];
  const locations = locationsOf(call.locations);
  const entry: ToolEntry = {
    kind: 'tool',
    id,
    toolCallId: call.toolCallId,
    title: cutText(call.title, MAX_TOOL_TITLE_CHARS),
    ...nameOf(call.name, old?.name),
    toolKind: call.kind ?? 'other',
    status: call.status ?? 'pending',
    content: keepDiffs(
      keepTerminalOutput(contentOf(call.content ?? [], leftOutOf(call._meta, 'content')), before),
      before,
    ),
    locations: locations.length || !old ? locations : old.locations,
    ...(call.rawInput == null && old?.input !== undefined ? { input: old.input } : inputOf(call.kind, call.rawInput)),
  };
  return applyTerminalMeta(entry, call._meta);
}

export function patchToolEntry(old: ToolEntry, update: ToolCallUpdate): ToolEntry {
  const patched: ToolEntry = {
    ...old,
    ...(update.title != null ? { title: cutText(update.title, MAX_TOOL_TITLE_CHARS) } : {}),
    ...(update.name != null ? nameOf(update.name, old.name) : {}),
    ...(update.kind != null ? { toolKind: update.kind } : {}),
    ...(update.status != null ? { status: update.status as ToolStatus } : {}),
    ...(update.content != null
      ? {
          content: keepDiffs(
            keepTerminalOutput(contentOf(update.content, leftOutOf(update._meta, 'content')), old.content),
            old.content,
          ),
        }
      : {}),
    ...(update.locations != null ? { locations: locationsOf(update.locations) } : {}),
    ...(update.rawInput !== undefined ? inputOf(update.kind ?? old.toolKind, update.rawInput) : {}),
  };
  return applyTerminalMeta(patched, update._meta);
}

/** A tool call first seen in an update or a permission request: what it says, the rest as a new call's defaults. */
export function toolEntryFromUpdate(id: string, update: ToolCallUpdate): ToolEntry {
  const base: ToolEntry = {
    kind: 'tool',
    id,
    toolCallId: update.toolCallId,
    title: 'Tool call',
    toolKind: 'other',
    status: 'pending',
    content: [],
    locations: [],
  };
  return patchToolEntry(base, update);
}

/** The longest tool name kept (an MCP tool's is server and tool: tens of characters). */
const MAX_TOOL_NAME_CHARS = 200;

/** A tool's `name` as kept: one line, bounded; else the one known before, if any. */
function nameOf(name: unknown, before: string | undefined): { name?: string } {
  const kept = typeof name === 'string' ? titleText(name, MAX_TOOL_NAME_CHARS) : '';
  return kept ? { name: kept } : before ? { name: before } : {};
}

function locationsOf(locations: ToolCall['locations']): ToolEntry['locations'] {
  return (locations ?? [])
    .slice(0, MAX_TOOL_ITEMS)
    .map((l) => ({ path: l.path.slice(0, MAX_LOCATION_PATH_CHARS), ...(l.line != null ? { line: l.line } : {}) }));
}

/**
 * A call's content as kept: at most MAX_TOOL_ITEMS items, the last saying how many more the agent sent; `cut`: how
 * many the connection already cut (wireBounds.ts).
 */
function contentOf(items: readonly ToolCallContent[], cut: number): ToolContent[] {
  const sent = items.length + cut;
  if (sent <= MAX_TOOL_ITEMS) return items.map(toolContent);
  const more = sent - (MAX_TOOL_ITEMS - 1);
  return [
    ...items.slice(0, MAX_TOOL_ITEMS - 1).map(toolContent),
    {
      type: 'content',
      block: { type: 'text', text: `${more.toLocaleString('en-US')} more items of this tool call, not shown.` },
    },
  ];
}

/**
 * A content list that replaces a diff with something else (OpenCode ends an
 * edit with its result as text) keeps the diff first: what changed stays in
 * sight. A new diff of the same file replaces the old one.
 */
function keepDiffs(next: ToolContent[], old: readonly ToolContent[]): ToolContent[] {
  next = keepOldTexts(next, old);
  const paths = new Set(next.flatMap((c) => (c.type === 'diff' ? [c.path] : [])));
  const kept = old
    .filter((c) => c.type === 'diff' && !paths.has(c.path))
    .slice(0, Math.max(0, MAX_TOOL_ITEMS - next.length));
  return kept.length ? [...kept, ...next] : next;
}

/**
 * `next` with each diff that came without old text, where `old` has the same edit made against the file as it was
 * when the agent asked (shared/oldTexts.ts: the permission prompt read it), as `old` has it: the card goes on showing
 * what the user approved when the agent sends its diff again.
 */
export function keepOldTexts(next: ToolContent[], old: readonly ToolContent[]): ToolContent[] {
  const read = old.filter((c): c is DiffContent => c.type === 'diff' && c.oldFrom !== undefined);
  if (read.length === 0) return next;
  return next.map((c) => {
    if (!lacksOldText(c)) return c;
    const same = read.find(
      (r) => r.path === c.path && (r.tooLarge ? r.tooLarge.newLines === lineCount(c.newText) : r.newText === c.newText),
    );
    return same ?? c;
  });
}

/** A diff that came without old text, not yet looked at (a structured change or a diff too large has its own say). */
export function lacksOldText(c: ToolContent): c is DiffContent {
  return c.type === 'diff' && c.oldText === null && !c.change && !c.tooLarge && !c.oldFrom;
}

/** A content list that names a terminal again keeps the output already received for it. */
function keepTerminalOutput(next: ToolContent[], old: readonly ToolContent[]): ToolContent[] {
  return next.map((c) => {
    if (c.type !== 'terminal') return c;
    const before = old.find((o) => o.type === 'terminal' && o.terminalId === c.terminalId);
    return before ?? c;
  });
}

interface TerminalMeta {
  terminal_info?: { terminal_id?: unknown };
  terminal_output?: { terminal_id?: unknown; data?: unknown };
  terminal_exit?: { terminal_id?: unknown; exit_code?: unknown; signal?: unknown };
}

/** `_meta.terminal_info` / `terminal_output` / `terminal_exit`: output appended, exit recorded. */
function applyTerminalMeta(entry: ToolEntry, meta: unknown): ToolEntry {
  if (!meta || typeof meta !== 'object') return entry;
  const m = meta as TerminalMeta;
  let next = entry;
  const info = m.terminal_info?.terminal_id;
  if (typeof info === 'string') next = withTerminal(next, info, (t) => t);
  const out = m.terminal_output;
  if (typeof out?.terminal_id === 'string' && typeof out.data === 'string') {
    const data = out.data;
    next = withTerminal(next, out.terminal_id, (t) => ({ ...t, output: capOutput(t.output + data) }));
  }
  const exit = m.terminal_exit;
  if (typeof exit?.terminal_id === 'string') {
    const exitCode = typeof exit.exit_code === 'number' ? exit.exit_code : null;
    const signal = typeof exit.signal === 'string' ? exit.signal : null;
    next = withTerminal(next, exit.terminal_id, (t) => ({ ...t, exitCode, signal }));
  }
  return next;
}

type TerminalContent = Extract<ToolContent, { type: 'terminal' }>;
type DiffContent = Extract<ToolContent, { type: 'diff' }>;

function withTerminal(
  entry: ToolEntry,
  terminalId: string,
  change: (t: TerminalContent) => TerminalContent,
): ToolEntry {
  const index = entry.content.findIndex((c) => c.type === 'terminal' && c.terminalId === terminalId);
  // A terminal named only in `_meta` adds an item: not past the bound (an agent may name a new one at each update).
  if (index < 0 && entry.content.length >= MAX_TOOL_ITEMS) return entry;
  const content = entry.content.slice();
  if (index < 0) content.push(change({ type: 'terminal', terminalId, output: '' }));
  else content[index] = change(content[index] as TerminalContent);
  return { ...entry, content };
}

/** Shows a client terminal's current state in every terminal content block that names it. */
export function showTerminal(entry: ToolEntry, terminalId: string, state: TerminalState): ToolEntry {
  if (!entry.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) return entry;
  return withTerminal(entry, terminalId, (t) => ({
    ...t,
    output: state.output,
    ...(state.exitCode !== undefined ? { exitCode: state.exitCode } : {}),
    ...(state.signal !== undefined ? { signal: state.signal } : {}),
  }));
}

/** Fills terminal blocks from known client terminals (output can start before a tool call names it). */
export function fillTerminals(entry: ToolEntry, terminals: Readonly<Record<string, TerminalState>>): ToolEntry {
  let next = entry;
  for (const c of entry.content) {
    // Own keys only: an agent's terminal id may be "constructor" or "__proto__".
    const state =
      c.type === 'terminal' && c.output === '' && Object.hasOwn(terminals, c.terminalId)
        ? terminals[c.terminalId]
        : undefined;
    if (state && c.type === 'terminal') next = showTerminal(next, c.terminalId, state);
  }
  return next;
}

export function capOutput(text: string): string {
  if (text.length <= MAX_TERMINAL_CHARS) return text;
  let start = text.length - MAX_TERMINAL_CHARS;
  // Do not start in the middle of a surrogate pair.
  if (/[\uDC00-\uDFFF]/.test(text[start])) start++;
  return text.slice(start);
}

function displayBlock(block: ContentBlock): DisplayBlock {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: capText(block.text) };
    case 'image':
      return { type: 'image', mimeType: block.mimeType };
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType };
    case 'resource_link':
      return { type: 'resource', uri: block.uri, name: block.title ?? block.name };
    case 'resource':
      return {
        type: 'resource',
        uri: block.resource.uri,
        name: block.resource.uri,
        ...('text' in block.resource ? { text: capText(block.resource.text) } : {}),
      };
    default:
      return { type: 'text', text: '' };
  }
}

function toolContent(content: ToolCallContent): ToolContent {
  switch (content.type) {
    case 'content':
      return { type: 'content', block: displayBlock(content.content) };
    case 'diff': {
      const carried = fileChangeOf(content._meta);
      if (!carried) return diffContent(content.path, content.oldText ?? null, content.newText);
      const { change, hunks } = carried;
      const oldText = change.operation === 'add' ? null : '';
      return { type: 'diff', path: content.path, oldText, newText: '', change, ...(hunks ? { hunks } : {}) };
    }
    case 'terminal':
      return { type: 'terminal', terminalId: content.terminalId, output: '' };
    default:
      return { type: 'content', block: { type: 'text', text: '' } };
  }
}

export function diffContent(path: string, oldText: string | null, newText: string): ToolContent {
  if ((oldText?.length ?? 0) + newText.length <= MAX_DIFF_CHARS) return { type: 'diff', path, oldText, newText };
  return {
    type: 'diff',
    path,
    oldText: oldText === null ? null : '',
    newText: '',
    tooLarge: { oldLines: lineCount(oldText ?? ''), newLines: lineCount(newText) },
  };
}

/** Lines as an editor counts them: a final newline ends the last line. */
function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** At most MAX_INPUT_CHARS of `text`, saying how much was left out. */
function capText(text: string): string {
  return text.length > MAX_INPUT_CHARS
    ? `${text.slice(0, MAX_INPUT_CHARS)}\n… (${text.length - MAX_INPUT_CHARS} more characters)`
    : text;
}

/** The command line for shell tools, pretty JSON for the rest; capped. */
function inputOf(kind: string | null | undefined, rawInput: unknown): { input?: string } {
  if (rawInput === undefined || rawInput === null) return {};
  const raw = rawInput as { command?: unknown; args?: unknown };
  let text: string;
  if (kind === 'execute' && typeof raw.command === 'string') {
    text = [raw.command, ...(Array.isArray(raw.args) ? raw.args.map(String) : [])].join(' ');
  } else if (kind === 'execute' && isArgv(raw.command)) {
    // Codex sends the command as an argv array (`["bash", "-lc", "npm test"]`).
    text = commandLine(raw.command);
  } else {
    try {
      text = typeof rawInput === 'string' ? rawInput : JSON.stringify(rawInput, null, 2);
    } catch {
      text = String(rawInput);
    }
  }
  return { input: capText(text) };
}

function isArgv(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((a) => typeof a === 'string');
}

/** An argv as a POSIX shell would read it back: words quoted only where they need it. Shown, never run. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
