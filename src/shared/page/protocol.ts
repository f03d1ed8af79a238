/**
 * The host <-> webview protocol: one zod union per direction. Both sides
 * parse what they receive and drop (and log) what does not fit.
 */
import { z } from 'zod/mini';
import { permissionPromptSchema } from '../permissions';
import { elicitationViewSchema } from '../elicitation';
import { sessionControlsSchema } from '../sessionControls';

export { emptySessionControls, sessionControlsSchema, type SessionControls } from '../sessionControls';
import { entrySchema, namedPlanSchema, nonNegativeInt, type Entry } from '../thread/thread';
import { attachmentChipSchema, attachmentIconSchema } from '../attachments';
import { changesSchema, noChanges } from '../changes';

export const agentChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** False when its command was not found; `detail` says why. */
  available: z.boolean(),
  detail: z.optional(z.string()),
  /** When it is not installed and this host can install it: what installing runs, in short (only when the user asks). */
  install: z.optional(z.string()),
});
export type AgentChoice = z.infer<typeof agentChoiceSchema>;

/** `reconnecting`: the connection dropped and the chat is trying again on its own. */
export const connectionStateSchema = z.enum(['disconnected', 'connecting', 'reconnecting', 'connected', 'failed']);
export type ConnectionState = z.infer<typeof connectionStateSchema>;

/** Text of a prompt that was not sent, handed back to the composer (kept until it says it took it). */
export const returnedDraftSchema = z.object({ id: z.int(), text: z.string() });

/**
 * A prompt sent while a turn ran, waiting for it to end (src/chat/composer/promptQueue.ts); `attachments`: how many go with it;
 * `steering`: on its way into the running turn (Steer), not yet taken by the agent.
 */
export const queuedPromptSchema = z.object({
  id: z.int(),
  text: z.string(),
  attachments: nonNegativeInt(),
  steering: z.optional(z.boolean()),
});
export type QueuedPromptView = z.infer<typeof queuedPromptSchema>;
export type ReturnedDraft = z.infer<typeof returnedDraftSchema>;

/** A chat's state in the list: what it wants from the user, if anything. */
export const chatMarkerSchema = z.enum(['none', 'running', 'permission', 'question', 'finished', 'failed']);
export type ChatMarker = z.infer<typeof chatMarkerSchema>;

/** A chat whose marker asks for the user: the view's badge and the list's count show these. */
export function wantsUser(marker: ChatMarker): boolean {
  return marker === 'permission' || marker === 'question' || marker === 'finished' || marker === 'failed';
}

/** One open chat's line in the chat list. */
export const chatSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  agentName: z.string(),
  marker: chatMarkerSchema,
  /** One task given to several agents: the list groups its chats under it. */
  group: z.optional(z.string().check(z.maxLength(200))),
});
export type ChatSummary = z.infer<typeof chatSummarySchema>;

/** One chat's state that is not a thread entry. */
export const chatStatusSchema = z.object({
  agents: z.array(agentChoiceSchema),
  selectedAgentId: z.optional(z.string()),
  connection: connectionStateSchema,
  /** The agent's title and version from `initialize`, when connected. */
  agentLabel: z.optional(z.string()),
  turn: z.enum(['idle', 'running']),
  title: z.optional(z.string()),
  plan: z.array(z.object({ content: z.string(), priority: z.string(), status: z.string() })),
  /** The session's plans by id (plan operations), shown above the composer until the agent removes them. */
  plans: z.optional(z.array(namedPlanSchema)),
  controls: sessionControlsSchema,
  /** Permission requests waiting for the user, oldest first. */
  permissions: z.array(permissionPromptSchema),
  /** Questions the agent asked the user (elicitation), oldest first. */
  elicitations: z._default(z.array(elicitationViewSchema).check(z.maxLength(8)), []),
  /** A prompt waiting for the connection, to be sent once connected. */
  pendingPrompt: z.optional(z.string()),
  /** Prompts the agent suggests sending next (promptSuggestions.ts): chips over an empty composer. */
  suggestions: z.optional(z.array(z.string().check(z.maxLength(300))).check(z.maxLength(3))),
  returnedDraft: z.optional(returnedDraftSchema),
  /** Prompts sent while a turn ran, sent in order as turns end. */
  queued: z._default(z.array(queuedPromptSchema).check(z.maxLength(50)), []),
  /** The agent takes a queued prompt into its running turn (Steer): it advertises steering and a turn runs. */
  steers: z._default(z.boolean(), false),
  /** The attachments of the prompt being written, in order. */
  attachments: z._default(z.array(attachmentChipSchema).check(z.maxLength(50)), []),
  /** A prompt's attachments are being read before it is sent. */
  preparing: z._default(z.boolean(), false),
  /** Counts the host's requests to focus the composer: the page focuses it when the count changes. */
  focusComposer: z._default(nonNegativeInt(), 0),
  /** The files the agent changed since the user last kept them (the Changes bar). */
  changes: z._default(changesSchema, noChanges),
  /** The prompt entries whose "Restore files to here" would put files back (this window's turns). */
  checkpoints: z._default(z.array(z.string().check(z.maxLength(256))).check(z.maxLength(10_000)), []),
  /** Follow the agent: on or off; absent where the host cannot offer it (no local workspace files). */
  follow: z.optional(z.boolean()),
  /** The chat's own worktree, where its agent works (issue 49): how it is named, and where it is. */
  worktree: z.optional(
    z.object({ label: z.string().check(z.maxLength(300)), path: z.string().check(z.maxLength(4_096)) }),
  ),
});
export type ChatStatus = z.infer<typeof chatStatusSchema>;

/**
 * The longest unsent text the host keeps for a chat (the page sends no more of it). Here, not in pageMessages.ts: the
 * page imports no value from that file, which would bring classic zod (~75 KB) into its bundle.
 */
export const MAX_DRAFT_CHARS = 100_000;

/** Everything in the view that is not a thread entry: the shown chat's status, and the list of open chats. */
export const viewStatusSchema = z.extend(chatStatusSchema, {
  /** The chat shown; the view names it in every message about a chat. */
  chatId: z.string(),
  chats: z.array(chatSummarySchema),
  /** Restricted Mode (the workspace is not trusted): what that turns off in the chat, said until it is trusted. */
  restricted: z.optional(z.string().check(z.maxLength(1_000))),
  /** The workspace folders' paths: the view shows the paths under them relative to them. */
  roots: z.optional(z.array(z.string().check(z.maxLength(4_096))).check(z.maxLength(64))),
});
export type ViewStatus = z.infer<typeof viewStatusSchema>;

/**
 * A change to the entry list. `append` adds text to a text entry the view
 * already has, so a streamed chunk costs the size of the chunk, not of the
 * message.
 */
/**
 * An entry the view cannot read is shown as an error notice in its place,
 * instead of dropping the whole message: later patches build on this one,
 * so a dropped patch would leave the view stale for the rest of the chat.
 */
const shownEntrySchema = z.catch(entrySchema, ({ input }): Entry => ({
  kind: 'notice',
  id: typeof (input as { id?: unknown })?.id === 'string' ? (input as { id: string }).id : 'unreadable',
  level: 'error',
  text: 'This entry could not be shown: the extension sent something the chat view does not understand (please report it).',
}));

export const entryOpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('set'), index: nonNegativeInt(), entry: shownEntrySchema }),
  /** `fullLength`: the message has grown past what the view is given; its whole length. */
  z.object({
    op: z.literal('append'),
    index: nonNegativeInt(),
    text: z.string(),
    fullLength: z.optional(nonNegativeInt()),
  }),
]);
export type EntryOp = z.infer<typeof entryOpSchema>;

/** One line of the composer's `@` popup. */
export const mentionItemSchema = z.object({
  id: z.string().check(z.maxLength(64)),
  label: z.string().check(z.maxLength(300)),
  detail: z.optional(z.string().check(z.maxLength(2_000))),
  icon: attachmentIconSchema,
});
export type MentionItem = z.infer<typeof mentionItemSchema>;

export const hostMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), status: viewStatusSchema }),
  /**
   * `length` truncates the list first (a new chat sends 0 and no ops).
   * `chatId`: the list is that chat's (the page keeps the lists of the chats
   * in `keep` and drops the others); without it, the shown chat's.
   */
  z.object({
    type: z.literal('entries'),
    length: nonNegativeInt(),
    ops: z.array(entryOpSchema),
    chatId: z.optional(z.string().check(z.maxLength(64))),
    keep: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(8))),
  }),
  /** The answer to the page's `mentionQuery` with the same `requestId`. */
  z.object({
    type: z.literal('mentions'),
    requestId: z.int(),
    items: z.array(mentionItemSchema).check(z.maxLength(100)),
  }),
]);
export type HostMessage = z.infer<typeof hostMessageSchema>;
