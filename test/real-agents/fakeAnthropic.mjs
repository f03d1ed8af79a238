/**
 * A scripted stand-in for the Anthropic Messages API, on 127.0.0.1 (random port), so that a real
 * Claude Code agent (through @agentclientprotocol/claude-agent-acp) runs whole turns offline.
 *
 * `POST /v1/messages` answers as a stream of server-sent events when the body has `stream: true`,
 * as one JSON message otherwise. What it answers depends on the request:
 *
 * - the last user message carries a `tool_result` for a tool use this server asked for: the rule's
 *   `after(result)` text (result = { isError, text }), ending the turn, or the next tool use it returns;
 * - the main agent's request (it offers `tools`) whose last user text contains a rule's `marker`:
 *   a `tool_use` of the rule's tool (or of the first offered tool its `toolMatching` matches; one
 *   Claude Code defers, as it does MCP tools, is first loaded with `ToolSearch` `select:<name>`)
 *   with the rule's input (stop reason `tool_use`), or for a rule
 *   with `reply`, that text; with `holdMs` the text's first half comes at once and the rest after
 *   `holdMs` (a model still answering: the agent may abort the request meanwhile, to steer);
 * - a request for JSON (`output_config.format` is a JSON schema, as for session titles): a small
 *   object of that schema;
 * - anything else (other side requests, or an unknown prompt): a short text, `FALLBACK_TEXT`.
 *
 * "The last user message" skips trailing `system` messages (Claude Code appends its environment
 * as one).
 *
 * Also answered: `POST /v1/messages/count_tokens`, `GET /v1/models[/id]`, `HEAD|GET /`.
 * Any other path gets a 404 in Anthropic's error format and a line in the log.
 *
 * For the tests: every request is recorded (`server.requests`: full bodies; `GET /_fake/log`:
 * a JSON summary per request, see `summarize`), `POST /_fake/reset` clears the record.
 *
 * CLI (for trying agents by hand): `node test/real-agents/fakeAnthropic.mjs [port]` prints the URL.
 */
import { fileURLToPath } from 'node:url';
import { hold, sendJson, serveFromCommandLine, startFakeServer, startSse, toolOf } from './fakeServer.mjs';

export const FALLBACK_TEXT = 'OK.';
const MODEL_IDS = ['claude-sonnet-4-5', 'claude-opus-4-1', 'claude-haiku-4-5'];

/**
 * @typedef {object} Rule
 * @property {string} marker     text that, in the user's prompt, selects this rule
 * @property {string} [reply]    instead of a tool: this text ends the turn
 * @property {number} [holdMs]   with `reply`: how long the second half of the text waits
 * @property {Record<string, string>} [headers]  with `reply`: HTTP headers of the answer (plan rate limits)
 * @property {string} tool       the tool to call (e.g. 'Write', 'Bash')
 * @property {string} [toolMatching]  instead of `tool`: a RegExp source, the first offered tool it matches (an MCP
 *   tool, named by each agent its own way)
 * @property {object | ((body: object) => object)} input  the tool's input, or made from the request (a path in the
 *   working directory Claude Code names: `workingDirectory`)
 * @property {(result: {isError: boolean, text: string}) => string | Omit<Rule, 'marker'>} after  the final text
 *   after the tool result, or the next tool to call (Claude Code edits a file only after reading it), or a final
 *   `reply` with its `headers`
 */

/**
 * The working directory Claude Code tells its model (its system prompt's "Primary working directory: ..."), as a
 * model learns where to write: a chat's worktree, not the workspace. Undefined when the request names none.
 */
export function workingDirectory(body) {
  return /Primary working directory: ([^\s"\\]+)/.exec(JSON.stringify([body.system, body.messages]))?.[1];
}

/**
 * @param {{ rules?: Rule[], log?: (line: string) => void, delayMs?: number }} [options]
 */
export async function startFakeAnthropic(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[fake-anthropic] ${line}\n`));
  /** @type {Rule[]} */
  let rules = options.rules ?? [];
  const delayMs = options.delayMs ?? 5;
  /** tool_use id -> rule that asked for it. */
  const issued = new Map();
  let counter = 0;
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

  /**
   * A tool use of `rule`'s tool, or a text saying that the request offers none that matches. A tool Claude Code
   * defers (MCP tools: announced by name, offered only once loaded) is first loaded with its ToolSearch, as a real
   * model does; the rule's tool is then looked for again in the next request.
   */
  function toolUse(body, rule) {
    const offered = Array.isArray(body.tools) ? body.tools.map((t) => t.name) : [];
    const name = toolOf(rule, offered);
    const deferred = !name && !rule.searched && offered.includes(TOOL_SEARCH) && toolOf(rule, deferredTools(body));
    if (deferred) {
      return toolUse(body, {
        marker: rule.marker,
        tool: TOOL_SEARCH,
        input: { query: `select:${deferred}` },
        after: () => ({ ...rule, searched: true }),
      });
    }
    if (!name || !offered.includes(name)) {
      log(
        `rule "${rule.marker}": the agent does not offer the tool ${name ?? rule.toolMatching} (${offered.join(', ')})`,
      );
    }
    if (!name) {
      const text = `No offered tool matches ${rule.toolMatching}.`;
      return { content: [{ type: 'text', text }], stopReason: 'end_turn', why: `no-tool:${rule.toolMatching}` };
    }
    const id = newId('toolu');
    issued.set(id, { ...rule, tool: name });
    return {
      content: [
        { type: 'tool_use', id, name, input: typeof rule.input === 'function' ? rule.input(body) : rule.input },
      ],
      stopReason: 'tool_use',
      why: `tool_use:${name}`,
    };
  }

  /** Decides the answer to one Messages request: { content: blocks[], stopReason, why }. */
  function decide(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    // Claude Code may put `system` messages after the user's turn: look at the last user message.
    const lastUser = [...messages].reverse().find((m) => m?.role === 'user');
    const lastIsUser = messages.length > 0 && [...messages].reverse().find((m) => m?.role !== 'system') === lastUser;
    const blocks = blocksOf(lastUser);
    const result = blocks.find((b) => b.type === 'tool_result' && issued.has(b.tool_use_id));
    if (lastIsUser && result) {
      const rule = issued.get(result.tool_use_id);
      const next = rule.after({ isError: result.is_error === true, text: textOf(result.content) });
      if (typeof next === 'object' && next.reply !== undefined) {
        return {
          content: [{ type: 'text', text: next.reply }],
          stopReason: 'end_turn',
          why: `after:${rule.tool}`,
          headers: next.headers ?? {},
        };
      }
      if (typeof next === 'object') return toolUse(body, { marker: rule.marker, ...next });
      return { content: [{ type: 'text', text: next }], stopReason: 'end_turn', why: `after:${rule.tool}` };
    }
    const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
    if (lastIsUser && offersTools) {
      const userText = blocks
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('\n');
      const rule = rules.find((r) => userText.includes(r.marker));
      if (rule?.reply !== undefined) {
        return {
          content: [{ type: 'text', text: rule.reply }],
          stopReason: 'end_turn',
          why: `reply:${rule.marker}`,
          holdMs: rule.holdMs ?? 0,
          headers: rule.headers ?? {},
        };
      }
      if (rule) return toolUse(body, rule);
    }
    // Side requests that ask for JSON (session titles) get an object of their schema.
    const format = body.output_config?.format;
    if (format?.type === 'json_schema' && format.schema) {
      return {
        content: [{ type: 'text', text: JSON.stringify(sampleOf(format.schema)) }],
        stopReason: 'end_turn',
        why: 'json',
      };
    }
    return { content: [{ type: 'text', text: FALLBACK_TEXT }], stopReason: 'end_turn', why: 'fallback' };
  }

  const server = await startFakeServer({
    log,
    port: options.port,
    isMessage: (p) => p === '/v1/messages',
    apiError: (type, message) => apiError(type === 'not_found' ? 'not_found_error' : 'api_error', message),
    async route({ method, pathname, body, record }, res) {
      if (pathname === '/v1/messages' && method === 'POST') {
        const answer = decide(body);
        record.summary = { ...summarize(body), answered: answer.why, method, path: pathname };
        log(
          `${method} ${pathname} model=${body.model} stream=${body.stream === true} tools=${body.tools?.length ?? 0} -> ${answer.why}`,
        );
        const message = {
          id: newId('msg'),
          type: 'message',
          role: 'assistant',
          model: body.model ?? MODEL_IDS[0],
          content: answer.content,
          stop_reason: answer.stopReason,
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
        };
        if (body.stream === true) await streamMessage(res, message, delayMs, answer.holdMs ?? 0, answer.headers);
        else sendJson(res, 200, message, { 'request-id': newId('req') });
      } else if (pathname === '/v1/messages/count_tokens' && method === 'POST') {
        sendJson(res, 200, { input_tokens: Math.max(1, Math.round(JSON.stringify(body).length / 4)) });
      } else if (pathname === '/v1/models' && method === 'GET') {
        sendJson(res, 200, {
          data: MODEL_IDS.map(modelInfo),
          has_more: false,
          first_id: MODEL_IDS[0],
          last_id: MODEL_IDS[MODEL_IDS.length - 1],
        });
      } else if (pathname.startsWith('/v1/models/') && method === 'GET') {
        sendJson(res, 200, modelInfo(decodeURIComponent(pathname.slice('/v1/models/'.length))));
      } else {
        return false;
      }
      return true;
    },
  });
  return {
    ...server,
    /** Replaces the rules (tool uses already issued keep theirs). */
    setRules(next) {
      rules = next;
    },
  };
}

/** Claude Code's tool that loads the tools it defers. */
const TOOL_SEARCH = 'ToolSearch';

/**
 * The tools Claude Code defers, by the names it announces in the conversation ("The following deferred tools are
 * [now] available via ToolSearch. ...:" and a name a line).
 */
function deferredTools(body) {
  const texts = [
    ...blocksOf({ content: body.system }),
    ...(Array.isArray(body.messages) ? body.messages : []).flatMap((m) => blocksOf(m)),
  ].flatMap((b) => (b.type === 'text' ? [String(b.text)] : []));
  const names = [];
  for (const text of texts) {
    for (const m of text.matchAll(/deferred tools are (?:now )?available via ToolSearch[^\n]*\n((?:[^\s<]+\n?)+)/g)) {
      names.push(...m[1].split('\n').filter(Boolean));
    }
  }
  return names;
}

/** What a test wants to know about a Messages request. */
export function summarize(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages[messages.length - 1];
  const blocks = blocksOf([...messages].reverse().find((m) => m?.role === 'user'));
  return {
    model: body.model,
    stream: body.stream === true,
    tools: Array.isArray(body.tools) ? body.tools.map((t) => t.name) : [],
    messages: messages.length,
    lastRole: last?.role,
    json: body.output_config?.format?.type === 'json_schema',
    lastUserText: blocks
      .filter((b) => b.type === 'text')
      .map((b) => b.text)
      .join('\n')
      .slice(-2000),
    /** The start of every user text in the conversation, oldest first: what the model was told before. */
    userTexts: messages
      .filter((m) => m?.role === 'user')
      .flatMap((m) => blocksOf(m))
      .filter((b) => b.type === 'text')
      .map((b) => String(b.text).slice(0, 200)),
    /** The images of the last user message (a prompt's attachments). */
    lastUserImages: blocks
      .filter((b) => b.type === 'image')
      .map((b) => ({ mediaType: b.source?.media_type, data: b.source?.data })),
    toolResults: blocks
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({ toolUseId: b.tool_use_id, isError: b.is_error === true, text: textOf(b.content).slice(0, 2000) })),
  };
}

/** A small value that satisfies a JSON schema (objects, strings, numbers, booleans, arrays, enums). */
function sampleOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'Fake title';
  }
}

function blocksOf(message) {
  if (!message) return [];
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : Array.isArray(message.content)
      ? message.content
      : [];
}

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (b?.type === 'text' ? b.text : '')).join('');
  return '';
}

function modelInfo(id) {
  return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
}

function apiError(type, message) {
  return { type: 'error', error: { type, message } };
}

async function streamMessage(res, message, delayMs, holdMs, headers = {}) {
  const event = startSse(res, delayMs, { 'request-id': `req_${message.id}`, ...headers });
  const send = (type, data) => event({ type, ...data }, type);
  await send('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } },
  });
  await send('ping', {});
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      const half = Math.ceil(block.text.length / 2);
      for (const [i, part] of [block.text.slice(0, half), block.text.slice(half)].entries()) {
        if (i === 1 && holdMs > 0) await hold(res, holdMs);
        if (res.destroyed) return;
        if (part) await send('content_block_delta', { index, delta: { type: 'text_delta', text: part } });
      }
    } else if (block.type === 'tool_use') {
      await send('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      await send('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    await send('content_block_stop', { index });
  }
  await send('message_delta', {
    delta: { stop_reason: message.stop_reason, stop_sequence: null },
    usage: { output_tokens: message.usage.output_tokens },
  });
  await send('message_stop', {});
  res.end();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveFromCommandLine(startFakeAnthropic);
