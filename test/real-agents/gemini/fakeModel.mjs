/**
 * A scripted stand-in for the Gemini API (generativelanguage, `v1beta`), on 127.0.0.1 (random
 * port), so that a real Gemini CLI (`gemini --acp`, GOOGLE_GEMINI_BASE_URL pointing here) runs
 * whole turns offline.
 *
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (the main turn) answers as
 * server-sent events, `:generateContent` (side calls: the model router's classifier, JSON
 * requests) as one JSON response. What it answers depends on the request:
 *
 * - the last `user` content carries a `functionResponse` for a call this server asked for: the
 *   rule's `after(result)` text (result = { isError, text }), ending the turn, or the next call
 *   `after` returns;
 * - a request that offers `tools` whose last user text contains a rule's `marker`: a
 *   `functionCall` of the rule's tool (or of the first declared tool its `toolMatching` matches)
 *   with the rule's args;
 * - a request for JSON (`generationConfig.responseMimeType` = application/json, or a response
 *   schema): a small object of that schema;
 * - anything else: `STREAM_TEXT`, streamed in several chunks.
 *
 * Also answered: `:countTokens`, `GET /v1beta/models[/id]`. Any other path gets a 404 in Google's
 * error format and a log line. Every request is recorded (`requests`; `GET /_fake/log` gives the
 * summaries).
 *
 * CLI (for trying the agent by hand): `node test/real-agents/gemini/fakeModel.mjs [port]`.
 */
import { fileURLToPath } from 'node:url';
import { sendJson, serveFromCommandLine, startFakeServer, toolOf } from '../fakeServer.mjs';

/** The reply to a prompt without a marker, and the chunks it is streamed in. */
export const STREAM_CHUNKS = ['Hello from the fake ', 'Gemini model, ', 'streamed in ', 'four chunks.'];
export const STREAM_TEXT = STREAM_CHUNKS.join('');
const MODEL_IDS = ['gemini-2.5-pro', 'gemini-2.5-flash', 'gemini-2.5-flash-lite'];

/**
 * @typedef {object} Rule
 * @property {string} marker   text that, in the user's latest prompt, selects this rule
 * @property {string} tool     the Gemini CLI tool to call (e.g. 'write_file', 'replace', 'run_shell_command')
 * @property {string} [toolMatching]  instead of `tool`: a RegExp source, the first declared tool it matches (an MCP
 *   tool, named by each agent its own way)
 * @property {object} args     the call's arguments (or `input`, as the other fakes name them)
 * @property {(result: {isError: boolean, text: string}) => string | Omit<Rule, 'marker'>} after  the final text
 *   after the tool result, or the next call (a rule of its own: its `after` comes after its result)
 */

/**
 * @param {{ rules?: Rule[], log?: (line: string) => void, delayMs?: number, port?: number }} [options]
 */
export async function startFakeModel(options = {}) {
  const log = options.log ?? ((line) => process.stderr.write(`[fake-gemini] ${line}\n`));
  let rules = options.rules ?? [];
  const delayMs = options.delayMs ?? 5;
  /** functionCall id -> rule that asked for it. */
  const issued = new Map();
  let counter = 0;
  const newId = (prefix) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

  /** A call of `named`'s tool, or a text when no declared tool matches its `toolMatching`. */
  function call(declared, named) {
    const tool = toolOf(named, declared);
    if (!tool || !declared.includes(tool)) {
      log(
        `rule "${named.marker}": the agent does not declare the tool ${tool ?? named.toolMatching} (it has ${declared.join(', ')})`,
      );
    }
    if (!tool) {
      return {
        parts: [{ text: `No declared tool matches ${named.toolMatching}.` }],
        why: `no-tool:${named.toolMatching}`,
      };
    }
    // Gemini CLI shows this id to the client as `<tool>__<id>` and sends it back here as it was.
    const id = newId('call');
    issued.set(id, { ...named, tool });
    return { parts: [{ functionCall: { id, name: tool, args: named.args ?? named.input } }], why: `call:${tool}` };
  }

  /** The answer to one generateContent request: { parts, why }. */
  function decide(body) {
    const contents = Array.isArray(body.contents) ? body.contents : [];
    const last = contents[contents.length - 1];
    const parts = last?.role === 'user' && Array.isArray(last.parts) ? last.parts : [];
    const response = parts.map((p) => p.functionResponse).find((r) => r && issued.has(r.id));
    const declared = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
    if (response) {
      const rule = issued.get(response.id);
      const result = resultOf(response);
      const next = rule.after(result);
      if (typeof next === 'object') return call(declared, { marker: rule.marker, ...next });
      return { parts: [{ text: next }], why: `after:${rule.tool}${result.isError ? ':error' : ''}` };
    }
    for (const p of parts) {
      if (p.functionResponse) {
        log(
          `functionResponse for a call this server did not issue: ${p.functionResponse.name} ${p.functionResponse.id}`,
        );
      }
    }
    const userText = parts
      .filter((p) => typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n');
    if (declared.length > 0) {
      const rule = rules.find((r) => userText.includes(r.marker));
      if (rule) return call(declared, rule);
    }
    const config = body.generationConfig ?? {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    if (config.responseMimeType === 'application/json' || schema) {
      return { parts: [{ text: JSON.stringify(schema ? sampleOf(schema) : {}) }], why: 'json' };
    }
    return { parts: STREAM_CHUNKS.map((text) => ({ text })), why: 'text' };
  }

  const server = await startFakeServer({
    log,
    port: options.port,
    isMessage: (p) => /:(generateContent|streamGenerateContent)$/.test(p),
    apiError: (type, message) =>
      type === 'not_found' ? apiError(404, message, 'NOT_FOUND') : apiError(500, message, 'INTERNAL'),
    async route({ method, pathname, body, record }, res) {
      const call = pathname.match(/^\/(v1beta|v1alpha|v1)\/models\/([^/:]+):([A-Za-z]+)$/);
      const one = pathname.match(/^\/(v1beta|v1)\/models\/([^/:]+)$/);
      if (call && method === 'POST' && (call[3] === 'generateContent' || call[3] === 'streamGenerateContent')) {
        const [, , model, verb] = call;
        const answer = decide(body);
        record.summary = { method, path: pathname, verb, ...summarize(body), answered: answer.why };
        log(`${verb} ${model} tools=${record.summary.tools.length} json=${record.summary.json} -> ${answer.why}`);
        if (verb === 'generateContent') sendJson(res, 200, responseOf(answer.parts, model, true));
        else await streamResponse(res, answer.parts, model, delayMs);
      } else if (call && method === 'POST' && call[3] === 'countTokens') {
        sendJson(res, 200, { totalTokens: Math.max(1, Math.round(JSON.stringify(body).length / 4)) });
      } else if (/^\/(v1beta|v1)\/models$/.test(pathname) && method === 'GET') {
        sendJson(res, 200, { models: MODEL_IDS.map(modelInfo) });
      } else if (one && method === 'GET') {
        sendJson(res, 200, modelInfo(one[2]));
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

/** What a test wants to know about a generateContent request. */
export function summarize(body) {
  const contents = Array.isArray(body.contents) ? body.contents : [];
  const last = contents[contents.length - 1];
  const parts = Array.isArray(last?.parts) ? last.parts : [];
  const config = body.generationConfig ?? {};
  return {
    tools: (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name),
    contents: contents.length,
    lastRole: last?.role,
    json: config.responseMimeType === 'application/json' || !!(config.responseJsonSchema ?? config.responseSchema),
    lastUserText: parts
      .filter((p) => typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n')
      .slice(-2000),
    /** The start of every user text in the conversation, oldest first: what the model was told before. */
    userTexts: contents
      .filter((c) => c?.role === 'user')
      .flatMap((c) => (Array.isArray(c.parts) ? c.parts : []))
      .filter((p) => typeof p.text === 'string')
      .map((p) => p.text.slice(0, 200)),
    /** The images of the last message (a prompt's attachments). */
    lastUserImages: parts
      .filter((p) => p.inlineData)
      .map((p) => ({ mediaType: p.inlineData.mimeType, data: p.inlineData.data })),
    functionResponses: parts
      .filter((p) => p.functionResponse)
      .map((p) => ({
        id: p.functionResponse.id,
        name: p.functionResponse.name,
        ...resultOf(p.functionResponse),
        text: resultOf(p.functionResponse).text.slice(0, 2000),
      })),
  };
}

/** Gemini CLI answers a call with `response: {output}` on success and `response: {error}` on failure or refusal. */
function resultOf(functionResponse) {
  const response = functionResponse.response ?? {};
  const isError = response.error !== undefined;
  const value = isError ? response.error : (response.output ?? response);
  return { isError, text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/**
 * A small value that satisfies a JSON schema. Numbers are 1: the model router's classifier asks for
 * `complexity_score` ("1-100") without saying `minimum`, and rejects 0.
 */
function sampleOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = String(Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? '')).toLowerCase();
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sampleOf(v)]));
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return 'fake';
  }
}

function usage() {
  return { promptTokenCount: 12, candidatesTokenCount: 8, totalTokenCount: 20 };
}

/** One GenerateContentResponse; `final` adds the finish reason and usage. */
function responseOf(parts, model, final) {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }],
    ...(final ? { usageMetadata: usage() } : {}),
    modelVersion: model,
    responseId: `resp_${Date.now()}`,
  };
}

function modelInfo(id) {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    inputTokenLimit: 1048576,
    outputTokenLimit: 65536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  };
}

function apiError(code, message, status) {
  return { error: { code, message, status } };
}

/** The answer as SSE: one event per part, the finish reason and usage on the last. */
async function streamResponse(res, parts, model, delayMs) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [i, part] of parts.entries()) {
    res.write(`data: ${JSON.stringify(responseOf([part], model, i === parts.length - 1))}\r\n\r\n`);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  }
  res.end();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serveFromCommandLine(startFakeModel);
