/**
 * The thread model: an ordered list of entries that the chat view shows.
 *
 * Schemas are zod so that the webview can parse what the host sends it
 * (it trusts no message it did not check); the TypeScript types are inferred from them.
 * Everything in an entry came from an agent and is untrusted text.
 */
import { z } from 'zod/mini';
import { emptySessionControls, type SessionControls } from '../sessionControls';
import { sentAttachmentSchema } from '../attachments';
import { editorCallsEntrySchema, type EditorCallsEntry } from '../editorCalls';

/** ACP's tool statuses, plus `cancelled` for calls left unfinished when a turn is stopped. */
export const toolStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'failed', 'cancelled']);
export type ToolStatus = z.infer<typeof toolStatusSchema>;

export const planEntrySchema = z.object({
  content: z.string(),
  priority: z.string(),
  status: z.string(),
});
export type PlanEntry = z.infer<typeof planEntrySchema>;

export const namedPlanSchema = z.discriminatedUnion('type', [
  z.object({ id: z.string(), type: z.literal('items'), entries: z.array(planEntrySchema) }),
  z.object({ id: z.string(), type: z.literal('markdown'), markdown: z.string() }),
  z.object({ id: z.string(), type: z.literal('file'), uri: z.string() }),
]);
/** One of the session's plans, by the agent's id (shared/planOperations.ts reads them). */
export type NamedPlan = z.infer<typeof namedPlanSchema>;

/** A count or an index. */
export const nonNegativeInt = () => z.int().check(z.nonnegative());

const textEntry = <K extends string>(kind: K) =>
  z.object({
    kind: z.literal(kind),
    id: z.string(),
    text: z.string(),
    /**
     * Only in the view's copy, when the message is longer than the view is
     * given (entryPatches.ts): its whole length. The whole text opens in an editor.
     */
    fullLength: z.optional(nonNegativeInt()),
    /**
     * The agent's id of the message this text came in (ACP `messageId` on its chunks), at most MAX_MESSAGE_ID_CHARS:
     * chunks of another id start another entry, and an answer's id is where a fork of the session can begin
     * (chat/rewindCut.ts).
     */
    messageId: z.optional(z.string().check(z.maxLength(200))),
  });

/**
 * `attachments`: what went with the prompt (or came with a replayed one), shown as chips, never sent again;
 * `steered`: a message the agent took into its running turn (Steer), where it went in, not a turn of its own.
 */
export const userEntrySchema = z.extend(textEntry('user'), {
  attachments: z.optional(z.array(sentAttachmentSchema).check(z.maxLength(100))),
  steered: z.optional(z.literal(true)),
});
export const assistantEntrySchema = textEntry('assistant');
export const thoughtEntrySchema = textEntry('thought');

/** A content block reduced to what the view may show: text (Markdown), or a named placeholder. */
export const displayBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  /** Images are not loaded into the view (no data: or remote URLs); their type is shown. */
  z.object({ type: z.literal('image'), mimeType: z.string() }),
  z.object({ type: z.literal('audio'), mimeType: z.string() }),
  z.object({ type: z.literal('resource'), uri: z.string(), name: z.string(), text: z.optional(z.string()) }),
]);
export type DisplayBlock = z.infer<typeof displayBlockSchema>;

export const toolContentSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('content'), block: displayBlockSchema }),
  /**
   * A file edit; `oldText` null means a new file. The view computes the unified diff.
   * `tooLarge`: the texts were too long to diff (toolCalls.ts, MAX_DIFF_CHARS) and are
   * not kept; only how many lines each had.
   */
  z.object({
    type: z.literal('diff'),
    path: z.string(),
    oldText: z.nullable(z.string()),
    newText: z.string(),
    tooLarge: z.optional(z.object({ oldLines: nonNegativeInt(), newLines: nonNegativeInt() })),
    /**
     * The agent sent no old text for a file that is there (oldTexts.ts): `disk`, `oldText` is the file as it was when
     * the agent asked; `unknown`, it could not be read here (no new file either way).
     */
    oldFrom: z.optional(z.enum(['disk', 'unknown'])),
    /**
     * A structured change (ACP v2, shared/fileChanges.ts): what happened to the file, its texts not sent
     * (`newText` empty), and its hunks where the agent gave a patch.
     */
    change: z.optional(z.object({ operation: z.string(), oldPath: z.optional(z.string()) })),
    hunks: z.optional(
      z.array(
        z.object({
          oldStart: nonNegativeInt(),
          oldLines: nonNegativeInt(),
          newStart: nonNegativeInt(),
          newLines: nonNegativeInt(),
          lines: z.array(z.string()),
        }),
      ),
    ),
  }),
  /** Shell output (raw, ANSI escapes included) and, once known, how it ended. */
  z.object({
    type: z.literal('terminal'),
    terminalId: z.string(),
    output: z.string(),
    exitCode: z.optional(z.nullable(z.number())),
    signal: z.optional(z.nullable(z.string())),
  }),
]);
export type ToolContent = z.infer<typeof toolContentSchema>;

export const toolLocationSchema = z.object({ path: z.string(), line: z.optional(z.number()) });
export type ToolLocation = z.infer<typeof toolLocationSchema>;

const toolEntryBaseSchema = z.object({
  kind: z.literal('tool'),
  id: z.string(),
  toolCallId: z.string(),
  title: z.string(),
  /** The tool's programmatic name (ACP `name`), where the agent gave one. */
  name: z.optional(z.string()),
  toolKind: z.string(),
  status: toolStatusSchema,
  content: z.array(toolContentSchema),
  locations: z.array(toolLocationSchema),
  /** The tool's input, pretty-printed JSON (the command line for `execute`), capped in size. */
  input: z.optional(z.string()),
});

/** What a subagent did, inside the tool call that started it: its tool calls and its text. */
export const childEntrySchema = z.discriminatedUnion('kind', [
  toolEntryBaseSchema,
  assistantEntrySchema,
  thoughtEntrySchema,
]);
export type ChildEntry = z.infer<typeof childEntrySchema>;

/**
 * `children`: the subagent this call started (Claude Code's Task and Agent tools), newest last, at most
 * MAX_CHILDREN; `childrenCut`: how many older ones were let go to stay within that.
 */
export const toolEntrySchema = z.extend(toolEntryBaseSchema, {
  children: z.optional(z.array(childEntrySchema)),
  childrenCut: z.optional(nonNegativeInt()),
});

export const planSnapshotSchema = z.object({
  kind: z.literal('plan'),
  id: z.string(),
  entries: z.array(planEntrySchema),
});

export const noticeLevelSchema = z.enum(['info', 'warning', 'error']);
/**
 * What a notice offers to do about it: `restart` the agent (continuing the session), `openEarlier` (what a long chat
 * moved out of memory, transcriptBound.ts), `signIn` (the agent refused a prompt until the user signs in); for an agent
 * that could not be reached: `install` it, `openSettings` (its entry in vscode-acp.agents), `retry` connecting;
 * `openReplaced`: the conversation an Edit or Retry went on from, as it was (its `replaced` session, in the history).
 */
export const noticeActionSchema = z.enum([
  'restart',
  'openEarlier',
  'signIn',
  'install',
  'openSettings',
  'retry',
  'openReplaced',
]);
export const noticeEntrySchema = z.object({
  kind: z.literal('notice'),
  id: z.string(),
  level: noticeLevelSchema,
  text: z.string(),
  action: z.optional(noticeActionSchema),
  /** The session `openReplaced` opens (the chat's own, saved in the workspace's history). */
  replaced: z.optional(z.object({ agentId: z.string(), sessionId: z.string() })),
  /** How many notices and compaction boundaries in a row came before this one and are not shown (entryRuns.ts). */
  leftOut: z.optional(nonNegativeInt()),
});

/**
 * Where the agent compacted its context (ACP `compaction_update`, `compaction_summary_chunk`): a boundary in the
 * transcript, at the place of the first update of its id, with the summary of what came before it.
 */
export const compactionEntrySchema = z.object({
  kind: z.literal('compaction'),
  id: z.string(),
  compactionId: z.string(),
  /** `in_progress`, `completed`, `failed`, `cancelled`, or another the agent named. */
  status: z.string(),
  /** The summary's text (Markdown), as far as it came. */
  summary: z.string(),
  error: z.optional(z.string()),
  /** As a notice's: how many of a run before this one are not shown (entryRuns.ts). */
  leftOut: z.optional(nonNegativeInt()),
});

export const entrySchema = z.discriminatedUnion('kind', [
  userEntrySchema,
  assistantEntrySchema,
  thoughtEntrySchema,
  toolEntrySchema,
  planSnapshotSchema,
  noticeEntrySchema,
  compactionEntrySchema,
  editorCallsEntrySchema,
]);

export type Entry = z.infer<typeof entrySchema>;
export type TextEntry = Extract<Entry, { kind: 'user' | 'assistant' | 'thought' }>;
export type NoticeEntry = Extract<Entry, { kind: 'notice' }>;
export type CompactionEntry = Extract<Entry, { kind: 'compaction' }>;
export type ToolEntry = z.infer<typeof toolEntrySchema>;
export type NoticeLevel = z.infer<typeof noticeLevelSchema>;
export type NoticeAction = z.infer<typeof noticeActionSchema>;

export type TurnState = 'idle' | 'running';

/** One chat session's transcript plus the live state that is not an entry. */
export interface Thread {
  readonly entries: readonly Entry[];
  readonly turn: TurnState;
  /** The live plan of the running turn; snapshotted into an entry when the turn ends. */
  readonly plan: readonly PlanEntry[];
  /** The agent's title for the session, or the user's (titleByUser). */
  readonly title?: string;
  /** The user named the chat (Rename): the agent's titles no longer replace it. */
  readonly titleByUser?: boolean;
  /** Config options, modes, models, slash commands and usage of the session. */
  readonly controls: SessionControls;
  /** Output of the terminals the client runs for the agent, by terminal id (tool calls show it). */
  readonly terminals: Readonly<Record<string, TerminalState>>;
  /** The entry that was last when a turn ended: text that arrives later never joins it. */
  readonly sealedEntryId?: string;
  /** The user pressed Stop and the turn has not ended yet: a tool call that fails now was stopped. */
  readonly stopping?: boolean;
  /** What the agent expects the user to send next (promptSuggestions.ts): offered until the next prompt. */
  readonly suggestions?: readonly string[];
  /** The session's plans, by id (planOperations.ts): shown until the agent removes them. */
  readonly plans?: readonly NamedPlan[];
  /** The running turn's calls to the editor server (shared/editorCalls.ts): an entry after the answer when it ends. */
  readonly editorCalls?: EditorCallsEntry;
}

export interface TerminalState {
  readonly output: string;
  readonly exitCode?: number | null;
  readonly signal?: string | null;
}

export const emptyThread: Thread = {
  entries: [],
  turn: 'idle',
  plan: [],
  controls: emptySessionControls,
  terminals: {},
};

export function isTextEntry(entry: Entry): entry is TextEntry {
  return entry.kind === 'user' || entry.kind === 'assistant' || entry.kind === 'thought';
}

/** Exhaustiveness check for discriminated unions. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}
