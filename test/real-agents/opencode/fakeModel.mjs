/**
 * A scripted stand-in for an OpenAI Chat Completions endpoint on 127.0.0.1 (random port), so that
 * a real OpenCode agent (provider `@ai-sdk/openai-compatible`, see agent.mjs) runs whole turns
 * offline. Kilo Code's CLI (an OpenCode fork, ../kilo/) and Qwen Code (the OpenAI SDK, ../qwen/)
 * use it too.
 *
 * `POST /v1/chat/completions` answers as server-sent events (`data: {chunk}` ... `data: [DONE]`)
 * when the body has `stream: true`, as one JSON completion otherwise. What it answers:
 *
 * - the main agent's request (it offers `tools`) whose last message is the user's and contains a
 *   rule's `marker`: a call of the rule's tool with the rule's input (finish reason `tool_calls`),
 *   or first the calls in the rule's `before` (OpenCode's `edit` needs a `read` of the file first);
 *   a rule's `reply` is said first, in the same answer (a rule with `reply` and no `tool`: that text
 *   ends the turn), its second part held back `holdMs` (a model still answering: time to steer);
 * - the last message is a `tool` message answering a call this server issued: the rule's next
 *   call, or after the last one the rule's `after(result)` text, ending the turn, or the next call
 *   `after` returns (result = { isError, text }; see REFUSED for what `isError` means);
 * - a rule's `toolMatching` (a RegExp source) names the first offered tool it matches: an MCP tool,
 *   which each agent names its own way; one Qwen Code defers (announced by name, not offered) is
 *   reviewed with its `tool_search` `select:<name>`, then called through its `tool_call`;
 * - anything else (OpenCode's title request on a session's first turn has no tools; a prompt
 *   without a marker): a text, `FALLBACK_TEXT` for side requests, `STREAMED_TEXT` for the agent.
 *
 * Every text is streamed in at least three content deltas.
 * Also answered: `GET /v1/models[/id]`, `HEAD|GET /`. Any other path gets a 404 in OpenAI's error
 * format and a log line.
 *
 * For the tests: every request is recorded (`requests`: full bodies; `messageLog()` and
 * `GET /_fake/log`: a summary per completion request, see `summarize`).
 *
 *   import { startFakeModel } from './fakeModel.mjs';
 *   const fake = await startFakeModel({ rules });   // fake.url = http://127.0.0.1:PORT (add /v1)
 *
 * CLI (for trying the agent by hand): `node test/real-agents/opencode/fakeModel.mjs [port]`.
 */
import { fileURLToPath } from 'node:url';
import { hold, sendJson, serveFromCommandLine, startFakeServer, startSse, threeParts, toolOf } from '../fakeServer.mjs';

/** The answer to side requests (titles). */
export const FALLBACK_TEXT = 'Fake title';
/** The main agent's answer to a prompt without a marker. */
export const STREAMED_TEXT = 'This reply comes from the fake model, streamed in several parts.';
export const MODEL_IDS = ['fake-model', 'fake-model-large'];

/**
 * Chat Completions has no error flag on a tool result: OpenCode sends a failed tool's error
 * message as the result's text ("Could not find oldString in the file. ..."). `isError` is true
 * for its wording of a permission the user rejected ("The user rejected permission to use this
 * specific tool call.") or a rule denied ("The user has specified a rule which prevents you from
 * using this specific tool call. ..."), and Qwen Code's of a rejected one (`Tool "x" was
 * canceled by the user.`, seen by the model with the next prompt); judge other failures by `text`.
 */
const REFUSED =
  /^(The user (rejected permission to use|has specified a rule which prevents you from using) this specific tool call|Tool "[^"]+" was canceled by the user)/;

/**
 * @typedef {object} Rule
 * @property {string} marker     text that, in the user's latest prompt, selects this rule
 * @property {string} [tool]     the tool to call (OpenCode: 'write', 'edit', 'bash', ...); none: `reply` ends the turn
 * @property {string} [toolMatching]  instead of `tool`: a RegExp source, the first offered tool it matches (an MCP
 *   tool, named by each agent its own way; so may a call of `before`)
 * @property {object} [input]    the tool's arguments
 * @property {{tool: string, input: object}[]} [before]  calls to make first, one a request, in order
 * @property {(result: {isError: boolean, text: string}) => string | Omit<Rule, 'marker'>} [after]  the final text
 *   after the last tool result, or the next call (a rule of its own: its `after` comes after its result)
 * @property {string} [reply]    a text said before the first call (without `tool`: the whole answer)
 * @property {number} [holdMs]   with `reply`: how long its second part waits (less when the agent aborts the request)
 */

/**
 * @param {{ rules?: Rule[], log?: (line: string) => void, delayMs?: number, port?: number }} [options]
 */
export async function startFakeModel(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[fake-model] ${line}\n`));
  const rules = options.rules ?? [];
  const delayMs = options.delayMs ?? 5;
  /** tool call id -> { rule, step } that asked for it (step: index into callsOf(rule)). */
  const issued = new Map();
  let counter = 0;
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

  const callsOf = (rule) => [...(rule.before ?? []), rule];

  /**
   * Call number `step` of `rule`, as an answer (a text when the request offers no tool that matches). A tool Qwen Code
   * defers (MCP tools: announced by name, not offered) is called as a real model does: reviewed with its `tool_search`,
   * then invoked through its `tool_call`; the rule goes on after that call's result.
   */
  function call(body, rule, step) {
    const calls = callsOf(rule);
    const { input, ...named } = calls[step];
    const offered = (body.tools ?? []).map((t) => t.function?.name);
    const tool = toolOf(named, offered);
    const deferred = !tool && BRIDGE.every((b) => offered.includes(b)) && toolOf(named, deferredTools(body));
    if (deferred) {
      const rest = step + 1 < calls.length ? { ...rule, before: rule.before.slice(step + 1) } : undefined;
      const bridged = {
        marker: rule.marker,
        tool: 'tool_search',
        input: { query: `select:${deferred}` },
        after: () => ({
          tool: 'tool_call',
          input: { name: deferred, arguments: input },
          after: (r) => rest ?? rule.after(r),
        }),
      };
      return call(body, bridged, 0);
    }
    if (!tool || !offered.includes(tool)) {
      log(
        `rule "${rule.marker}": the agent does not offer the tool ${tool ?? named.toolMatching} (${offered.join(', ')})`,
      );
    }
    if (!tool) return { text: `No offered tool matches ${named.toolMatching}.`, why: `no-tool:${named.toolMatching}` };
    const id = newId('call');
    issued.set(id, { rule, step });
    return { toolCall: { id, name: tool, arguments: JSON.stringify(input) }, why: `tool:${tool}` };
  }

  /** Decides the answer to one completion request: { text } or { toolCall }, plus why. */
  function decide(body) {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    const last = messages[messages.length - 1];
    if (last?.role === 'tool' && issued.has(last.tool_call_id)) {
      const { rule, step } = issued.get(last.tool_call_id);
      if (step + 1 < callsOf(rule).length) return call(body, rule, step + 1);
      const text = textOf(last.content);
      const isError = REFUSED.test(text);
      const next = rule.after({ isError, text });
      if (typeof next === 'object') return call(body, { marker: rule.marker, ...next }, 0);
      return { text: next, why: `after:${rule.tool ?? rule.toolMatching}${isError ? ':error' : ''}` };
    }
    const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
    if (!offersTools) return { text: FALLBACK_TEXT, why: 'side' };
    const rule = last?.role === 'user' && rules.find((r) => textOf(last.content).includes(r.marker));
    if (rule?.reply !== undefined) {
      const said = { text: rule.reply, holdMs: rule.holdMs ?? 0 };
      return rule.tool ? { ...call(body, rule, 0), ...said } : { ...said, why: `reply:${rule.marker}` };
    }
    if (rule) return call(body, rule, 0);
    return { text: STREAMED_TEXT, why: 'text' };
  }

  return startFakeServer({
    log,
    port: options.port,
    isMessage: (p) => p === '/v1/chat/completions',
    apiError,
    async route({ method, pathname, body, record }, res) {
      if (pathname === '/v1/chat/completions' && method === 'POST') {
        const answer = decide(body);
        record.summary = { method, path: pathname, ...summarize(body), answered: answer.why };
        log(
          `${method} ${pathname} model=${body.model} stream=${body.stream === true} tools=${body.tools?.length ?? 0} -> ${answer.why}`,
        );
        const completion = {
          id: newId('chatcmpl'),
          created: Math.floor(Date.now() / 1000),
          model: body.model ?? MODEL_IDS[0],
        };
        if (body.stream === true) await streamCompletion(res, completion, answer, delayMs);
        else {
          const message = answer.toolCall
            ? {
                role: 'assistant',
                content: answer.text ?? null,
                tool_calls: [
                  {
                    id: answer.toolCall.id,
                    type: 'function',
                    function: { name: answer.toolCall.name, arguments: answer.toolCall.arguments },
                  },
                ],
              }
            : { role: 'assistant', content: answer.text };
          sendJson(res, 200, {
            ...completion,
            object: 'chat.completion',
            choices: [{ index: 0, message, finish_reason: answer.toolCall ? 'tool_calls' : 'stop' }],
            usage: USAGE,
          });
        }
        return true;
      }
      if (pathname === '/v1/models' && method === 'GET') {
        sendJson(res, 200, { object: 'list', data: MODEL_IDS.map(modelInfo) });
      } else if (pathname.startsWith('/v1/models/') && method === 'GET') {
        sendJson(res, 200, modelInfo(decodeURIComponent(pathname.slice('/v1/models/'.length))));
      } else return false;
      return true;
    },
  });
}

const USAGE = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };

/** Qwen Code's two tools for the tools it defers: review a schema, then call it. */
const BRIDGE = ['tool_search', 'tool_call'];

/** The tools Qwen Code defers, by the names it announces (`- "name": "description"` lines, in a text naming tool_search). */
function deferredTools(body) {
  const texts = (Array.isArray(body.messages) ? body.messages : []).map((m) => textOf(m?.content));
  return texts
    .filter((text) => text.includes('tool_search'))
    .flatMap((text) => [...text.matchAll(/^- ("(?:[^"\\]|\\.)*"):/gm)].map((m) => JSON.parse(m[1])));
}

/** What a test wants to know about a completion request. */
export function summarize(body) {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const lastUser = [...messages].reverse().find((m) => m?.role === 'user');
  return {
    model: body.model,
    stream: body.stream === true,
    tools: Array.isArray(body.tools) ? body.tools.map((t) => t.function?.name) : [],
    messages: messages.length,
    lastRole: messages[messages.length - 1]?.role,
    lastUserText: textOf(lastUser?.content).slice(-2000),
    /**
     * The start of every user text in the conversation, oldest first: what the model was told before
     * (without the agent's own `<system-reminder>` parts: Qwen Code puts some before a session's first prompt).
     */
    userTexts: messages.filter((m) => m?.role === 'user').map((m) => textOf(m.content, true).slice(0, 200)),
    /** The images of the last user message (a prompt's attachments), from their data: URLs. */
    lastUserImages: (Array.isArray(lastUser?.content) ? lastUser.content : [])
      .filter((p) => p?.type === 'image_url')
      .map((p) => dataUrl(p.image_url?.url)),
    toolResults: messages
      .filter((m) => m?.role === 'tool')
      .map((m) => ({
        toolCallId: m.tool_call_id,
        isError: REFUSED.test(textOf(m.content)),
        text: textOf(m.content).slice(0, 2000),
      })),
  };
}

/** `{ mediaType, data }` of a base64 data: URL. */
export function dataUrl(url) {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(String(url ?? ''));
  return m ? { mediaType: m[1], data: m[2] } : { url: String(url ?? '').slice(0, 200) };
}

/** The text of a message's content; `withoutReminders`: leaving out parts that are `<system-reminder>`s. */
function textOf(content, withoutReminders = false) {
  if (typeof content === 'string') return content;
  const said = (p) => p?.type === 'text' && !(withoutReminders && p.text?.startsWith('<system-reminder>'));
  if (Array.isArray(content)) return content.map((p) => (said(p) ? p.text : '')).join('');
  return '';
}

function modelInfo(id) {
  return { id, object: 'model', created: 1735689600, owned_by: 'fake' };
}

function apiError(type, message) {
  return { error: { message, type, param: null, code: null } };
}

/**
 * The answer as Chat Completions chunks: text in three deltas (the second after `answer.holdMs`), then a tool call's
 * arguments in two.
 */
async function streamCompletion(res, completion, answer, delayMs) {
  const event = startSse(res, delayMs);
  const send = (delta, finishReason = null, extra = {}) =>
    event({
      ...completion,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    });
  await send({ role: 'assistant', content: '' });
  for (const [i, part] of (answer.text === undefined ? [] : threeParts(answer.text)).entries()) {
    if (i === 1 && answer.holdMs > 0) await hold(res, answer.holdMs);
    if (res.destroyed) return;
    await send({ content: part });
  }
  if (answer.toolCall) {
    const { id, name, arguments: args } = answer.toolCall;
    const half = Math.ceil(args.length / 2);
    await send({
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args.slice(0, half) } }],
    });
    await send({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] });
  }
  await send({}, answer.toolCall ? 'tool_calls' : 'stop', { usage: USAGE });
  await event('[DONE]');
  res.end();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveFromCommandLine(startFakeModel, '/v1');
