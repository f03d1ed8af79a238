/**
 * A chat's transcript: the pure reducer's state, kept within its bound in
 * memory (TranscriptArchive), with warnings held back while a turn streams
 * (a notice inside an answer would split it) and entry ids unique across
 * chats (the chat's id is their prefix).
 */
import type { Entry, NoticeLevel, Thread } from '../shared/thread';
import { emptyThread } from '../shared/thread';
import { reduceThread, type ThreadAction } from '../shared/threadReducer';
import { titleText } from '../shared/titleText';
import type { TranscriptArchive } from './transcriptArchive';

export class ChatThread {
  private state: Thread = emptyThread;
  private nextId = 0;
  private heldWarnings: string[] = [];
  private ended = false;

  constructor(private readonly idPrefix: string, private readonly archive: TranscriptArchive, private readonly onChange: () => void) {}

  get value(): Thread {
    return this.state;
  }

  get running(): boolean {
    return this.state.turn === 'running';
  }

  /** The agent's title for the session, else the start of the first prompt, else nothing yet. */
  get title(): string | undefined {
    if (this.state.title) return this.state.title;
    const first = this.state.entries.find((e) => e.kind === 'user');
    return first?.kind === 'user' ? titleText(first.text, 80) || undefined : undefined;
  }

  /** Starts from a saved transcript (the chat opens with it at once, before any agent answers). */
  seed(entries: readonly Entry[], terminals: Thread['terminals'], title?: string): void {
    this.state = { ...emptyThread, entries, terminals, ...(title ? { title } : {}) };
    this.onChange();
  }

  newId(): string {
    return `${this.idPrefix}e${++this.nextId}`;
  }

  dispatch(action: ThreadAction): void {
    if (this.ended) return;
    this.state = this.archive.keepWithinBound(reduceThread(this.state, action), action);
    if (!this.running && this.heldWarnings.length > 0) {
      for (const text of this.heldWarnings.splice(0)) this.state = reduceThread(this.state, { type: 'notice', id: this.newId(), level: 'warning', text });
    }
    this.onChange();
  }

  notice(level: NoticeLevel, text: string): void {
    this.dispatch({ type: 'notice', id: this.newId(), level, text });
  }

  /** A warning now, or after the running turn. */
  warn(text: string): void {
    if (this.running) this.heldWarnings.push(text);
    else this.notice('warning', text);
  }

  /** Empties the transcript (what was moved out of memory goes too); the session's controls and commands stay. */
  clear(): void {
    this.state = { ...emptyThread, controls: this.state.controls, terminals: this.state.terminals };
    this.archive.clear();
    this.onChange();
  }

  openEarlier(): Promise<void> {
    return this.archive.open();
  }

  /** Nothing more is recorded; what was moved out of memory is deleted. */
  dispose(): void {
    this.ended = true;
    this.archive.dispose();
  }
}
