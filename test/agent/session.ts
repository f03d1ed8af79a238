// Per-session state: recorded updates (for session/load), turn selection,
// running turns (for session/cancel), mode and config options.
import type * as acp from '@agentclientprotocol/sdk';
import type { Scenario, Step, Turn } from './scenario';

/** True when `match` is a substring of `text`, or a regex ("re" or "/re/flags") matching it. */
export function turnMatches(match: string, text: string): boolean {
  if (text.includes(match)) return true;
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(match);
  try {
    return slashed ? new RegExp(slashed[1], slashed[2]).test(text) : new RegExp(match).test(text);
  } catch {
    return false;
  }
}

export const NO_TURN_STEPS: Step[] = [{ kind: 'text', text: '(no scripted turn)' }];

export class Session {
  readonly history: acp.SessionUpdate[] = [];
  readonly cwd: string;
  modeId: string | undefined;
  modelId: string | undefined;
  configOptions: acp.SessionConfigOption[] | undefined;
  /** The title the client set (`session/set_title`), if it did. */
  title: string | undefined;
  /** The MCP servers the client gave when this session was last opened (new, load or resume). */
  mcpServers: acp.McpServer[] = [];
  /** The further folders the client gave when this session was last opened (`additionalDirectories`). */
  additionalDirectories: string[] = [];
  /** When it last recorded an update (ISO 8601), for session/list. */
  updatedAt = new Date().toISOString();
  private readonly running = new Set<AbortController>();
  private fallbackUsed = 0;
  /** The message id of this turn's agent message chunks (scenario `messageIds`). */
  messageId: string | undefined;
  /** Messages steered into the running turn and not yet taken by a waitForSteer step. */
  private readonly steered: string[] = [];
  private steerArrived: (() => void) | undefined;

  constructor(
    readonly id: string,
    cwd: string,
    private readonly scenario: Scenario,
    /** Called for each recorded update (the session store, when there is one). */
    private readonly onRecord?: (update: acp.SessionUpdate) => void,
  ) {
    this.cwd = cwd;
    this.modeId = scenario.modes?.currentModeId;
    this.modelId = scenario.models?.currentModelId;
    this.configOptions = scenario.configOptions?.map((option) => ({ ...option }));
  }

  /** Keeps an update for session/load (and in the store). */
  record(update: acp.SessionUpdate): void {
    this.history.push(update);
    this.updatedAt = new Date().toISOString();
    this.onRecord?.(update);
  }

  /** What session/list says of it: the title the client set, else the first prompt's text. */
  info(): acp.SessionInfo {
    const title = this.title ?? this.promptTexts()[0]?.slice(0, 80);
    return {
      sessionId: this.id,
      cwd: this.cwd,
      updatedAt: this.updatedAt,
      ...(title ? { title } : {}),
    };
  }

  /** The text of every prompt so far, oldest first. */
  promptTexts(): string[] {
    return this.history
      .filter(
        (u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'user_message_chunk' }> =>
          u.sessionUpdate === 'user_message_chunk',
      )
      .map((u) => (u.content.type === 'text' ? u.content.text : `[${u.content.type}]`));
  }

  /** The turn for a prompt: first matching turn, else the next unused turn without `match`. */
  pickTurn(promptText: string): Turn {
    const turns = this.scenario.turns;
    const matched = turns.find((turn) => turn.match !== undefined && turnMatches(turn.match, promptText));
    if (matched) return matched;
    const fallbacks = turns.filter((turn: Turn) => turn.match === undefined);
    const next = fallbacks[this.fallbackUsed];
    if (!next) return { steps: NO_TURN_STEPS };
    this.fallbackUsed += 1;
    return next;
  }

  /** Registers a running turn; the returned signal aborts on session/cancel. */
  startTurn(requestSignal?: AbortSignal): { signal: AbortSignal; done: () => void } {
    if (this.scenario.messageIds) this.messageId = `${this.id}/${this.promptTexts().length}`;
    const controller = new AbortController();
    const onRequestAbort = () => controller.abort();
    if (requestSignal?.aborted) controller.abort();
    else requestSignal?.addEventListener('abort', onRequestAbort, { once: true });
    this.running.add(controller);
    const done = () => {
      requestSignal?.removeEventListener('abort', onRequestAbort);
      this.running.delete(controller);
    };
    return { signal: controller.signal, done };
  }

  cancel(): void {
    for (const controller of this.running) controller.abort();
  }

  /** `_session/steering`: false when no turn runs (nothing taken); else the text is recorded as a prompt and waits for waitForSteer. */
  steer(prompt: acp.ContentBlock[]): boolean {
    if (this.running.size === 0) return false;
    for (const content of prompt) this.record({ sessionUpdate: 'user_message_chunk', content });
    this.steered.push(prompt.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'));
    this.steerArrived?.();
    return true;
  }

  /** The next message steered into the turn; undefined when the turn is cancelled first. */
  async nextSteer(signal: AbortSignal): Promise<string | undefined> {
    while (this.steered.length === 0) {
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        this.steerArrived = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return this.steered.shift();
  }

  /**
   * The history a fork at the agent's message `messageId` starts from: up to the end of the turn that sent it
   * (the next prompt); undefined when no message has that id. Without one: all of it.
   */
  historyUpTo(messageId: string | undefined): acp.SessionUpdate[] | undefined {
    if (messageId === undefined) return [...this.history];
    let at = this.history.length - 1;
    while (at >= 0 && (this.history[at] as { messageId?: unknown }).messageId !== messageId) at--;
    if (at < 0) return undefined;
    const next = this.history.findIndex((u, i) => i > at && u.sessionUpdate === 'user_message_chunk');
    return this.history.slice(0, next < 0 ? undefined : next);
  }

  /** Session/new and session/load response fields. */
  setupFields(): { modes?: acp.SessionModeState; configOptions?: acp.SessionConfigOption[]; models?: unknown } {
    const modes =
      this.scenario.modes && this.modeId !== undefined
        ? { ...this.scenario.modes, currentModeId: this.modeId }
        : undefined;
    const models = this.scenario.models && { ...this.scenario.models, currentModelId: this.modelId };
    return {
      ...(modes && { modes }),
      ...(this.configOptions && { configOptions: this.configOptions }),
      ...(models && { models }),
    };
  }
}
