import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import { startEditorEndpoint } from '../../../src-node/editorEndpoint';
import { TOOL_GROUPS } from '../../../src/editorServer/editorTools';
import type { EditorEndpoint } from '../../../src/platform';

/** One raw request (node:http, so that Host and Origin are ours to set), its status and body. */
function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('The editor server on loopback HTTP (Node host)', () => {
  let endpoint: EditorEndpoint;
  const calls: string[] = [];
  beforeEach(async () => {
    endpoint = await startEditorEndpoint({
      answer: async (tool, args) => (
        calls.push(`${tool.name} ${JSON.stringify(args)}`),
        { text: `answer of ${tool.name}` }
      ),
      groups: new Set(TOOL_GROUPS),
      version: '1.0.0',
    });
  });
  afterEach(() => endpoint.dispose());

  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'problems', arguments: {} },
  });
  const good = () => ({
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    host: new URL(endpoint.url).host,
    ...Object.fromEntries(endpoint.headers.map((h) => [h.name, h.value])),
  });

  it('listens on 127.0.0.1 at an unguessable path, its token in a header, not in the URL', () => {
    const url = new URL(endpoint.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.match(url.pathname, /^\/mcp\/[0-9a-f]{32}$/);
    assert.equal(endpoint.headers.length, 1);
    assert.match(endpoint.headers[0]!.value, /^Bearer [\w-]{43}$/);
    assert.ok(!endpoint.url.includes(endpoint.headers[0]!.value.slice(7)));
  });

  it('answers a tool call with its token', async () => {
    const reply = await post(endpoint.url, call, good());
    assert.equal(reply.status, 200);
    assert.match(reply.text, /answer of problems/);
    assert.deepEqual(calls.splice(0), ['problems {}']);
  });

  it('refuses without the token, at another path, from another Host name or a browser Origin: the tools never run', async () => {
    const { authorization: _, Authorization: __, ...noToken } = good() as Record<string, string>;
    assert.equal((await post(endpoint.url, call, noToken)).status, 401);
    assert.equal((await post(endpoint.url, call, { ...good(), Authorization: 'Bearer wrong' })).status, 401);
    assert.equal((await post(endpoint.url.replace(/[0-9a-f]{32}$/, '0'.repeat(32)), call, good())).status, 404);
    assert.equal(
      (await post(endpoint.url, call, { ...good(), host: `attacker.example:${new URL(endpoint.url).port}` })).status,
      403,
    );
    assert.equal((await post(endpoint.url, call, { ...good(), origin: 'http://attacker.example' })).status, 403);
    // Another page on this machine (a dev server, the workbench itself) is another origin.
    const own = new URL(endpoint.url).origin;
    const port = Number(new URL(endpoint.url).port);
    assert.equal((await post(endpoint.url, call, { ...good(), origin: `http://127.0.0.1:${port + 1}` })).status, 403);
    assert.equal((await post(endpoint.url, call, { ...good(), origin: `http://localhost:${port}` })).status, 403);
    assert.deepEqual(calls, []);
    assert.equal((await post(endpoint.url, call, { ...good(), origin: own })).status, 200, 'its own origin');
    assert.deepEqual(calls, ['problems {}']);
  });

  it('1,000 calls at once: at most 16 run, the rest are told to come back (429), and it answers after', async function () {
    this.timeout(30_000);
    endpoint.dispose();
    let running = 0;
    let most = 0;
    endpoint = await startEditorEndpoint({
      answer: async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return { text: 'ok' };
      },
      groups: new Set(TOOL_GROUPS),
      version: '1.0.0',
    });
    const start = performance.now();
    const replies = await Promise.all(Array.from({ length: 1_000 }, () => post(endpoint.url, call, good())));
    console.log(`      (1,000 calls answered in ${Math.round(performance.now() - start)} ms)`);
    const answered = replies.filter((r) => r.status === 200).length;
    const refused = replies.filter((r) => r.status === 429 && r.text === 'Too many requests at once.').length;
    assert.equal(answered + refused, 1_000, JSON.stringify([...new Set(replies.map((r) => r.status))]));
    assert.ok(answered >= 16, `${answered} answered`);
    assert.ok(most <= 16, `${most} ran at once`);
    assert.equal((await post(endpoint.url, call, good())).status, 200);
  });

  it('refuses a body over 1 MiB without reading it whole', async () => {
    const reply = await post(endpoint.url, 'x'.repeat(1024 * 1024 + 1), good());
    assert.equal(reply.status, 413);
  });

  it('is closed with the session: no port left open', async () => {
    endpoint.dispose();
    await assert.rejects(post(endpoint.url, call, good()), /ECONNREFUSED/);
  });
});
