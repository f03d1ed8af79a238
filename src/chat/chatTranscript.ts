/**
 * A chat's transcript: the pure reducer's state, kept within its bound in
 * memory (an Archive), with warnings held back while a turn streams
 * (a notice inside an answer would split it) and entry ids unique across
 * chats (the chat's id is their prefix).
 */
import type { RequestPermissionRequest, SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionSetup } from '../shared/sessionControls';
import type { Entry, NoticeAction, NoticeLevel, Thread, ToolEntry } from '../shared/thread/thread';
import type { Continuation } from '../session/sessionOpen';
import { emptyThread } from '../shared/thread/thread';
import { findTool, reduceThread, type ThreadAction } from '../shared/thread/threadReducer';
import type { EditorCall } from '../shared/editorCalls';

type TerminalAction = Extract<ThreadAction, { type: 'terminal' }>;
import { titleText } from '../shared/text/titleText';

/** A saved chat's title: the agent's, or the user's (`byUser`: the agent's titles no longer replace it). */
export interface SavedTitle {
  readonly text?: string;
  readonly byUser?: boolean;
}

/** Where the oldest entries of a long chat go when they leave memory (views/transcriptArchive.ts keeps them on disk). */
export interface Archive {
  /** `thread` after `action`, within the bound: past it, the oldest entries are kept elsewhere and replaced by a notice. */
  keepWithinBound(thread: Thread, action: ThreadAction): Thread;
  /** Shows what was moved out (one part, or a pick of them). */
  open(): Promise<void>;
  /** Forgets and deletes what was moved out (the chat was cleared). */
  clear(): void;
  dispose(): void;
}
import { redactor } from '../secrets/redactor';
import { MAX_RUN } from '../shared/thread/entryRuns';
import { TranscriptRedaction } from '../secrets/transcriptRedaction';

export class ChatTranscript {
  private state: Thread = emptyThread;
  private nextId = 0;
  private heldWarnings: string[] = [];
  private warningsLeftOut = 0;
  private ended = false;
  /** Secrets never reach the transcript, nor anything made from it. */
  private readonly redaction = new TranscriptRedaction(redactor);

  constructor(
    private readonly idPrefix: string,
    private readonly archive: Archive,
    private readonly onChange: () => void,
  ) {}

  get value(): Thread {
    return this.state;
  }

  get running(): boolean {
    return this.state.turn === 'running';
  }

  /** The user's or the agent's title for the session, else the start of the first prompt, else nothing yet. */
  get title(): string | undefined {
    if (this.state.title) return this.state.title;
    const first = this.state.entries.find((e) => e.kind === 'user');
    return first?.kind === 'user' ? titleText(first.text, 80) || undefined : undefined;
  }

  /** Starts from a saved transcript (the chat opens with it at once, before any agent answers). */
  seed(entries: readonly Entry[], terminals: Thread['terminals'], title?: SavedTitle): void {
    this.redaction.release();
    const titled = title?.text ? { title: title.text, ...(title.byUser ? { titleByUser: true } : {}) } : {};
    this.state = { ...emptyThread, entries, terminals, ...titled };
    this.onChange();
  }

  newId(): string {
    return `${this.idPrefix}e${++this.nextId}`;
  }

  dispatch(action: ThreadAction): void {
    if (this.ended) return;
    for (const kept of this.redaction.apply(action, this.state)) {
      this.state = this.archive.keepWithinBound(reduceThread(this.state, kept), kept);
    }
    if (!this.running && this.heldWarnings.length > 0) {
      this.warningsLeftOut = 0;
      for (const text of this.heldWarnings.splice(0)) {
        this.state = reduceThread(this.state, { type: 'notice', id: this.newId(), level: 'warning', text });
      }
    }
    this.onChange();
  }

  notice(level: NoticeLevel, text: string, action?: NoticeAction): void {
    this.dispatch({ type: 'notice', id: this.newId(), level, text, ...(action ? { action } : {}) });
  }

  /** A warning now, or after the running turn. */
  warn(text: string): void {
    if (!this.running) return this.notice('warning', text);
    // Held within a run's bound (entryRuns.ts): the newest takes the last place, and says how many it replaced.
    if (this.heldWarnings.length < MAX_RUN) return void this.heldWarnings.push(text);
    this.warningsLeftOut++;
    this.heldWarnings[MAX_RUN - 1] =
      `${text} (${this.warningsLeftOut.toLocaleString('en-US')} more warnings before this one are not shown)`;
  }

  /** An update of the chat's live session. */
  update(update: SessionUpdate): void {
    this.dispatch({ type: 'update', id: this.newId(), update });
  }

  /** Output, or the exit, of a terminal the agent runs. */
  /** The agent asked the editor server something: listed under the turn's answer. */
  editorCall(call: EditorCall): void {
    this.dispatch({ type: 'editorCall', id: this.newId(), call });
  }

  terminal(terminalId: string, change: { data: string } | { exit: NonNullable<TerminalAction['exit']> }): void {
    this.dispatch({ type: 'terminal', id: this.newId(), terminalId, ...change });
  }

  /** The title of tool call `toolCallId` as the transcript shows it, when it has one. */
  toolTitle(toolCallId: string): string | undefined {
    const tool = this.state.entries[findTool(this.state, toolCallId)];
    return tool?.kind === 'tool' ? tool.title : undefined;
  }

  /**
   * A session was opened for the chat: its controls, then how an earlier
   * session was continued (and the state its replay brought), said in the
   * transcript.
   */
  sessionOpened(setup: SessionSetup, continuation: Continuation | undefined): void {
    // Controls first: subscribing replays buffered updates (commands sent
    // before the session/new response), which must land on top of them.
    this.dispatch({ type: 'sessionStarted', id: this.newId(), setup });
    if (continuation?.how === 'new') {
      this.notice(
        'warning',
        `This is a new session: ${continuation.why}. The agent does not remember the conversation above.`,
      );
    } else if (continuation && continuation.how !== 'forked') {
      for (const update of continuation.state) this.dispatch({ type: 'update', id: this.newId(), update });
      this.notice('info', `The session continues (${continuation.how} by the agent).`);
    }
  }

  /**
   * The tool call a permission request is about, as the thread has it after
   * taking the request's call as an update like any other (as in Zed): a call
   * first seen here (Gemini CLI, Codex's commands) is shown, and what it adds
   * (OpenCode's diff) stays on the card. `show` false: not shown (a flood).
   */
  permissionAsked(toolCall: RequestPermissionRequest['toolCall'], show: boolean): ToolEntry | undefined {
    if (show) {
      this.dispatch({ type: 'update', id: this.newId(), update: { sessionUpdate: 'tool_call_update', ...toolCall } });
    }
    const tool = this.state.entries[findTool(this.state, toolCall.toolCallId)];
    return tool?.kind === 'tool' ? tool : undefined;
  }

  /** Empties the transcript (what was moved out of memory goes too); the session's controls and commands stay. */
  clear(): void {
    // Text held back from the transcript before it was cleared is not shown after.
    this.redaction.release();
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
