/**
 * The bridge's server, for real: what a plain HTTP request gets, what each
 * refusal says (to the client and in the log), protocol errors, shutting
 * down, and a port already taken.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import type { BridgeOptions } from '../../../../src-node/bridge/options';
import { BridgeClose } from '../../../../src/shared/bridgeProtocol';
import { ORIGIN, closeOf as closed, loopbackBridge } from './bridgeClient';

/** An agent that says nothing and reads nothing: these tests are about the server. */
const QUIET = { id: 'quiet', name: 'Quiet', command: process.execPath, args: ['-e', 'setInterval(() => {}, 100_000)'] };

const options = (more: Partial<BridgeOptions> = {}): BridgeOptions =>
  loopbackBridge([QUIET], { maxConnections: 1, ...more });

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (text: string) => (body += text))
          .on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
      })
      .on('error', reject);
  });
}

/** The first bytes the server at `port` answers `request` with. */
function rawAnswer(port: string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    socket.once('data', (data) => (resolve(data.toString('latin1')), socket.destroy())).once('error', reject);
  });
}

describe('bridge server (refusals, errors, shutdown)', function () {
  this.timeout(20_000);
  let bridge: RunningBridge;
  let logs: string[];

  beforeEach(async () => {
    logs = [];
    bridge = await startBridge(options(), (line) => logs.push(line));
  });
  afterEach(() => bridge.close());

  it('answers a plain HTTP request with 426 and a line saying what it is', async () => {
    const res = await get(bridge.url.replace(/^ws:/, 'http:'));
    assert.deepEqual(res, {
      status: 426,
      type: 'text/plain',
      body: 'This is an ACP bridge for VS Code: connect with a WebSocket.\n',
    });
  });

  it('logs each refused origin, quoted, with the address it came from, "(none)" when there was none', async () => {
    for (const origin of [undefined, 'https://evil.example']) {
      const ws = new WebSocket(bridge.url, origin ? { origin } : {});
      ws.on('error', () => undefined);
      await new Promise((r) => ws.once('unexpected-response', r));
      ws.terminate();
    }
    assert.deepEqual(logs, [
      'refused 127.0.0.1 origin=(none): origin not allowed',
      'refused 127.0.0.1 origin="https://evil.example": origin not allowed',
    ]);
  });

  it('tells the client, and the log, why it closed: a wrong token, an unknown agent, too many connections', async () => {
    const refused = async (url: string) => closed(new WebSocket(url, { origin: ORIGIN }));
    assert.deepEqual(await refused(bridge.url.replace(/token=[^&]+/, 'token=wrong')), {
      code: BridgeClose.badToken,
      reason: 'invalid token',
    });
    assert.deepEqual(await refused(`${bridge.url}&agent=opencode`), {
      code: BridgeClose.unknownAgent,
      reason: 'no agent "opencode" here',
    });
    const first = new WebSocket(bridge.url, { origin: ORIGIN });
    await new Promise((r) => first.once('open', r)); // accepted: it holds the one connection
    assert.deepEqual(await refused(bridge.url), {
      code: BridgeClose.tooManyConnections,
      reason: 'too many connections',
    });
    first.close();
    assert.deepEqual(
      logs.filter((l) => l.startsWith('refused')),
      [
        `refused origin=${ORIGIN}: invalid token`,
        `refused origin=${ORIGIN}: no agent "opencode" here`,
        `refused origin=${ORIGIN}: too many connections`,
      ],
    );
    assert.ok(logs.includes(`accepted origin=${ORIGIN} agent=quiet`), logs.join('\n'));
  });

  it('refuses odd requests clearly: a target that is no URL, an agent id that is long or has control characters', async () => {
    const upgrade = 'Host: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n';
    for (const target of ['//[', '//a:99999/acp', 'http://[::1']) {
      assert.match(
        await rawAnswer(new URL(bridge.url).port, `GET ${target} HTTP/1.1\r\n${upgrade}`),
        /^HTTP\/1\.1 400 /,
      );
    }
    const refused = async (agent: string) =>
      closed(new WebSocket(`${bridge.url}&agent=${encodeURIComponent(agent)}`, { origin: ORIGIN }));
    // Quoted and cut to 64 bytes, between characters: the reason keeps its sense and its 123 bytes.
    assert.deepEqual(await refused('😀'.repeat(200)), {
      code: BridgeClose.unknownAgent,
      reason: `no agent "${'😀'.repeat(15)}…" here`,
    });
    assert.deepEqual(await refused('a\n\u001b[31mb'), {
      code: BridgeClose.unknownAgent,
      reason: 'no agent "a\\n\\u001b[31mb" here',
    });
    assert.ok(
      logs.every((l) => !/\p{Cc}/u.test(l)),
      `a log line with a control character: ${JSON.stringify(logs)}`,
    );
    // And the bridge goes on.
    const ws = new WebSocket(bridge.url, { origin: ORIGIN });
    await new Promise((r) => ws.once('open', r));
    ws.close();
  });

  it('serves the standard endpoint /acp, and / for URLs saved before it; nothing else', async () => {
    const at = (pathname: string) => {
      const url = new URL(bridge.url);
      url.pathname = pathname;
      const ws = new WebSocket(url.toString(), { origin: ORIGIN });
      ws.on('error', () => undefined);
      return new Promise<number | 'open'>((resolve) => {
        ws.once('open', () => (resolve('open'), ws.close()));
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      });
    };
    assert.equal(new URL(bridge.url).pathname, '/acp');
    assert.equal(await at('/acp'), 'open');
    await new Promise((r) => setTimeout(r, 100)); // that connection's slot is free again
    assert.equal(await at('/'), 'open');
    assert.equal(await at('/acp/other'), 404);
    assert.equal(await at('/x'), 404);
  });

  it('negotiates no compression, even when the client offers it', async () => {
    const ws = new WebSocket(bridge.url, { origin: ORIGIN, perMessageDeflate: true });
    await new Promise((r) => ws.once('open', r));
    assert.equal(ws.extensions, '');
    ws.close();
  });

  it('closes a connection that breaks the protocol, and logs why', async () => {
    const ws = new WebSocket(bridge.url, { origin: ORIGIN });
    await new Promise((r) => ws.once('open', r));
    ws.send(Buffer.from([0xc3, 0x28]), { binary: false }); // a text frame that is not UTF-8
    const { code } = await closed(ws);
    assert.equal(code, 1007);
    assert.ok(
      logs.some((l) => l.startsWith(`connection error origin=${ORIGIN}: `) && /UTF-8/.test(l)),
      logs.join('\n'),
    );
  });

  it('closes open connections with "going away" when it shuts down', async () => {
    const other = await startBridge(options(), () => undefined);
    const ws = new WebSocket(other.url, { origin: ORIGIN });
    await new Promise((r) => ws.once('open', r));
    const end = closed(ws);
    await other.close();
    assert.deepEqual(await end, { code: 1001, reason: 'bridge shutting down' });
  });

  it('fails to start, with the reason, on a port already taken', async () => {
    const port = Number(new URL(bridge.url).port);
    await assert.rejects(
      startBridge(options({ port }), () => undefined),
      /EADDRINUSE/,
    );
  });
});

describe('bridge server on IPv6 loopback', function () {
  this.timeout(10_000);

  it('prints its URL with the address in brackets', async function () {
    let bridge: RunningBridge;
    try {
      bridge = await startBridge(options({ host: '::1' }), () => undefined);
    } catch (error) {
      if (
        (error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL' ||
        (error as NodeJS.ErrnoException).code === 'EAFNOSUPPORT'
      ) {
        return this.skip();
      }
      throw error;
    }
    try {
      assert.match(bridge.url, /^ws:\/\/\[::1\]:\d+\/acp\?token=/);
      const ws = new WebSocket(bridge.url, { origin: ORIGIN });
      await new Promise((r, j) => ws.once('open', r).once('error', j));
      ws.close();
    } finally {
      await bridge.close();
    }
  });
});
