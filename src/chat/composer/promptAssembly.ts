/**
 * A prompt put together to be sent: its text, then its attachments read
 * again and turned into blocks the agent accepts (promptBlocks.ts). When
 * that fails, nothing is sent and nothing is lost: the text goes back to the
 * composer and every attachment to the chat's draft, with the reason on each
 * chip that failed.
 */
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { DraftAttachment, DraftAttachments } from '../../attachments/draftAttachments';
import { buildPrompt, type PromptQuirks } from '../../attachments/promptBlocks';
import type { SentAttachment } from '../../shared/attachments';
import type { ChatTranscript } from '../chatTranscript';
import type { PendingPrompt } from './pendingPrompt';

export interface AssembledPrompt {
  readonly blocks: ContentBlock[];
  /** The attachments as the sent prompt shows them. */
  readonly sent: readonly SentAttachment[];
}

export class PromptAssembly {
  /** Attachments are being read: a Send now hands its text back. */
  private busy = false;

  constructor(
    private readonly attachments: DraftAttachments,
    private readonly pending: PendingPrompt,
    private readonly transcript: ChatTranscript,
    private readonly changed: () => void,
  ) {}

  get preparing(): boolean {
    return this.busy;
  }

  /**
   * The blocks for `text` and `attached`; undefined when it cannot go (said
   * in the chat), or when `current()` no longer holds once they are read
   * (the chat disconnected meanwhile): both put everything back.
   */
  async assemble(
    text: string,
    attached: readonly DraftAttachment[],
    capabilities: PromptCapabilities | undefined,
    quirks: PromptQuirks,
    /** The folders the agent was given: a file in one can go as a link. */
    roots: readonly string[],
    current: () => boolean,
  ): Promise<AssembledPrompt | undefined> {
    if (attached.length === 0) return { blocks: [{ type: 'text', text }], sent: [] };
    this.busy = true;
    this.changed();
    let built: ReturnType<typeof buildPrompt>;
    try {
      const read = await this.attachments.prepare(attached, roots);
      built = read.ok ? buildPrompt(text, read.attachments, capabilities, quirks) : read;
    } finally {
      this.busy = false;
    }
    if (built.ok && current()) {
      this.changed();
      return { blocks: built.blocks, sent: built.sent };
    }
    this.attachments.putBack(attached, built.ok ? undefined : built.errors);
    this.pending.handBack(text);
    if (!built.ok) {
      const one = built.errors.size === 1;
      this.transcript.notice(
        'error',
        `The prompt was not sent: ${one ? 'an attachment' : `${built.errors.size} attachments`} cannot go to this agent (the reason is on ${one ? 'its chip' : 'their chips'}). Your text and attachments are back in the composer.`,
      );
    }
    this.changed();
    return undefined;
  }
}
