/**
 * The editor server on loopback HTTP for one session, for agents whose MCP client takes a URL (every agent we test
 * takes `http`; none takes MCP-over-ACP yet). Served by the official MCP library's handler (both MCP revisions agents
 * speak: 2025's stateless requests and 2026-07-28's), behind what makes a loopback port safe to open:
 * - 127.0.0.1 only, on a port the system picks, at an unguessable path, with a bearer token of its own in a header
 *   (never in the URL); a request without both gets 404 or 401 and reaches nothing;
 * - the Host header must be this address (a web page that rebinds a name of its own to 127.0.0.1 sends its name), and
 *   a request with an Origin (a browser's) is refused, but for the endpoint's own (no page is served from it; the MCP
 *   spec's DNS-rebinding rule has a server accept its own localhost origin);
 * - bodies up to 1 MiB, 16 requests at once, 30 s each; closed with the session, requests under way cut.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Readable } from 'node:stream';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { editorMcpServer } from '../src/editorServer/editorMcp';
import type { EditorEndpoint, EditorServe } from '../src/platform';

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_ACTIVE = 16;
const REQUEST_MS = 30_000;

export async function startEditorEndpoint(serve: EditorServe): Promise<EditorEndpoint> {
  const path = `/mcp/${randomBytes(16).toString('hex')}`;
  const token = randomBytes(32).toString('base64url');
  const bearer = Buffer.from(`Bearer ${token}`);
  const handler = createMcpHandler(() => editorMcpServer(serve.answer, serve.groups, serve.version));
  let active = 0;
  let host = '';

  const refuse = (res: http.ServerResponse, status: number, text: string) => {
    res.writeHead(status, { 'content-type': 'text/plain' }).end(text);
  };
  const authorised = (req: http.IncomingMessage) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    return given.length === bearer.length && timingSafeEqual(given, bearer);
  };
  const server = http.createServer({ requestTimeout: REQUEST_MS, headersTimeout: REQUEST_MS }, (req, res) => {
    if (req.url !== path) return refuse(res, 404, 'Not found.');
    const origin = req.headers.origin;
    if (req.headers.host !== host || (origin !== undefined && origin !== `http://${host}`)) {
      return refuse(res, 403, 'Forbidden.');
    }
    if (!authorised(req)) return refuse(res, 401, 'Unauthorized.');
    if (active >= MAX_ACTIVE) return refuse(res, 429, 'Too many requests at once.');
    active++;
    res.once('close', () => active--);
    void answer(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'The editor server failed.');
      else res.destroy();
    });
  });

  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = await readBody(req);
    if (body === undefined) return refuse(res, 413, 'The request is over 1 MiB.');
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const response = await handler.fetch(
      new Request(`http://${host}${path}`, {
        method: req.method ?? 'GET',
        headers,
        signal: abort.signal,
        ...(req.method === 'POST' ? { body: body.toString('utf8') } : {}),
      }),
    );
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(res);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${host}${path}`,
    headers: [{ name: 'Authorization', value: `Bearer ${token}` }],
    dispose() {
      server.close();
      server.closeAllConnections();
      void handler.close?.();
    },
  };
}

/** The request's body, or undefined past MAX_BODY_BYTES (it is not read further). */
async function readBody(req: http.IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) return undefined;
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > MAX_BODY_BYTES) {
      req.destroy();
      return undefined;
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}
