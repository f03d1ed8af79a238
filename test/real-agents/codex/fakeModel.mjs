/**
 * A scripted stand-in for the OpenAI Responses API, on 127.0.0.1 (random port), so that a real
 * Codex (@agentclientprotocol/codex-acp running `codex app-server`) runs whole turns offline.
 * Codex is pointed at it by `agent.mjs` (`model_providers.fake.base_url = <url>/v1`,
 * `wire_api = "responses"`).
 *
 * `POST /v1/responses` (Codex always asks for `stream: true`) answers as server-sent events in
 * the order the real API sends them (response.created, response.in_progress, per output item
 * output_item.added ... output_item.done, response.completed). What it answers, looking at the
 * request's `input` (the whole conversation, oldest first) after the last assistant item:
 *
 * - a tool output (`function_call_output` / `custom_tool_call_output`) for a call this server
 *   asked for: the rule's `after(result)` text, result = { isError, text } (see `outputIsError`),
 *   or the next call `after` returns;
 * - a title request (codex-acp asks for one after a new session's first turn, in a throwaway
 *   thread, model `gpt-5.6-luna`: `text.format` a JSON schema requiring `title`, the prompt
 *   "Your task is to generate a very short title ..." quoting the user's message, markers and
 *   all): the JSON `{"title": TITLE}`, never a tool call;
 * - an auto-review request (only in codex-acp's mode "agent": a reviewer judges each action
 *   that would ask, `text.format` a JSON schema requiring `outcome`): `REVIEW` (allow);
 * - a compaction request (when a thread's model changes, Codex first summarizes the history
 *   with the old model: the last user text is its "CONTEXT CHECKPOINT COMPACTION" prompt):
 *   `COMPACTION_SUMMARY`; the next request carries it, with the user's earlier texts;
 * - a user text containing a rule's `marker`: a call of the rule's tool with the rule's input,
 *   shaped as the request declares that tool. In `tools` (the classic tool list, model
 *   `gpt-5.5`): a `custom` tool (Codex's `apply_patch`) gets a `custom_tool_call` whose `input`
 *   is the rule's string; a `function` tool (`exec_command`) gets a `function_call` whose
 *   `arguments` are the rule's object as JSON. In code mode (every other model of Codex 0.166:
 *   no `tools`, an `additional_tools` input item whose namespace `functions` has the custom tool
 *   `exec`, JavaScript run in Codex's V8 host): a `custom_tool_call` of `exec` whose script calls
 *   `tools.<tool>(input)` and prints the result; a rule's `toolMatching` (a RegExp source: an MCP
 *   tool) names the first tool of `tools` it matches; Codex offers MCP tools only on demand: with
 *   `tools`, behind its `tool_search` (the fake searches, then calls the tool found by namespace
 *   and name), in code mode through exec's `ALL_TOOLS` (the script looks it up);
 * - anything else: `FALLBACK_TEXT`, after a short reasoning summary, streamed in several deltas.
 *
 * Also answered, in case a setup asks: `GET /v1/models` (a two-model list) and `HEAD|GET /`;
 * codex-acp 2.6 (Codex 0.166) with agent.mjs's config.toml calls neither (it uses Codex's built-in
 * model list). Any other path gets a 404 in OpenAI's error format and a line in the log.
 *
 * For the tests: every request is recorded (`server.requests`: method, path, full body;
 * `messageLog()`: a summary of each `/v1/responses` request, see `summarize`; `GET /_fake/log`:
 * every request's summary as JSON, for the extension host), `POST /_fake/reset` clears the record.
 *
 * CLI (for trying Codex by hand): `node test/real-agents/codex/fakeModel.mjs [port]` prints the URL.
 */
import { dataUrl } from '../opencode/fakeModel.mjs';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { hold, sendJson, serveFromCommandLine, startFakeServer, startSse, toolOf } from '../fakeServer.mjs';

/** The reply to a prompt without a marker, streamed in `FALLBACK_PARTS` deltas. */
export const FALLBACK_PARTS = ['Hello ', 'from the ', 'fake ', 'model.'];
export const FALLBACK_TEXT = FALLBACK_PARTS.join('');
export const REASONING_TEXT = 'Thinking about a short answer.';
/** The session title the fake gives when codex-acp asks for one. */
export const TITLE = 'Fake session title';
/** How Codex's compaction prompt begins (it compacts the history when a thread changes model), and the summary given. */
const COMPACTION_PROMPT = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';
export const COMPACTION_SUMMARY =
  'Summary (fake): the user asked for a few files and commands; nothing remains to be done.';
/** The verdict when Codex's auto-reviewer (mode "agent", Auto review) asks whether an action may run. */
export const REVIEW = {
  risk_level: 'low',
  user_authorization: 'high',
  outcome: 'allow',
  rationale: 'The user asked for exactly this (fake review).',
};
const MODEL_IDS = ['gpt-5.5', 'gpt-6.1-sol'];

/**
 * @typedef {object} Rule
 * @property {string} marker     text that, in the user's latest prompt, selects this rule
 * @property {string} [reply]    instead of a tool: this text ends the turn
 * @property {number} [holdMs]   with `reply`: how long the second half of the text waits (a model still answering)
 * @property {string} tool       the tool to call, as Codex names it ('apply_patch', 'exec_command'; in code mode the nested tool)
 * @property {string} [toolMatching]  instead of `tool`: a RegExp source, the first offered tool it matches (an MCP
 *   tool, named by each agent its own way)
 * @property {string | object} input  a custom tool's input text, or a function tool's arguments
 * @property {(result: {isError: boolean, text: string}) => string | Omit<Rule, 'marker'>} after  the final text
 *   after the tool output, or the next call (a rule of its own: its `after` comes after its output)
 */

/**
 * Whether a tool output Codex sent back reports a failure: a non-zero exit code, or one of the
 * texts Codex uses for a refused, aborted or failed call.
 */
export function outputIsError(text) {
  const exit = /(?:exited with code|exit code:?)\s*(-?\d+)/i.exec(text);
  if (exit) return Number(exit[1]) !== 0;
  return /reject|declin|denied|abort|not approved|fail|error/i.test(text);
}

/**
 * @param {{ rules?: Rule[], log?: (line: string) => void, delayMs?: number, port?: number }} [options]
 */
export async function startFakeModel(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[fake-model] ${line}\n`));
  /** @type {Rule[]} */
  let rules = options.rules ?? [];
  const delayMs = options.delayMs ?? 5;
  /** call_id -> rule that asked for it. */
  const issued = new Map();
  let counter = 0;
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

  /** Decides the answer to one Responses request: { items: output items, why }. */
  function decide(body) {
    if (isTitleRequest(body)) {
      return { items: [messageItem(newId('msg'), JSON.stringify({ title: TITLE }))], why: 'title' };
    }
    if (isReviewRequest(body)) return { items: [messageItem(newId('msg'), JSON.stringify(REVIEW))], why: 'review' };
    const input = Array.isArray(body.input) ? body.input : [];
    if (contentText(input.findLast(isUserMessage)?.content).startsWith(COMPACTION_PROMPT)) {
      return { items: [messageItem(newId('msg'), COMPACTION_SUMMARY)], why: 'compaction' };
    }
    // What came after the model last spoke: a tool output (the turn goes on), or the user's prompt.
    const fresh = input.slice(input.findLastIndex(isAssistantItem) + 1);
    const last = fresh.findLast((item) => isUserMessage(item) || (isToolOutput(item) && issued.has(item.call_id)));
    if (last && isToolOutput(last)) {
      const rule = issued.get(last.call_id);
      const text = outputText(last.output ?? last.tools);
      const next = rule.after({ isError: outputIsError(text), text });
      if (typeof next === 'object') return call(body, { marker: rule.marker, ...next });
      return { items: [messageItem(newId('msg'), next)], why: `after:${rule.tool}` };
    }
    const userText = last ? contentText(last.content) : '';
    const rule = rules.find((r) => userText.includes(r.marker));
    if (rule?.reply !== undefined) {
      const half = Math.ceil(rule.reply.length / 2);
      return {
        items: [messageItem(newId('msg'), [rule.reply.slice(0, half), rule.reply.slice(half)])],
        why: `reply:${rule.marker}`,
        holdMs: rule.holdMs ?? 0,
      };
    }
    if (rule) return call(body, rule);
    return {
      items: [reasoningItem(newId('rs'), REASONING_TEXT), messageItem(newId('msg'), FALLBACK_PARTS)],
      why: 'fallback',
    };
  }

  /** A call of `rule`'s tool, shaped as the request declares it (see the header), or a text when none matches. */
  function call(body, named) {
    const tools = Array.isArray(body.tools) ? body.tools : [];
    const names = tools.map((t) => t.name);
    const name = toolOf(named, names);
    const tool = tools.find((t) => t.name === name);
    if (!tool && codeModeExec(body)) return execCall(named);
    if (!name && named.toolMatching) {
      const found = searchedTools(body).find((t) => toolOf(named, [t.full]));
      if (found) return namespacedCall({ ...named, tool: found.name }, found.namespace);
      if (!named.searched && tools.some((t) => t.type === 'tool_search')) return toolSearch(named);
    }
    if (!name) {
      log(`rule "${named.marker}": no offered tool matches ${named.toolMatching} (${names.join(', ')})`);
      const text = `No offered tool matches ${named.toolMatching}.`;
      return { items: [messageItem(newId('msg'), text)], why: `no-tool:${named.toolMatching}` };
    }
    const rule = { ...named, tool: name };
    if (!tool) log(`rule "${rule.marker}": the request does not offer the tool ${rule.tool}`);
    const callId = newId('call');
    issued.set(callId, rule);
    const item =
      tool?.type === 'custom' || (!tool && typeof rule.input === 'string')
        ? {
            type: 'custom_tool_call',
            id: newId('ctc'),
            status: 'completed',
            call_id: callId,
            name: rule.tool,
            input: String(rule.input),
          }
        : {
            type: 'function_call',
            id: newId('fc'),
            status: 'completed',
            call_id: callId,
            name: rule.tool,
            arguments: JSON.stringify(rule.input),
          };
    return { items: [item], why: `call:${rule.tool}` };
  }

  /**
   * Classic mode defers MCP tools behind a `tool_search` tool that Codex runs itself: the model searches (here for
   * the words of the rule's pattern), Codex answers with the tools found, in namespaces, and the model calls one by
   * its namespace and name.
   */
  function toolSearch(named) {
    const callId = newId('call');
    const query = named.toolMatching
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/[^A-Za-z]+/g, ' ')
      .trim();
    issued.set(callId, { marker: named.marker, tool: 'tool_search', after: () => ({ ...named, searched: true }) });
    const item = {
      type: 'tool_search_call',
      id: newId('tsc'),
      call_id: callId,
      status: 'completed',
      execution: 'client',
      arguments: { query, limit: 8 },
    };
    return { items: [item], why: `call:tool_search:${query}` };
  }

  function namespacedCall(rule, namespace) {
    const callId = newId('call');
    issued.set(callId, rule);
    const item = {
      type: 'function_call',
      id: newId('fc'),
      status: 'completed',
      call_id: callId,
      namespace,
      name: rule.tool,
      arguments: JSON.stringify(rule.input),
    };
    return { items: [item], why: `call:${namespace}.${rule.tool}` };
  }

  /**
   * Code mode: an `exec` script that calls the nested tool and prints what it returns (`text()` is exec's output). A
   * rule's `toolMatching` is looked up in `ALL_TOOLS` by the script, as a model finds a deferred tool (Codex leaves
   * MCP tools out of exec's description); the nested tools are named as JavaScript identifiers.
   */
  function execCall(rule) {
    const callId = newId('call');
    issued.set(callId, rule);
    const input = JSON.stringify(rule.input);
    const print = `text(typeof result === 'string' ? result : JSON.stringify(result));\n`;
    const pattern = JSON.stringify(rule.toolMatching);
    const script = rule.toolMatching
      ? `const found = ALL_TOOLS.find((t) => new RegExp(${pattern}).test(t.name));\n` +
        `if (!found) { text('No nested tool matches ' + ${pattern} + ': ' + ALL_TOOLS.map((t) => t.name).join(', ')); exit(); }\n` +
        `const call = tools[found.name] ?? tools[found.name.replace(/[^A-Za-z0-9_$]/g, '_')];\n` +
        `const result = await call(${input});\n${print}`
      : `const result = await tools.${rule.tool}(${input});\n${print}`;
    return {
      items: [
        {
          type: 'custom_tool_call',
          id: newId('ctc'),
          status: 'completed',
          call_id: callId,
          name: 'exec',
          input: script,
        },
      ],
      why: `call:exec:${rule.tool ?? rule.toolMatching}`,
    };
  }

  const server = await startFakeServer({
    log,
    port: options.port,
    isMessage: (p) => p === '/v1/responses',
    apiError,
    decode: (bytes, headers) => decode(bytes, headers['content-encoding']),
    async route({ method, pathname, body, record }, res) {
      if (pathname === '/v1/responses' && method === 'POST') {
        const answer = decide(body);
        record.summary = { method, path: pathname, ...summarize(body), answered: answer.why };
        log(
          `${method} ${pathname} model=${body.model} tools=${body.tools?.length ?? 0} input=${body.input?.length ?? 0} -> ${answer.why}`,
        );
        await streamResponse(
          res,
          { id: newId('resp'), model: body.model ?? MODEL_IDS[0], items: answer.items },
          delayMs,
          answer.holdMs ?? 0,
        );
      } else if (pathname === '/v1/models' && method === 'GET') {
        sendJson(res, 200, {
          object: 'list',
          data: MODEL_IDS.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake' })),
        });
      } else {
        return false;
      }
      return true;
    },
  });
  return {
    ...server,
    /** Replaces the rules (calls already issued keep theirs). */
    setRules(next) {
      rules = next;
    },
  };
}

/** What a test wants to know about a Responses request. */
export function summarize(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  const fresh = input.slice(input.findLastIndex(isAssistantItem) + 1);
  return {
    model: body.model,
    stream: body.stream === true,
    reasoning: body.reasoning,
    /** The tools offered: `tools`, then code mode's namespaced ones (`functions.exec(custom)`). */
    tools: [...(Array.isArray(body.tools) ? body.tools : []), ...additionalTools(body)].map(
      (t) => `${t.name ?? t.type}${t.type === 'function' ? '' : `(${t.type})`}`,
    ),
    items: input.length,
    lastUserText: contentText(fresh.findLast(isUserMessage)?.content).slice(-2000),
    /** The start of every user text in the conversation, oldest first (Codex's context messages too). */
    userTexts: input.filter(isUserMessage).map((i) => contentText(i.content).slice(0, 200)),
    /** The images of the user's messages since the model last spoke (a prompt's attachments). */
    lastUserImages: fresh
      .filter(isUserMessage)
      .flatMap((i) => (Array.isArray(i.content) ? i.content : []))
      .filter((p) => p?.type === 'input_image')
      .map((p) => dataUrl(p.image_url)),
    /** The tool outputs since the model last spoke (names as in the other fakes' summaries). */
    toolResults: fresh.filter(isToolOutput).map((i) => {
      const text = outputText(i.output);
      return { type: i.type, callId: i.call_id, isError: outputIsError(text), text: text.slice(0, 2000) };
    }),
  };
}

/** codex-acp's title request: a structured output whose schema requires `title`. */
function isTitleRequest(body) {
  const format = body.text?.format;
  return (
    format?.type === 'json_schema' && Array.isArray(format.schema?.required) && format.schema.required.includes('title')
  );
}

/** Codex's auto-reviewer ("guardian"): a structured output whose schema requires `outcome` (allow / deny). */
function isReviewRequest(body) {
  const format = body.text?.format;
  return (
    format?.type === 'json_schema' &&
    Array.isArray(format.schema?.required) &&
    format.schema.required.includes('outcome')
  );
}

/** Code mode's tools: the `additional_tools` input items' namespaces, flattened (`functions.exec`). */
function additionalTools(body) {
  const items = Array.isArray(body.input) ? body.input.filter((i) => i?.type === 'additional_tools') : [];
  return items
    .flatMap((i) => i.tools ?? [])
    .flatMap((t) =>
      t.type === 'namespace' ? (t.tools ?? []).map((x) => ({ ...x, name: `${t.name}.${x.name}` })) : [t],
    );
}

/** The tools Codex's `tool_search` gave the model so far (its outputs in the input): namespace, name, `namespace.name`. */
function searchedTools(body) {
  const outputs = (Array.isArray(body.input) ? body.input : []).filter((i) => i?.type === 'tool_search_output');
  return outputs
    .flatMap((o) => o.tools ?? [])
    .flatMap((t) =>
      t.type === 'namespace'
        ? (t.tools ?? []).map((x) => ({ namespace: t.name, name: x.name, full: `${t.name}.${x.name}` }))
        : [{ namespace: undefined, name: t.name, full: t.name }],
    );
}

/** Whether the request offers code mode's `exec` (the custom tool `functions.exec`). */
function codeModeExec(body) {
  return additionalTools(body).some((t) => t.name === 'functions.exec' && t.type === 'custom');
}

function isAssistantItem(item) {
  return (
    (item?.type === 'message' && item.role === 'assistant') ||
    ['function_call', 'custom_tool_call', 'local_shell_call', 'reasoning', 'tool_search_call'].includes(item?.type)
  );
}

function isUserMessage(item) {
  return item?.type === 'message' && item.role === 'user';
}

function isToolOutput(item) {
  return ['function_call_output', 'custom_tool_call_output', 'tool_search_output'].includes(item?.type);
}

function contentText(content) {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('') : '';
}

/** A tool output is a string, or content items ({type: 'input_text', text}). */
function outputText(output) {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return contentText(output);
  if (output && typeof output === 'object') {
    return typeof output.content === 'string' ? output.content : JSON.stringify(output);
  }
  return '';
}

/** An assistant message; `text` as an array gives the parts its deltas stream. */
function messageItem(id, text) {
  const parts = Array.isArray(text) ? text : splitInThree(text);
  return {
    type: 'message',
    id,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: parts.join(''), annotations: [] }],
    parts,
  };
}

function reasoningItem(id, text) {
  return { type: 'reasoning', id, summary: [{ type: 'summary_text', text }], parts: splitInThree(text) };
}

function splitInThree(text) {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const parts = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

function decode(buffer, encoding) {
  switch (encoding) {
    case 'gzip':
      return zlib.gunzipSync(buffer);
    case 'deflate':
      return zlib.inflateSync(buffer);
    case 'br':
      return zlib.brotliDecompressSync(buffer);
    case 'zstd':
      if (typeof zlib.zstdDecompressSync !== 'function') throw new Error('zstd request body (needs Node >= 22.15)');
      return zlib.zstdDecompressSync(buffer);
    default:
      return buffer;
  }
}

function apiError(code, message) {
  return { error: { message, type: 'invalid_request_error', param: null, code } };
}

/** One response as the Responses API's SSE stream; text (message, reasoning summary) in deltas. */
async function streamResponse(res, { id, model, items }, delayMs, holdMs = 0) {
  const event = startSse(res, delayMs, { 'x-request-id': `req_${id}` });
  let sequence = 0;
  const send = (type, data) => event({ type, sequence_number: sequence++, ...data }, type);
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'in_progress',
    model,
    output: [],
  };
  await send('response.created', { response });
  await send('response.in_progress', { response });
  const done = [];
  for (const [outputIndex, { parts, ...item }] of items.entries()) {
    const base = { output_index: outputIndex, item_id: item.id };
    if (item.type === 'message') {
      await send('response.output_item.added', {
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      await send('response.content_part.added', {
        ...base,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const [i, delta] of parts.entries()) {
        if (i === 1 && holdMs > 0) await hold(res, holdMs);
        if (res.destroyed) return;
        await send('response.output_text.delta', { ...base, content_index: 0, delta });
      }
      await send('response.output_text.done', { ...base, content_index: 0, text: item.content[0].text });
      await send('response.content_part.done', { ...base, content_index: 0, part: item.content[0] });
    } else if (item.type === 'reasoning') {
      await send('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [] } });
      await send('response.reasoning_summary_part.added', {
        ...base,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const delta of parts) {
        await send('response.reasoning_summary_text.delta', { ...base, summary_index: 0, delta });
      }
      await send('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: item.summary[0].text });
      await send('response.reasoning_summary_part.done', { ...base, summary_index: 0, part: item.summary[0] });
    } else {
      await send('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress' } });
    }
    await send('response.output_item.done', { output_index: outputIndex, item });
    done.push(item);
  }
  const usage = {
    input_tokens: 120,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 12,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 132,
  };
  await send('response.completed', { response: { ...response, status: 'completed', output: done, usage } });
  res.end();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveFromCommandLine(startFakeModel);
