/**
 * ACP v2 (the draft, behind `vscode-acp.protocol.v2`) spoken to the agent while the client above speaks v1: a pair
 * of streams between the SDK's v1 client and the transport that turn each message into the other version's. One
 * place knows v2, and everything above it (sessions, turns, the thread, the Changes bar) stays as it is.
 *
 * Why not the SDK's v2 client: the client would need a second implementation of every operation above, and that
 * client delivers notifications and answers in no fixed order (a resume's state may come after its answer), which a
 * turn's end cannot be read from. What comes from the agent is still checked by the SDK's v1 schema after this.
 *
 * Turns: v2 answers a prompt when it takes it (`{messageId}`) and says the turn ended with a `state_update` that
 * is `idle`. The answer is held until then and given to the client as v1's (`{stopReason}`; a turn that ended in
 * error as the error). Requests: `initialize` (version 2), `authenticate` and `logout` (`auth/login`,
 * `auth/logout`), `session/load` (a resume that replays from the start), config options (typed), MCP servers
 * (typed); answers back in v1's shapes (handshake.ts), updates too (updates.ts).
 */
import type { AnyMessage } from '@agentclientprotocol/sdk';
import {
  commands,
  configOptions,
  defined,
  initializeAnswer,
  initializeRequest,
  isRecord,
  mcpServers,
  permissionRequest,
} from './handshake';
import { UpdatesFromV2 } from './updates';

type Json = Record<string, unknown>;
type Id = string | number;

/** v1's stop reasons; v2 may send others, which v1 says as the end of the turn. */
const V1_STOP_REASONS = new Set(['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled']);
/** JSON-RPC "request cancelled": what v2 answers a prompt held when it is cancelled. */
const REQUEST_CANCELLED = -32800;

interface Turn {
  /** The id of the client's `session/prompt`. */
  readonly id: Id;
  /** The agent took the prompt (its `{messageId}` answer came). */
  answered: boolean;
  /** The agent said it works on it (`running` or `requires_action` since the prompt). */
  working: boolean;
  /** The `idle` that ended it, when that came before the answer. */
  ended?: Json;
}

export class V2Wire {
  /** The version the agent answered `initialize` with: 2, or 1 for an agent that speaks only v1. */
  version: 1 | 2 | undefined;
  private readonly updates = new UpdatesFromV2();
  /** Answers to translate, by the id of the client's request. */
  private readonly answers = new Map<Id, (answer: Json) => Json[]>();
  /** The prompt held per session, until the agent says the turn ended. */
  private readonly turns = new Map<string, Turn>();
  private permissions = 0;

  /** The client's messages, to the agent. */
  readonly outgoing = new TransformStream<AnyMessage, AnyMessage>({
    transform: (message, controller) => controller.enqueue(this.request(message as Json) as AnyMessage),
  });

  /** The agent's messages, to the client. */
  readonly incoming = new TransformStream<AnyMessage, AnyMessage>({
    transform: (message, controller) => {
      for (const out of this.receive(message as Json)) controller.enqueue(out as AnyMessage);
    },
  });

  /** From now on every message passes as it is (the agent speaks v1, and is asked again in v1). */
  speakV1(): void {
    this.version = 1;
    this.answers.clear();
    this.turns.clear();
  }

  private request(message: Json): Json {
    if (this.version === 1) return message;
    const { id, method, params } = message;
    if (typeof method !== 'string' || (typeof id !== 'string' && typeof id !== 'number')) return message;
    const p = isRecord(params) ? params : {};
    switch (method) {
      case 'initialize':
        this.answers.set(id, (answer) => [this.initialized(answer)]);
        return { ...message, params: initializeRequest(p as never) };
      case 'authenticate':
        return { ...message, method: 'auth/login' };
      case 'logout':
        return { ...message, method: 'auth/logout' };
      case 'session/new':
      case 'session/fork':
        this.answers.set(id, (answer) => this.sessionOpened(answer, undefined));
        return { ...message, params: { ...p, mcpServers: mcpServers(p.mcpServers) } };
      case 'session/load':
      case 'session/resume': {
        this.answers.set(id, (answer) => this.sessionOpened(answer, p.sessionId));
        const replay = method === 'session/load' ? { replayFrom: { type: 'start' } } : {};
        return {
          ...message,
          method: 'session/resume',
          params: { ...p, mcpServers: mcpServers(p.mcpServers), ...replay },
        };
      }
      case 'session/set_config_option':
        this.answers.set(id, (answer) => [
          withResult(answer, (r) => ({ ...r, configOptions: configOptions(r.configOptions) ?? [] })),
        ]);
        return { ...message, params: { type: 'id', ...p } };
      case 'session/prompt':
        if (typeof p.sessionId === 'string') this.prompted(id, p.sessionId);
        return message;
      default:
        return message;
    }
  }

  private receive(message: Json): Json[] {
    if (this.version === 1) return [message];
    const { id, method, params } = message;
    if (method === undefined && (typeof id === 'string' || typeof id === 'number')) {
      const translate = this.answers.get(id);
      if (!translate) return [message];
      this.answers.delete(id);
      return translate(message);
    }
    if (method === 'session/request_permission' && id !== undefined) {
      const fields = (call: Json) => this.updates.toolCallFields(call);
      return [{ ...message, params: permissionRequest(params, fields, `permission-${++this.permissions}`) }];
    }
    if (method !== 'session/update' || !isRecord(params) || typeof params.sessionId !== 'string') return [message];
    const { sessionId, update } = params;
    if (isRecord(update) && update.sessionUpdate === 'state_update') return this.state(sessionId, update);
    return this.updates.translate(sessionId, update).map((u) => ({ ...message, params: { ...params, update: u } }));
  }

  /** A v2 answer in v1's shape; any other answer as it is (the client then asks again in v1, see speakV1). */
  private initialized(answer: Json): Json {
    const v1 = initializeAnswer(answer.result);
    if (v1) this.version = 2;
    return v1 ? { ...answer, result: v1 } : answer;
  }

  /** A session opened: its answer in v1's shape, its commands (v2 gives them in the answer) as v1's update before it. */
  private sessionOpened(answer: Json, requested: unknown): Json[] {
    const result = answer.result;
    if (!isRecord(result)) return [answer];
    const sessionId = typeof requested === 'string' ? requested : result.sessionId;
    const { availableCommands, configOptions: options, ...rest } = result;
    const translated = { ...answer, result: defined({ ...rest, configOptions: configOptions(options) }) };
    const list = commands(availableCommands);
    if (!list || typeof sessionId !== 'string') return [translated];
    const update = { sessionUpdate: 'available_commands_update', availableCommands: list };
    return [{ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } }, translated];
  }

  private prompted(id: Id, sessionId: string): void {
    this.turns.set(sessionId, { id, answered: false, working: false });
    this.answers.set(id, (answer) => {
      const turn = this.turns.get(sessionId);
      if (turn?.id !== id) return [answer];
      if (answer.error !== undefined) {
        this.turns.delete(sessionId);
        const code = isRecord(answer.error) ? answer.error.code : undefined;
        return [code === REQUEST_CANCELLED ? { jsonrpc: '2.0', id, result: { stopReason: 'cancelled' } } : answer];
      }
      turn.answered = true;
      return turn.ended ? [this.turnEnded(sessionId, turn, turn.ended)] : [];
    });
  }

  /** A `state_update`: the end of the prompt's turn is its answer; other states are not shown yet. */
  private state(sessionId: string, update: Json): Json[] {
    const turn = this.turns.get(sessionId);
    if (!turn) return [];
    if (update.state === 'running' || update.state === 'requires_action') turn.working = true;
    if (update.state !== 'idle') return [];
    // An idle before the agent worked on the prompt is the state it was in (a snapshot), unless it names how the turn ended.
    if (!turn.working && !(turn.answered && typeof update.stopReason === 'string')) return [];
    if (!turn.answered) {
      turn.ended = update;
      return [];
    }
    return [this.turnEnded(sessionId, turn, update)];
  }

  private turnEnded(sessionId: string, turn: Turn, idle: Json): Json {
    this.turns.delete(sessionId);
    const answer = { jsonrpc: '2.0', id: turn.id };
    if (idle.stopReason !== 'error') {
      const reason =
        typeof idle.stopReason === 'string' && V1_STOP_REASONS.has(idle.stopReason) ? idle.stopReason : 'end_turn';
      return { ...answer, result: { stopReason: reason } };
    }
    const error = isRecord(idle.error) ? idle.error : {};
    return {
      ...answer,
      error: {
        code: typeof error.code === 'number' ? error.code : -32603,
        message: typeof error.message === 'string' ? error.message : 'The agent ended the turn with an error.',
        ...(error.data !== undefined ? { data: error.data } : {}),
      },
    };
  }
}

function withResult(answer: Json, translate: (result: Json) => Json): Json {
  return isRecord(answer.result) ? { ...answer, result: translate(answer.result) } : answer;
}
