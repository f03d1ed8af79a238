/**
 * A chat's composer and its prompts: the draft's attachments, a prompt that
 * waits for a connection (shown as pending, handed back to the composer if
 * none comes), prompts sent while a turn runs (queued, sent in order as turns
 * finish, or steered into the running turn where the agent takes that),
 * putting a prompt together, and sending it as a turn (one the Changes bar
 * follows where the host keeps checkpoints).
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { ChatStatus } from '../../shared/page/protocol';
import { DraftAttachments, type DraftAttachment } from '../../attachments/draftAttachments';
import type { ChatChanges } from '../../changes/chatChanges';
import { allRoots } from '../../connection/workRoots';
import type { AttachmentSource } from '../../attachments/prepareAttachment';
import type { PreparedAttachment } from '../../attachments/promptBlocks';
import type { ChatLink, Link } from '../../session/chatLink';
import type { ChatSession } from '../../session/chatSession';
import type { ChatTranscript } from '../chatTranscript';
import type { ChatTurns, TurnTarget } from '../chatTurns';
import { PendingPrompt } from './pendingPrompt';
import { PromptAssembly } from './promptAssembly';
import { PromptQueue, type QueueAction } from './promptQueue';
import { MAX_PULLED, type PullAnswer, type SteerOutcome } from '../../connection/steering';
import { PulledPrompts } from './pulledPrompts';
import { errorMessage } from '../../errorText';

/** What the composer needs of its chat. */
export interface ComposerChat {
  readonly link: ChatLink;
  readonly transcript: ChatTranscript;
  readonly turns: ChatTurns;
  readonly changes: ChatChanges | undefined;
  /** The chat's remembered controls being applied to a new session: the prompt that waited waits for them too. */
  restoring(): Promise<void>;
  closed(): boolean;
  connect(): Promise<boolean>;
  stop(): void;
  changed(): void;
}

export class ChatComposer {
  /** What the user attached to the prompt being written. */
  readonly attachments: DraftAttachments;
  private readonly pending = new PendingPrompt();
  private readonly queue = new PromptQueue();
  /** Steered prompts waiting for an agent that pulls them to ask. */
  private readonly pulls = new PulledPrompts<Link>();
  private readonly assembly: PromptAssembly;
  /** Counts requests to put the caret in this chat's composer (the page acts on a new count). */
  private focusRequests = 0;
  /** The earlier turns, for a new session that is not a fork of the conversation (chat/rewindCut.ts): sent with the next prompt. */
  private context: string | undefined;

  constructor(
    private readonly chat: ComposerChat,
    prepare: (source: AttachmentSource, roots: readonly string[]) => Promise<PreparedAttachment>,
  ) {
    this.attachments = new DraftAttachments(prepare);
    this.attachments.onDidChange(() => chat.changed());
    this.assembly = new PromptAssembly(this.attachments, this.pending, chat.transcript, () => chat.changed());
  }

  /** The composer's part of the chat's status. */
  get status(): Pick<
    ChatStatus,
    'pendingPrompt' | 'returnedDraft' | 'queued' | 'steers' | 'attachments' | 'preparing' | 'focusComposer'
  > {
    return {
      pendingPrompt: this.pending.text,
      returnedDraft: this.pending.draft,
      queued: this.queue.shown,
      steers: this.steerable() !== undefined,
      attachments: this.attachments.chips,
      preparing: this.assembly.preparing,
      focusComposer: this.focusRequests,
    };
  }

  /**
   * Sends a prompt with the chat's attachments. Without a connection it
   * waits, shown as pending, until one is made (this starts connecting when
   * nothing is under way); it is handed back to the composer if connecting
   * fails. While a turn runs it is queued (see PromptQueue).
   */
  async send(text: string): Promise<void> {
    if (this.chat.closed()) return;
    if (text.trim() === '' && this.attachments.count === 0) return;
    if (this.chat.transcript.running) {
      if (this.queue.full) this.pending.handBack(text);
      else this.queue.add(text, this.attachments.takeAll());
      return this.chat.changed();
    }
    if (this.assembly.preparing) {
      // The prompt before is still being put together: this text must not be lost.
      this.pending.handBack(text);
      return this.chat.changed();
    }
    return this.start(text, this.attachments.takeAll());
  }

  /** Sends `text` alone (an edited prompt: the draft's attachments stay in the draft). */
  sendText(text: string): Promise<void> {
    return this.chat.closed() || text.trim() === '' ? Promise.resolve() : this.start(text, []);
  }

  /** The next prompt goes with `context` before it, as text (the earlier turns, for a session that does not have them). */
  giveContext(context: string): void {
    this.context = context;
  }

  /** A prompt to send now: as a turn when connected, else it waits for the connection (which this starts). */
  private async start(text: string, attached: readonly DraftAttachment[]): Promise<void> {
    const c = this.chat.link.current;
    if (c.state === 'connected' && this.pending.text === undefined) return this.prompt(c, text, attached);
    this.pending.add(text, attached);
    this.chat.changed();
    // Connecting already: that attempt sends it.
    await this.chat.connect();
  }

  /** The prompt that waited for a connection, now that there is one. */
  async sendPending(): Promise<void> {
    await this.chat.restoring();
    const c = this.chat.link.current;
    if (c.state !== 'connected' || this.chat.transcript.running) return;
    const waiting = this.pending.take();
    if (waiting !== undefined) await this.prompt(c, waiting.text, waiting.attachments);
  }

  /** No connection is coming for a pending prompt: its text goes back to the composer. */
  giveBackPending(): void {
    this.attachments.putBack(this.pending.giveBack() ?? []);
  }

  /** Asks the page showing this chat to put the caret in its composer (an attachment was added from an editor). */
  focus(): void {
    this.focusRequests++;
    this.chat.changed();
  }

  /** The user cancelled the pending prompt: its text goes back to the composer. */
  cancelPending(): void {
    const attached = this.pending.giveBack();
    if (attached === undefined) return;
    this.attachments.putBack(attached);
    this.chat.changed();
  }

  /** The queued prompts' texts, in order. */
  get queuedTexts(): string[] {
    return this.queue.texts;
  }

  /** Grows with every change of the queue. */
  get queueVersion(): number {
    return this.queue.version;
  }

  /** A queued prompt's Send now (the running turn is stopped first), Steer, Move up, Edit (back to the box) or Remove. */
  async queued(action: QueueAction, id: number): Promise<void> {
    if (action === 'steer') return this.steer(id);
    if (action === 'up') {
      if (this.queue.moveUp(id)) this.chat.changed();
      return;
    }
    if (action === 'sendNow' && this.chat.transcript.running) {
      // It goes first once the turn has ended, however it ends.
      if (!this.queue.putFirst(id)) return;
      this.chat.changed();
      return this.chat.stop();
    }
    const item = this.queue.remove(id);
    if (!item) return;
    if (action === 'sendNow') {
      this.chat.changed();
      return this.start(item.text, item.attachments);
    }
    if (action === 'edit') {
      this.pending.handBack(item.text);
      this.attachments.putBack(item.attachments);
    }
    this.chat.changed();
  }

  /** The connection to steer into: connected, a turn running, and an agent that takes steered messages. */
  private steerable(): Extract<Link, { state: 'connected' }> | undefined {
    const c = this.chat.link.current;
    if (c.state !== 'connected' || !this.chat.transcript.running) return undefined;
    const { client, quirks } = c.session.lease.connection;
    return client.steer || quirks.pullsSteering ? c : undefined;
  }

  /**
   * The agent asks for what was steered (an agent that pulls, steering.ts): the prompts waiting for it go into its
   * turn, shown in the transcript there, and leave the queue.
   */
  pullSteered(): PullAnswer {
    const c = this.chat.link.current;
    const taken = this.pulls.take(MAX_PULLED, c);
    for (const p of taken) {
      this.chat.transcript.dispatch({ type: 'steered', id: this.chat.transcript.newId(), text: p.text, ...p.shown });
      this.queue.steered(p.id, true);
    }
    if (taken.length > 0) this.chat.changed();
    return {
      items: taken.map((p) => ({ content: p.blocks, displayText: p.text })),
      hasQueuedPrompt: this.queue.texts.length > this.pulls.size,
    };
  }

  /** The turn ended: prompts the agent did not ask for wait in the queue again, the first to go next. */
  private unpulled(): void {
    for (const p of this.pulls.take(Infinity)) this.queue.steered(p.id, false);
  }

  /**
   * Steer: queued prompt `id` goes into the running turn. It is shown in the
   * transcript where it goes in (what the agent sends from then on comes
   * after it) and stays queued, marked, until the agent answers: taken, it
   * leaves the queue; not taken (the turn had ended: it goes as the next
   * prompt; refused or failed, said in the chat) it leaves the transcript
   * and waits in the queue as before.
   */
  private async steer(id: number): Promise<void> {
    const c = this.steerable();
    if (!c) return;
    const item = this.queue.steer(id);
    if (!item) return;
    this.chat.changed();
    const current = () => this.chat.link.current === c && !this.chat.closed();
    // Attachments that cannot be read or sent hand the prompt back to the composer (said in the chat).
    const prompt = await this.assemble(c, item.text, item.attachments);
    if (!prompt) return this.queue.steered(id, true);
    const transcript = this.chat.transcript;
    const attachments = prompt.sent.length > 0 ? { attachments: prompt.sent } : {};
    const steer = c.session.lease.connection.client.steer;
    if (!steer) {
      // It waits for the agent to ask; a turn that ended meanwhile takes it as the next prompt.
      if (current() && transcript.running) {
        return this.pulls.add({ id, text: item.text, blocks: prompt.blocks, shown: attachments }, c);
      }
      this.queue.steered(id, false);
      this.chat.changed();
      return this.sendQueued();
    }
    const entryId = transcript.newId();
    transcript.dispatch({ type: 'steered', id: entryId, text: item.text, ...attachments });
    let outcome: SteerOutcome | undefined;
    let failure = '';
    try {
      outcome = await steer(c.session.sessionId, prompt.blocks);
    } catch (error) {
      failure = ` (${errorMessage(error)})`;
    }
    this.queue.steered(id, outcome === 'injected');
    if (outcome !== 'injected') {
      transcript.dispatch({ type: 'steerRefused', entryId });
      if (outcome !== 'noTurn' && current()) {
        transcript.notice('warning', `The agent did not take the message into its answer${failure}. It stays queued.`);
      }
    }
    this.chat.changed();
    await this.sendQueued();
  }

  /** After a turn: the next queued prompt, if the turn finished (or Send now asked for it). */
  private async sendQueued(): Promise<void> {
    const c = this.chat.link.current;
    if (c.state !== 'connected' || this.chat.transcript.running || this.chat.closed()) return;
    const next = this.queue.next(this.chat.turns.lastEnd === 'finished');
    if (!next) return;
    this.chat.changed();
    await this.prompt(c, next.text, next.attachments);
  }

  /** Text for the composer's box (a draft kept over a window reload). */
  handBack(text: string): void {
    this.pending.handBack(text);
    this.chat.changed();
  }

  /** The composer took the text handed back to it. */
  draftTaken(id: number): void {
    if (this.pending.taken(id)) this.chat.changed();
  }

  dispose(): void {
    this.attachments.dispose();
  }

  /** The prompt's blocks for this session's agent; undefined: handed back to the composer (said in the chat). */
  private assemble(c: Extract<Link, { state: 'connected' }>, text: string, attached: readonly DraftAttachment[]) {
    const { init, quirks, roots } = c.session.lease.connection;
    return this.assembly.assemble(
      text,
      attached,
      init.agentCapabilities?.promptCapabilities,
      quirks,
      allRoots(roots),
      () => this.chat.link.current === c && !this.chat.closed(),
    );
  }

  private async prompt(
    c: Extract<Link, { state: 'connected' }>,
    text: string,
    attached: readonly DraftAttachment[],
  ): Promise<void> {
    const chat = this.chat;
    chat.link.endReplay();
    const prompt = await this.assemble(c, text, attached);
    if (!prompt) return;
    const context = this.context;
    this.context = undefined;
    const blocks: ContentBlock[] = context ? [{ type: 'text', text: context }, ...prompt.blocks] : prompt.blocks;
    const run = (ready?: Promise<unknown>) =>
      chat.turns.prompt(turnTarget(c.session), text, blocks, prompt.sent, () => chat.link.current === c, ready);
    // Where the host keeps checkpoints, the turn is one the Changes bar follows.
    const { offered, roots } = c.session.lease.connection;
    if (offered.checkpoints && chat.changes) {
      await chat.changes.follow(run, allRoots(roots), () => chat.turns.lastEnd === 'stopped');
    } else await run();
    this.unpulled();
    await this.sendQueued();
  }
}

/** Where a turn on `session` goes. */
export function turnTarget(session: ChatSession): TurnTarget {
  return { client: session.lease.connection.client, sessionId: session.sessionId };
}
