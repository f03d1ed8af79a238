/**
 * The page -> host half of the webview protocol, apart from protocol.ts so
 * that the page, which only sends these (typed), does not carry their
 * schemas: the host parses what the page sends and drops what does not fit.
 */
import { z } from 'zod';
import { MAX_IMAGE_BYTES } from '../attachments';
import { permissionChoiceSchema } from '../permissions';
import { MAX_DRAFT_CHARS } from './protocol';

/**
 * Which chat a message from the view is about: the one the view showed when
 * the user acted (the host may have switched since). Absent: the shown one.
 */
export const chatTargetSchema = z.object({ chatId: z.string().max(64).optional() });

/** Base64 of the largest content pasted or dropped (an image over the 5 MiB limit is refused with its size by the host). */
const MAX_ATTACHED_BASE64 = Math.ceil((MAX_IMAGE_BYTES + 1024) / 3) * 4;

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** Show another open chat. */
  z.object({ type: z.literal('showChat'), chatId: z.string().max(64) }),
  /** Close a chat (its session ends). */
  z.object({ type: z.literal('closeChat'), chatId: z.string().max(64) }),
  /** Rename that chat (the host asks for the name). */
  z.object({ type: z.literal('renameChat'), chatId: z.string().max(64) }),
  z.object({ type: z.literal('selectAgent'), agentId: z.string() }),
  z.object({ type: z.literal('installAgent'), agentId: z.string() }),
  z.object({ type: z.literal('connect') }),
  z.object({ type: z.literal('disconnect') }),
  z.object({ type: z.literal('newChat') }),
  /** Empty text: a prompt of attachments only. */
  z.object({ type: z.literal('prompt'), text: z.string().max(1_000_000) }),
  /** Attach files: a quick pick of open editors and workspace files (a file dialog on this machine). */
  z.object({ type: z.literal('attachFiles') }),
  z.object({ type: z.literal('removeAttachment'), id: z.string().max(64) }),
  /** What `@query` matches (answered by a `mentions` message). */
  z.object({ type: z.literal('mentionQuery'), requestId: z.number().int(), query: z.string().max(500) }),
  /** Attach a line of the last `mentions` answer. */
  z.object({ type: z.literal('attachMention'), id: z.string().max(64) }),
  /** Pasted or dropped from outside VS Code: bytes with a name, no file behind them. */
  z.object({ type: z.literal('attachData'), name: z.string().max(255), base64: z.string().max(MAX_ATTACHED_BASE64) }),
  /** Dragged from the Explorer or an editor tab: workspace file URIs. */
  z.object({ type: z.literal('attachUris'), uris: z.array(z.string().max(8_192)).max(1_000) }),
  z.object({ type: z.literal('cancel') }),
  /** Do not send the pending prompt: hand it back to the composer. */
  z.object({ type: z.literal('cancelPending') }),
  /**
   * A queued prompt's buttons: send it now (stopping the running turn), steer it into the running turn (where the agent
   * takes that), one place earlier, back to the box to edit, or remove it.
   */
  z.object({
    type: z.literal('queued'),
    action: z.enum(['sendNow', 'steer', 'up', 'edit', 'remove']),
    id: z.number().int(),
  }),
  z.object({ type: z.literal('draftTaken'), id: z.number().int() }),
  /** The unsent text in the chat's box (kept by the host so that a window reload brings it back; longer is cut). */
  z.object({ type: z.literal('draft'), chatId: z.string().max(64), text: z.string().max(MAX_DRAFT_CHARS) }),
  /** Restart the agent (a notice's action), continuing the session where it can. */
  z.object({ type: z.literal('restart') }),
  /** The notice of a trimmed chat: open the entries moved out of memory. */
  z.object({ type: z.literal('openEarlier') }),
  z.object({ type: z.literal('openReplaced'), entryId: z.string().max(256) }),
  /** A notice's Sign in: the agent's sign-in, then the session continues. */
  z.object({ type: z.literal('signIn') }),
  /** A failed connect's notice: install the chat's agent, open its setting, or connect again. */
  z.object({ type: z.literal('install') }),
  z.object({ type: z.literal('openSettings') }),
  z.object({ type: z.literal('retry') }),
  /** Restricted Mode's button: VS Code's Workspace Trust editor, where the folder can be trusted. */
  z.object({ type: z.literal('manageTrust') }),
  /** The empty chat's Get Started link: the extension's walkthrough. */
  z.object({ type: z.literal('openWalkthrough') }),
  /** The worktree note's buttons: the chat's worktree applied to the workspace, opened in a window, or discarded. */
  z.object({ type: z.literal('worktree'), action: z.enum(['apply', 'open', 'discard']) }),
  /** A link the user clicked in agent content; the host decides whether and how to open it. */
  z.object({ type: z.literal('openLink'), href: z.string().max(8_192) }),
  /** A tool call location the user clicked; opened only inside a trusted local workspace folder. */
  z.object({
    type: z.literal('openLocation'),
    path: z.string().max(4_096),
    line: z.number().int().positive().optional(),
  }),
  /** A place the editor server answered with, in a workspace not on disk; opened only inside its trusted folders. */
  z.object({
    type: z.literal('openPlace'),
    uri: z.string().max(4_096),
    line: z.number().int().positive().optional(),
  }),
  z.object({ type: z.literal('copyText'), text: z.string().max(16 * 1024 * 1024) }),
  /** Open the whole text of a message the view shows only the start of. */
  z.object({ type: z.literal('openEntry'), entryId: z.string().max(256) }),
  /** A message's Copy: its whole text (the view may have only its start) to the clipboard. */
  z.object({ type: z.literal('copyEntry'), entryId: z.string().max(256) }),
  z.object({ type: z.literal('setConfigOption'), configId: z.string(), value: z.union([z.string(), z.boolean()]) }),
  z.object({ type: z.literal('setMode'), modeId: z.string() }),
  z.object({ type: z.literal('setModel'), modelId: z.string() }),
  z.object({ type: z.literal('answerPermission'), requestId: z.string(), choice: permissionChoiceSchema }),
  /** The Changes bar: open a file's diff, Keep or Undo it (no path: every file). */
  z.object({
    type: z.literal('changes'),
    action: z.enum(['open', 'keep', 'undo']),
    path: z.string().max(4_096).optional(),
  }),
  /** A prompt's "Restore files to here": the files the turns from it on changed, back as before it (after a preview). */
  z.object({ type: z.literal('restoreCheckpoint'), entryId: z.string().max(256) }),
  /** Follow the agent on or off for this chat. */
  z.object({ type: z.literal('setFollow'), on: z.boolean() }),
  /** A prompt's Edit sent (`text`), or Retry (the last prompt, its own text): the conversation goes on from before it. */
  z.object({ type: z.literal('resend'), entryId: z.string().max(256), text: z.string().max(1_000_000) }),
  z.object({ type: z.literal('retryPrompt') }),
  /**
   * The user's answer to an elicitation (`id`, the host's): accept with the form's values (checked again by the
   * host), or a URL the user agreed to open; decline; cancel.
   */
  z.object({
    type: z.literal('answerElicitation'),
    id: z.string().max(64),
    action: z.enum(['accept', 'decline', 'cancel']),
    values: z
      .record(
        z.string().max(200),
        z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(200)).max(200)]),
      )
      .optional(),
  }),
  /** A prompt's Branch from here: a new chat with the conversation up to the end of its turn. */
  z.object({ type: z.literal('branch'), entryId: z.string().max(256) }),
]);
export type WebviewMessage = z.infer<typeof webviewMessageSchema>;
