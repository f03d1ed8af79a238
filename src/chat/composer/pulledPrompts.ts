/**
 * Steered prompts that wait for the agent to ask for them (an agent that
 * pulls steering, connection/steering.ts), each put together for the
 * connection it was steered on: only that connection's agent takes it.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { SentAttachment } from '../../shared/attachments';

export interface PulledPrompt {
  /** Its id in the prompt queue. */
  readonly id: number;
  readonly text: string;
  readonly blocks: ContentBlock[];
  /** How the transcript shows what was attached. */
  readonly shown: { attachments?: readonly SentAttachment[] };
}

export class PulledPrompts<Via> {
  private waiting: Array<{ prompt: PulledPrompt; via: Via }> = [];

  get size(): number {
    return this.waiting.length;
  }

  add(prompt: PulledPrompt, via: Via): void {
    this.waiting.push({ prompt, via });
  }

  /** The first `most` waiting, in order, taken; with `via`, only those put together for it (the rest stay). */
  take(most: number, via?: Via): PulledPrompt[] {
    const taken: PulledPrompt[] = [];
    this.waiting = this.waiting.filter((w) => {
      if (taken.length >= most || (via !== undefined && w.via !== via)) return true;
      taken.push(w.prompt);
      return false;
    });
    return taken;
  }
}
