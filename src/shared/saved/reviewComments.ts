/**
 * Review comments on the agent's change (issue 32): what the user wrote on lines of a file in a chat's Changes bar,
 * the lines as they were then, and where the comment stands. Saved with the chat.
 */
import { z } from 'zod';

export const reviewCommentSchema = z.object({
  id: z.string().max(64),
  /** The file (absolute path). */
  path: z.string().max(4096),
  /** The lines commented on, 0-based, inclusive, as the file was when the comment was written. */
  startLine: z.number().int().nonnegative().max(10_000_000),
  endLine: z.number().int().nonnegative().max(10_000_000),
  /** Those lines' text then: the agent addressed the comment when it changed them. */
  lines: z.string().max(64 * 1024),
  text: z.string().max(64 * 1024),
  /**
   * open: not sent yet; attached: in the prompt being written (Send Comments), not sent yet; sent: that prompt was
   * sent; addressed: the agent changed those lines since it was sent; resolved: the user said so.
   */
  state: z.enum(['open', 'attached', 'sent', 'addressed', 'resolved']),
});
export type ReviewComment = z.infer<typeof reviewCommentSchema>;

/** Most comments a chat keeps. */
export const MAX_REVIEW_COMMENTS = 1000;
