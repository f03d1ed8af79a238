/**
 * One diagnostics record per ACP message: direction, method, a correlation
 * number of ours (never the agent's id), how long a request took, its
 * outcome, and fixed-size structural metadata (counts, sizes, kinds). No
 * text, data, paths, values or names the agent or the user wrote ever goes
 * in: each method's metadata is made here from known fields only, and an
 * unknown method gives none. A method's name is structure, not payload: an
 * unknown one is named too (an agent's extension, e.g. Qwen Code's
 * `craft/drainMidTurnQueue`), bounded and in method-name characters only.
 */
import * as acp from '@agentclientprotocol/sdk';
import { PLAN_OPERATION_KINDS } from '../shared/thread/planOperations';
import { UPDATE_KINDS } from '../shared/updateKinds';

export type Direction = 'out' | 'in';

export interface MessageRecord {
  readonly dir: Direction;
  readonly kind: 'request' | 'response' | 'notification' | 'invalid';
  /** The method, bounded (methodName), or `(unknown)` for a response to no request and an invalid message. */
  readonly method: string;
  /** Ours: the same number on a request and its response. */
  readonly seq?: number;
  readonly ms?: number;
  readonly outcome?: 'ok' | 'error';
  /** The JSON-RPC error code of an error response. */
  readonly code?: number;
  /** The message's size as JSON, in bytes (UTF-16 units). */
  readonly bytes: number;
  readonly meta?: Readonly<Record<string, number | string | boolean>>;
}

/**
 * The methods of stable ACP v1 (the SDK's own lists) and those beyond it that this client speaks (unstable or an
 * agent's extension): only these are named.
 */
const METHODS = new Set<string>([
  ...Object.values(acp.AGENT_METHODS),
  ...Object.values(acp.CLIENT_METHODS),
  ...Object.values(acp.PROTOCOL_METHODS),
  'session/fork',
  'session/set_title',
  'session/set_model',
  '_session/steering',
]);

/** Words the metadata may show (kinds from the protocol's own enums); anything else is `other`. */
const KINDS = new Set([
  ...Object.keys(UPDATE_KINDS),
  ...PLAN_OPERATION_KINDS,
  'text',
  'image',
  'audio',
  'resource_link',
  'resource',
  'end_turn',
  'max_tokens',
  'max_turn_requests',
  'refusal',
  'cancelled',
  'selected',
  'stdio',
  'http',
  'sse',
]);
/** The longest method name shown; the protocol's are under 30 characters. */
const MAX_METHOD_CHARS = 64;
/** A method's name as shown: at most MAX_METHOD_CHARS, every character outside a method name's set a `?`. */
export function methodName(method: string): string {
  const shown = method.slice(0, MAX_METHOD_CHARS).replace(/[^\w./$:-]/g, '?');
  return method.length > MAX_METHOD_CHARS ? `${shown}…` : shown;
}

const kindWord = (value: unknown) => (typeof value === 'string' && KINDS.has(value) ? value : 'other');
const count = (value: unknown) => (Array.isArray(value) ? value.length : 0);
const size = (value: unknown) => (typeof value === 'string' ? value.length : 0);

/** Pending requests of one direction: their method and start, under our number. */
export class Correlation {
  private next = 1;
  private readonly pending = new Map<string, { seq: number; method: string; at: number }>();

  start(id: unknown, method: string, at: number): number {
    const seq = this.next++;
    if (this.pending.size < 10_000) this.pending.set(JSON.stringify(id), { seq, method, at });
    return seq;
  }

  finish(id: unknown): { seq: number; method: string; at: number } | undefined {
    const key = JSON.stringify(id);
    const found = this.pending.get(key);
    this.pending.delete(key);
    return found;
  }
}

/**
 * The record of `message`. `sent` holds requests of this direction (to
 * match their responses, which come the other way: pass the other
 * direction's Correlation as `answered`).
 */
export function messageRecord(
  dir: Direction,
  message: acp.AnyMessage,
  sent: Correlation,
  answered: Correlation,
  now: number,
): MessageRecord {
  const m = message as {
    id?: unknown;
    method?: unknown;
    params?: unknown;
    result?: unknown;
    error?: { code?: unknown };
  };
  const bytes = jsonSize(message);
  if (typeof m.method === 'string') {
    const known = METHODS.has(m.method);
    const method = known ? m.method : methodName(m.method);
    const meta = known ? paramsMeta(m.method, m.params) : undefined;
    if (m.id === undefined) return { dir, kind: 'notification', method, bytes, ...(meta ? { meta } : {}) };
    return { dir, kind: 'request', method, seq: sent.start(m.id, method, now), bytes, ...(meta ? { meta } : {}) };
  }
  if (m.id !== undefined && ('result' in m || 'error' in m)) {
    const request = answered.finish(m.id);
    const method = request?.method ?? '(unknown)';
    const error = m.error !== undefined;
    const meta = !error && request && METHODS.has(method) ? resultMeta(method, m.result) : undefined;
    return {
      dir,
      kind: 'response',
      method,
      ...(request ? { seq: request.seq, ms: Math.round(now - request.at) } : {}),
      outcome: error ? 'error' : 'ok',
      ...(error && typeof m.error?.code === 'number' ? { code: m.error.code } : {}),
      bytes,
      ...(meta ? { meta } : {}),
    };
  }
  return { dir, kind: 'invalid', method: '(unknown)', bytes };
}

function jsonSize(message: unknown): number {
  try {
    return JSON.stringify(message)?.length ?? 0;
  } catch {
    return 0;
  }
}

type Meta = Record<string, number | string | boolean>;

function paramsMeta(method: string, params: unknown): Meta | undefined {
  const p = (params ?? {}) as Record<string, unknown>;
  switch (method) {
    case 'session/prompt': {
      const blocks = Array.isArray(p.prompt) ? p.prompt : [];
      const meta: Meta = { blocks: blocks.length };
      for (const block of blocks.slice(0, 100)) {
        const kind = kindWord((block as { type?: unknown })?.type);
        meta[kind] = ((meta[kind] as number | undefined) ?? 0) + 1;
      }
      return meta;
    }
    case 'session/new':
    case 'session/load':
    case 'session/resume': {
      const servers = Array.isArray(p.mcpServers) ? p.mcpServers : [];
      const remote = servers.filter((s) => ['http', 'sse'].includes((s as { type?: unknown })?.type as string)).length;
      return { mcpServers: servers.length, mcpRemote: remote };
    }
    case 'session/update': {
      const update = (p.update ?? {}) as Record<string, unknown>;
      return {
        update: kindWord(update.sessionUpdate),
        ...(update.content ? { content: kindWord((update.content as { type?: unknown }).type) } : {}),
      };
    }
    case 'session/request_permission':
      return { options: count(p.options) };
    case 'fs/read_text_file':
      return { range: p.line !== undefined || p.limit !== undefined };
    case 'fs/write_text_file':
      return { chars: size(p.content) };
    case 'terminal/create':
      return { args: count(p.args), env: count(p.env) };
    case 'initialize':
      return { protocolVersion: typeof p.protocolVersion === 'number' ? p.protocolVersion : 0 };
    default:
      return undefined;
  }
}

function resultMeta(method: string, result: unknown): Meta | undefined {
  const r = (result ?? {}) as Record<string, unknown>;
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: typeof r.protocolVersion === 'number' ? r.protocolVersion : 0,
        authMethods: count(r.authMethods),
      };
    case 'session/prompt':
      return { stopReason: kindWord(r.stopReason) };
    case 'session/list':
      return { sessions: count(r.sessions), more: typeof r.nextCursor === 'string' };
    case 'session/request_permission':
      return { outcome: kindWord((r.outcome as { outcome?: unknown } | undefined)?.outcome) };
    case 'fs/read_text_file':
      return { chars: size(r.content) };
    case 'terminal/output':
      return { chars: size(r.output), truncated: r.truncated === true };
    default:
      return undefined;
  }
}
