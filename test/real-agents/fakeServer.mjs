/**
 * The HTTP part every fake model endpoint shares (fakeAnthropic.mjs, opencode/, codex/,
 * gemini/fakeModel.mjs): a server on 127.0.0.1 (random port unless given) that parses JSON
 * bodies, records every request, answers the test hooks, and 404s what no route knows.
 *
 *   const server = await startFakeServer({
 *     log, port, isMessage: (path) => path === '/v1/messages',
 *     apiError: (type, message) => ({ error: { type, message } }),     // the API's error format
 *     route: async ({ method, pathname, search, body, record }, res) => { ...; return true },  // false: unknown
 *     decode: (bytes, headers) => bytes,                              // optional: a compressed body
 *   });
 *
 * `record.summary` is what `GET /_fake/log` and `messageLog()` return for a request (a route
 * sets it); `POST /_fake/reset` forgets the requests. A route that throws gets a 500.
 */
import * as http from 'node:http';

export function sendJson(res, status, value, headers = {}) {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Starts a server-sent event stream; `send(data, event?)` writes one event (objects as JSON) and waits `delayMs`. */
export function startSse(res, delayMs, headers = {}) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  return async (data, event) => {
    res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  };
}

/**
 * The tool a rule calls, of the names a request offers: its `tool`, or the first offered that matches its
 * `toolMatching` (a RegExp source: an MCP tool, which each agent names its own way), or undefined when none does.
 */
export function toolOf(rule, offered) {
  if (!rule.toolMatching) return rule.tool;
  const pattern = new RegExp(rule.toolMatching);
  return offered.find((name) => pattern.test(name));
}

/** Waits `ms`, or less when the client goes away first (an aborted request). */
export function hold(res, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** `text` in three parts (fewer only when it is shorter than three characters): a streamed text. */
export function threeParts(text) {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * @param {{ log: (line: string) => void, port?: number, isMessage: (path: string) => boolean,
 *   apiError: (type: string, message: string) => object,
 *   route: (request: { method: string, pathname: string, search: URLSearchParams, body: any, record: any }, res: http.ServerResponse) => Promise<boolean>,
 *   decode?: (bytes: Buffer, headers: http.IncomingHttpHeaders) => Buffer }} options
 */
export async function startFakeServer({ log, port = 0, isMessage, apiError, route, decode = (bytes) => bytes }) {
  /** Every request, in order: { at, method, path, body, summary }. */
  const requests = [];

  async function handle(method, url, body, res) {
    const pathname = url.pathname;
    if (pathname === '/_fake/log' && method === 'GET') {
      return sendJson(
        res,
        200,
        requests.map((r) => r.summary),
      );
    }
    if (pathname === '/_fake/reset' && method === 'POST') {
      requests.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    const record = { at: Date.now(), method, path: pathname, body, summary: { method, path: pathname } };
    requests.push(record);
    if (await route({ method, pathname, search: url.searchParams, body, record }, res)) return;
    if (pathname === '/' && (method === 'GET' || method === 'HEAD')) return sendJson(res, 200, { ok: true });
    record.summary.unknown = true;
    log(`unknown request: ${method} ${pathname} ${JSON.stringify(body).slice(0, 300)}`);
    sendJson(res, 404, apiError('not_found', `fake endpoint has no ${method} ${pathname}`));
  }

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      let body = {};
      let raw = '';
      try {
        raw = decode(Buffer.concat(chunks), req.headers).toString('utf8');
        if (raw) body = JSON.parse(raw);
      } catch (error) {
        body = { unparsed: raw.slice(0, 2000) || String(error) };
      }
      handle(req.method ?? 'GET', url, body, res).catch((error) => {
        log(`error answering ${req.method} ${url.pathname}: ${error?.stack ?? error}`);
        if (!res.headersSent) sendJson(res, 500, apiError('server_error', String(error)));
        else res.end();
      });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`;
  log(`listening on ${url}`);
  return {
    url,
    requests,
    /** The recorded model requests, summarized. */
    messageLog() {
      return requests.filter((r) => isMessage(r.path)).map((r) => r.summary);
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** For a fake's command line: serves until SIGINT/SIGTERM and prints its URL. */
export async function serveFromCommandLine(start, suffix = '') {
  const server = await start({ port: Number(process.argv[2] ?? 0) });
  process.stdout.write(`${server.url}${suffix}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
