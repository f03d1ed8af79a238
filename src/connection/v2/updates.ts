/**
 * ACP v2's session updates as the v1 ones the chat applies (see wire.ts). v2 sends a tool call as upserts by id
 * (a field left out is unchanged, `null` resets it), appends content by chunks, sends a message whole by id
 * (`user_message`, `agent_message`, `agent_thought`: content replaces it) or in chunks, and says a file change as a
 * list of changes with an optional patch (fileChanges.ts). Kept per session: the tool calls and messages seen, bounded.
 */
import { defined, isRecord, commands, configOptions } from './handshake';
import { REPLACES_MESSAGE_KEY } from '../../shared/thread/messageEntries';
import { diffItems } from './fileChanges';

type Json = Record<string, unknown>;

/** Sessions followed; past it the oldest is forgotten (a hostile agent may name a new session per update). */
const MAX_SESSIONS = 64;
/** Tool calls and messages remembered per session; past it a new one is taken as known. */
const MAX_IDS = 10_000;
/** Content items kept per tool call for appending chunks to. */
const MAX_CONTENT_ITEMS = 1_000;

const V1_STATUSES = new Set(['pending', 'in_progress', 'completed', 'failed']);
/** v2's statuses that v1 lacks, as v1 says them. */
const STATUS_AS_V1: Record<string, string> = { paused: 'pending', cancelled: 'failed' };
/** What a field set to `null` resets to. */
const RESET: Json = { title: '', kind: 'other', status: 'pending', content: [], locations: [] };

const MESSAGE_CHUNKS: Record<string, string> = {
  user_message: 'user_message_chunk',
  agent_message: 'agent_message_chunk',
  agent_thought: 'agent_thought_chunk',
};

interface SessionState {
  /** Tool call id -> its content as last sent (v1 items), for appending chunks. */
  readonly toolCalls: Map<string, Json[]>;
  /** `kind messageId` of each message seen. */
  readonly messages: Set<string>;
}

export class UpdatesFromV2 {
  private readonly sessions = new Map<string, SessionState>();

  /** The v1 updates (none, one or several) that say what `update` says. */
  translate(sessionId: string, update: unknown): Json[] {
    if (!isRecord(update) || typeof update.sessionUpdate !== 'string') return [update as Json];
    const state = this.session(sessionId);
    const kind = update.sessionUpdate;
    const chunkKind = MESSAGE_CHUNKS[kind];
    if (chunkKind) return this.message(state, kind, chunkKind, update);
    switch (kind) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk':
        if (typeof update.messageId === 'string') remember(state.messages, `${kind} ${update.messageId}`);
        return [update];
      case 'tool_call_update': {
        const call = this.toolCall(state, update);
        return call ? [call] : [];
      }
      case 'tool_call_content_chunk':
        return this.contentChunk(state, update);
      case 'config_option_update':
        return [{ ...update, configOptions: configOptions(update.configOptions) ?? [] }];
      case 'available_commands_update':
        return [{ ...update, availableCommands: commands(update.availableCommands) ?? [] }];
      default:
        // The rest is v1's shape, or a kind the client checks on (plan operations) or counts as unknown after this.
        return [update];
    }
  }

  /** A tool call's fields as v1 says them (for a permission request's subject): nulls and unknown values left out. */
  toolCallFields(call: Json): Json {
    return this.fields(call, false).fields;
  }

  /** `user_message` / `agent_message` / `agent_thought`: its content as chunks, the first replacing a known message. */
  private message(state: SessionState, kind: string, chunkKind: string, update: Json): Json[] {
    const { messageId } = update;
    if (typeof messageId !== 'string') return [];
    const known = state.messages.has(`${chunkKind} ${messageId}`);
    remember(state.messages, `${chunkKind} ${messageId}`);
    const blocks = Array.isArray(update.content) ? update.content : [];
    if (!known && blocks.length === 0) return [];
    const chunks = (blocks.length > 0 ? blocks : [{ type: 'text', text: '' }]).map((content) => ({
      sessionUpdate: chunkKind,
      messageId,
      content,
    }));
    if (known) chunks[0] = { ...chunks[0], _meta: { [REPLACES_MESSAGE_KEY]: kind } } as (typeof chunks)[0];
    return chunks;
  }

  private toolCall(state: SessionState, update: Json): Json | undefined {
    const id = update.toolCallId;
    if (typeof id !== 'string' || id === '') return undefined;
    const known = state.toolCalls.has(id);
    const { fields, content } = this.fields(update, known);
    if (content) state.toolCalls.set(id, content.slice(0, MAX_CONTENT_ITEMS));
    else if (!known) remember(state.toolCalls, id, []);
    if (known) return { sessionUpdate: 'tool_call_update', toolCallId: id, ...fields };
    return { sessionUpdate: 'tool_call', toolCallId: id, title: '', ...fields };
  }

  /** One item added to a tool call's content: v1 has no append, so the whole list goes again. */
  private contentChunk(state: SessionState, update: Json): Json[] {
    const id = update.toolCallId;
    if (typeof id !== 'string' || !isRecord(update.content)) return [];
    const items = state.toolCalls.get(id);
    if (!items || items.length >= MAX_CONTENT_ITEMS) return [];
    items.push(...v1Content([update.content]));
    return [{ sessionUpdate: 'tool_call_update', toolCallId: id, content: [...items] }];
  }

  /** A v2 tool call's fields in v1's shapes; with `resets`, a `null` field becomes what it resets to. */
  private fields(update: Json, resets: boolean): { fields: Json; content?: Json[] } {
    const fields: Json = {};
    for (const key of ['title', 'kind', 'status', 'content', 'locations', 'name', 'rawInput', 'rawOutput', '_meta']) {
      const value = update[key];
      if (value === undefined || (value === null && !(resets && key in RESET))) continue;
      fields[key] = value === null ? RESET[key] : value;
    }
    if (typeof fields.status === 'string' && !V1_STATUSES.has(fields.status)) {
      const status = STATUS_AS_V1[fields.status];
      if (status) fields.status = status;
      else delete fields.status;
    }
    if (!Array.isArray(fields.content)) return { fields: defined(fields) };
    const content = v1Content(fields.content);
    return { fields: { ...fields, content }, content };
  }

  private session(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      state = { toolCalls: new Map(), messages: new Set() };
      if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
      this.sessions.set(sessionId, state);
    }
    return state;
  }
}

/** v2 content items as v1's: text and terminals as they are, a structured file change as a diff item per file. */
function v1Content(items: unknown[]): Json[] {
  return items.filter(isRecord).flatMap((item) => {
    if (item.type === 'diff') return diffItems(item);
    return item.type === 'content' || item.type === 'terminal' ? [item] : [];
  });
}

function remember<K, V>(seen: Set<K> | Map<K, V>, key: K, value?: V): void {
  if (seen.size >= MAX_IDS) return;
  if (seen instanceof Set) seen.add(key);
  else seen.set(key, value as V);
}
