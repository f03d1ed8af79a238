/**
 * Pending `session/request_permission` requests, oldest first. Each waits for
 * the user: there is no timeout and no silent denial. All of them are
 * answered `cancelled` on Stop, disconnect, a new session, an agent change or
 * when the view goes away.
 */
import { type Disposable, Emitter } from '../shared/events';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk';
import {
  choicesFor,
  optionFor,
  PERMISSION_LABELS,
  type PermissionChoice,
  type PermissionPrompt,
} from '../shared/permissions';
import type { ToolEntry } from '../shared/thread/thread';
import { filesNow, pathsWithoutOldText, withFilesNow, type FileNow } from '../shared/thread/oldTexts';
import { patchToolEntry } from '../shared/thread/toolCalls';
import { redactor } from '../secrets/redactor';
import { WaitingRequests } from './waitingRequests';

interface Pending {
  readonly prompt: PermissionPrompt;
  readonly params: RequestPermissionRequest;
  readonly resolve: (response: RequestPermissionResponse) => void;
}

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/**
 * Requests waiting at once, at most. An agent that asks for more (a thousand
 * at once has been seen from a misbehaving one) gets the rest answered
 * `cancelled` at once, and the transcript says so.
 */
export const MAX_PENDING_PERMISSIONS = 32;

export class PermissionQueue implements Disposable {
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  /** Fires with a line for the transcript: the user answered (info), or requests past the limit were refused (warning). */
  private readonly _onDidSay = new Emitter<{ level: 'info' | 'warning'; text: string }>();
  readonly onDidSay = this._onDidSay.event;
  /** Fires with a prompt's tool call once its edits without old text were made against the files as they are. */
  private readonly _onDidReadOldTexts = new Emitter<ToolEntry>();
  readonly onDidReadOldTexts = this._onDidReadOldTexts.event;
  private readonly pending = new WaitingRequests<Pending, RequestPermissionResponse>(MAX_PENDING_PERMISSIONS, () =>
    this._onDidChange.fire(),
  );
  private nextId = 0;
  /** Counts cancelAll: a request still reading files when it ran is answered cancelled, as the waiting ones were. */
  private generation = 0;

  /** True when the next request would be refused (MAX_PENDING_PERMISSIONS wait already). */
  get full(): boolean {
    return this.pending.full;
  }

  get prompts(): PermissionPrompt[] {
    return this.pending.items.map((p) => p.prompt);
  }

  /**
   * Queues a request; `known` is the tool call as the thread already has it,
   * so the prompt shows everything the agent said about it.
   */
  async request(
    params: RequestPermissionRequest,
    known: ToolEntry | undefined,
    signal: AbortSignal,
    fileNow?: (path: string) => Promise<FileNow>,
  ): Promise<RequestPermissionResponse> {
    if (this.full) {
      // Said once per flood, not once per refused request.
      if (this.pending.refuse()) {
        this._onDidSay.fire({
          level: 'warning',
          text: `The agent asked for more than ${MAX_PENDING_PERMISSIONS} permissions at once: the rest were answered "cancelled".`,
        });
      }
      return CANCELLED;
    }
    const base: ToolEntry = known ?? {
      kind: 'tool',
      id: `p${this.nextId}`,
      toolCallId: params.toolCall.toolCallId,
      title: 'Permission',
      toolKind: 'other',
      status: 'pending',
      content: [],
      locations: [],
    };
    let tool = patchToolEntry(base, params.toolCall);
    // An edit without its old text is shown against the file as it is now (shared/oldTexts.ts).
    const paths = fileNow ? pathsWithoutOldText(tool) : [];
    if (fileNow && paths.length > 0) {
      const generation = this.generation;
      const now = await filesNow(paths, fileNow);
      // Stopped, or the session went, while the files were read: the agent is answered as the others were.
      if (generation !== this.generation || signal.aborted || this.full) return CANCELLED;
      tool = withFilesNow(tool, now);
    }
    // Shown in the view: what the agent sent, with secrets redacted (a command's environment may hold one).
    const prompt: PermissionPrompt = redactor.redactStrings({
      requestId: `perm-${++this.nextId}`,
      tool,
      choices: choicesFor(params.options),
      agentOptions: params.options.map((o) => o.name),
      alwaysScope: params.options.find((o) => o.kind === 'allow_always')?.name,
    });
    if (prompt.tool.content.some((c) => c.type === 'diff' && c.oldFrom)) this._onDidReadOldTexts.fire(prompt.tool);
    // The agent may withdraw it ($/cancel_request or the connection closed).
    return new Promise((resolve) => this.pending.add({ prompt, params, resolve }, signal, CANCELLED));
  }

  answer(requestId: string, choice: PermissionChoice): void {
    const item = this.pending.items.find((p) => p.prompt.requestId === requestId);
    if (!item) return;
    const option = optionFor(item.params.options, choice);
    if (!option) return;
    this._onDidSay.fire({ level: 'info', text: `${PERMISSION_LABELS[choice]}: ${item.prompt.tool.title}` });
    this.pending.settle(item, { outcome: { outcome: 'selected', optionId: option.optionId } });
  }

  cancelAll(): void {
    this.generation++;
    this.pending.settleAll(CANCELLED);
  }

  dispose(): void {
    this.cancelAll();
    this._onDidChange.dispose();
    this._onDidSay.dispose();
    this._onDidReadOldTexts.dispose();
  }
}
