/**
 * The bridge, for real: started on loopback, reached with a real WebSocket
 * client speaking ACP's standard transport (one JSON-RPC message per text
 * frame, initialize first), running the scripted test agent as a real process.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import {
  AGENT_EXITED_METHOD,
  BRIDGE_META_KEY,
  BridgeClose,
  parseBridgeExit,
  readBridgeAnnouncement,
  STRAY_LINE_METHOD,
} from '../../../../src/shared/bridgeProtocol';
import { ORIGIN, agentJs, initialize, loopbackBridge, newSession, scenarios } from './bridgeClient';

interface Outcome {
  code: number;
  reason: string;
  frames: string[];
  httpStatus?: number;
}

/** Opens a socket, sends `send`, then sends `then[id]` when the response with that id arrives. */
function talk(
  url: string,
  origin: string | undefined,
  send: string[] = [],
  closeAfterFrames = Infinity,
  then: Record<number, string> = {},
): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    const frames: string[] = [];
    ws.on('open', () => send.forEach((m) => ws.send(m)));
    ws.on('message', (data) => {
      const text = data.toString();
      frames.push(text);
      const id = (JSON.parse(text) as { id?: number }).id;
      if (id !== undefined && then[id]) ws.send(then[id]);
      if (frames.length >= closeAfterFrames) ws.close(1000);
    });
    ws.on('unexpected-response', (_req, res) => resolve({ code: 0, reason: '', frames, httpStatus: res.statusCode }));
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), frames }));
    ws.on('error', () => undefined);
  });
}

const prompt = (id: number, text: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'session/prompt',
    params: { sessionId: 'sess-1', prompt: [{ type: 'text', text }] },
  });

function agentProcesses(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe('bridge (real sockets, real agent process)', function () {
  this.timeout(20_000);
  let bridge: RunningBridge;
  let logs: string[];
  let tmp: string;
  let marker: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-'));
    // A scenario copy with a unique path, so that its processes can be found.
    marker = path.join(tmp, `crash-${process.pid}.json`);
    fs.copyFileSync(path.join(scenarios, 'crash.json'), marker);
    logs = [];
    bridge = await startBridge(
      loopbackBridge(
        [
          { id: 'test', name: 'Test Agent', command: process.execPath, args: [agentJs, marker] },
          { id: 'missing', name: 'Missing', command: 'no-such-agent-anywhere', args: [] },
        ],
        { cwd: tmp },
      ),
      (line) => logs.push(line),
    );
  });
  after(async () => {
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('prints a loopback URL with a token of at least 128 bits', () => {
    const url = new URL(bridge.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.ok(Buffer.from(url.searchParams.get('token') ?? '', 'base64url').length >= 16);
  });

  it('refuses a wrong or missing token before starting any agent', async () => {
    const wrong = await talk(bridge.url.replace(/token=[^&]+/, 'token=wrong'), ORIGIN);
    const none = await talk(bridge.url.replace(/\?.*/, ''), ORIGIN);
    assert.equal(wrong.code, BridgeClose.badToken);
    assert.equal(none.code, BridgeClose.badToken);
    assert.deepEqual(wrong.frames, []);
    assert.equal(agentProcesses(marker).length, 0);
  });

  it('refuses a missing or foreign origin at the HTTP level', async () => {
    assert.equal((await talk(bridge.url, undefined)).httpStatus, 403);
    assert.equal((await talk(bridge.url, 'https://evil.example')).httpStatus, 403);
    assert.equal((await talk(bridge.url, 'https://vscode.dev.evil.example')).httpStatus, 403);
    // Look-alikes of each allowed origin, over a real socket: refused before any agent starts.
    for (const origin of [
      'http://localhost.evil.example',
      'http://127.0.0.1.attacker.net',
      'https://github.dev.evil.example',
      'http://localhost:3000@evil.example',
    ]) {
      assert.equal((await talk(bridge.url, origin)).httpStatus, 403, origin);
    }
    assert.equal(agentProcesses(marker).length, 0);
  });

  it('refuses every token that is not exactly the one it printed', async () => {
    const token = bridge.token;
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const near = {
      'a prefix (all but the last character)': token.slice(0, -1),
      'its first character': token.slice(0, 1),
      'an extension': `${token}A`,
      'the last character off by one': token.slice(0, -1) + flip(token.slice(-1)),
      'the first character off by one': flip(token[0]) + token.slice(1),
      empty: '',
      'in upper case': token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
      twice: token + token,
    };
    for (const [what, given] of Object.entries(near)) {
      assert.notEqual(given, token, what);
      const out = await talk(bridge.url.replace(/token=[^&]+/, `token=${encodeURIComponent(given)}`), ORIGIN);
      assert.equal(out.code, BridgeClose.badToken, what);
      assert.deepEqual(out.frames, [], what);
    }
    assert.equal(agentProcesses(marker).length, 0);
    // And the right one still gets in.
    const right = await talk(bridge.url, ORIGIN, [initialize], 1);
    assert.equal(right.frames.length, 1);
    for (let i = 0; i < 50 && agentProcesses(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  });

  it('refuses an agent that was not named at start', async () => {
    const out = await talk(`${bridge.url}&agent=opencode`, ORIGIN);
    assert.equal(out.code, BridgeClose.unknownAgent);
  });

  it("relays ACP both ways; the initialize response names the agent's folder and OS in its _meta", async () => {
    const out = await talk(bridge.url, ORIGIN, [initialize], 1);
    const response = JSON.parse(out.frames[0]) as { id: number; result: { protocolVersion: number; _meta?: object } };
    assert.equal(response.id, 1);
    assert.equal(response.result.protocolVersion, 1);
    const announced = readBridgeAnnouncement(response.result);
    assert.equal(announced?.cwd, tmp);
    assert.equal(announced?.os, 'posix', 'the web host checks MCP server commands for the bridge machine');
    assert.equal(announced?.agent.id, 'test');
    assert.ok(BRIDGE_META_KEY in (response.result._meta ?? {}));
  });

  it("tells the agent's exit code and last stderr lines in a last notification, then closes", async () => {
    const out = await talk(bridge.url, ORIGIN, [initialize], Infinity, {
      1: newSession,
      2: prompt(3, 'one'),
      3: prompt(4, 'two'),
    });
    // Everything the agent wrote came first (its second reply began), then the report: the client words it with
    // the agent's own name and every line.
    const last = JSON.parse(out.frames.at(-1)!) as { method: string; params: unknown };
    assert.equal(last.method, AGENT_EXITED_METHOD);
    assert.ok(out.frames.some((f) => f.includes('Second reply: about to crash')));
    const exit = parseBridgeExit(last.params);
    assert.equal(exit?.code, 3);
    assert.equal(exit?.signal, null);
    assert.match(exit?.stderrTail ?? '', /boom: the first of two lines\nboom: simulated crash$/);
    assert.notEqual(out.code, 1006, 'closed, not dropped');
  });

  it('ends the agent process when the socket closes', async () => {
    const out = await talk(bridge.url, ORIGIN, [initialize], 1);
    assert.equal(out.code, 1000);
    for (let i = 0; i < 50 && agentProcesses(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(agentProcesses(marker), []);
  });

  it('says when the agent command is missing', async () => {
    const out = await talk(`${bridge.url}&agent=missing`, ORIGIN);
    assert.equal(out.code, BridgeClose.agentExited);
    assert.match(out.reason, /not found/);
  });

  it('refuses more connections than allowed, before starting an agent for them', async () => {
    const open = () =>
      new Promise<WebSocket>((resolve) => {
        const ws = new WebSocket(bridge.url, { origin: ORIGIN });
        ws.once('open', () => resolve(ws)); // accepted: its agent starts
      });
    const first = await open();
    const second = await open();
    const third = await talk(bridge.url, ORIGIN);
    assert.equal(third.code, BridgeClose.tooManyConnections);
    assert.deepEqual(third.frames, []);
    first.close();
    second.close();
    await new Promise((r) => setTimeout(r, 200));
  });

  it('closes a connection that sends an oversized frame, and ends its agent', async () => {
    const out = await talk(bridge.url, ORIGIN, ['x'.repeat(16 * 1024 * 1024 + 10)]);
    assert.equal(out.code, 1009);
    for (let i = 0; i < 50 && agentProcesses(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(agentProcesses(marker), []);
  });

  it('logs connections without message bodies', () => {
    assert.ok(logs.some((l) => l.includes('accepted origin=http://localhost:3000 agent=test')));
    assert.ok(logs.some((l) => l.includes('invalid token')));
    assert.ok(!logs.some((l) => l.includes('initialize')));
  });
});

describe('bridge messages (text whole, limits kept)', function () {
  this.timeout(30_000);
  const MiB = 1024 * 1024;
  const text = 'h\u00e9llo \u{1f600} \u4e16\u754c';
  let bridge: RunningBridge;
  let logs: string[];
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-relay-'));
    const huge = path.join(tmp, 'huge.json');
    fs.writeFileSync(huge, JSON.stringify({ turns: [{ match: '', steps: [{ garbage: 'x'.repeat(16 * MiB + 1) }] }] }));
    const chatty = {
      turns: [
        {
          match: '',
          steps: [
            { echoUser: true },
            { garbage: ' \t ' },
            { garbage: `stray ${text}` },
            { garbage: '[1]' },
            { garbage: 'x'.repeat(300) },
            { garbage: 'fourth' },
          ],
        },
      ],
    };
    logs = [];
    bridge = await startBridge(
      loopbackBridge(
        [
          { id: 'chatty', name: 'Chatty', command: process.execPath, args: [agentJs, JSON.stringify(chatty)] },
          { id: 'huge', name: 'Huge', command: process.execPath, args: [agentJs, huge] },
        ],
        { cwd: tmp },
      ),
      (line) => logs.push(line),
    );
  });
  after(async () => {
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Runs initialize, session/new, then one prompt; resolves with every frame and how the socket closed. */
  function promptOnce(
    agent: string,
    afterInitialize: (ws: WebSocket) => void = () => undefined,
  ): Promise<{ frames: string[]; code: number; reason: string }> {
    return new Promise((resolve) => {
      const ws = new WebSocket(`${bridge.url}&agent=${agent}`, { origin: ORIGIN });
      const frames: string[] = [];
      ws.on('open', () => ws.send(initialize));
      ws.on('message', (data, isBinary) => {
        assert.equal(isBinary, false);
        const frame = data.toString();
        frames.push(frame);
        const id = (JSON.parse(frame) as { id?: number }).id;
        if (id === 1) {
          afterInitialize(ws);
          ws.send(newSession);
        }
        if (id === 2) ws.send(prompt(3, text));
        if (id === 3) ws.close(1000);
      });
      ws.on('close', (code, reason) => resolve({ frames, code, reason: reason.toString() }));
      ws.on('error', () => undefined);
    });
  }

  it("passes text whole both ways; the agent's stray lines are logged, the first three told, none relayed", async () => {
    const before = logs.length;
    const out = await promptOnce('chatty');
    assert.equal(out.code, 1000);
    const messages = out.frames.map(
      (f) => JSON.parse(f) as { method?: string; params?: { text?: string; update?: { content?: { text?: string } } } },
    );
    const echoed = messages.find((m) => m?.params?.update?.content?.text !== undefined);
    assert.equal(echoed?.params?.update?.content?.text, text);
    const told = messages.filter((m) => m.method === STRAY_LINE_METHOD).map((m) => m.params?.text);
    assert.deepEqual(told, [`stray ${text}`, '[1]', 'x'.repeat(200)]);
    assert.ok(!out.frames.some((f) => f.startsWith('stray') || f.trim() === '' || f === '[1]' || f === 'fourth'));
    const dropped = logs.slice(before).filter((l) => l.includes("dropped a line of the agent's output"));
    assert.equal(dropped.length, 4, dropped.join('\n'));
  });

  it('never passes a binary or empty frame, or a second initialize, to the agent', async () => {
    const out = await promptOnce('chatty', (ws) => {
      ws.send(Buffer.from(initialize.replace('"id":1', '"id":7')), { binary: true });
      ws.send('');
      ws.send(initialize.replace('"id":1', '"id":8'));
    });
    assert.equal(out.code, 1000);
    // The agent would have answered a second initialize with a result; the server refuses it, and an empty frame is
    // a parse error at most; nothing else answers ids 7 or 8, and the prompt went on.
    const answers = out.frames.map((f) => JSON.parse(f) as { id?: number | null; result?: unknown });
    assert.ok(!answers.some((a) => a.id === 7));
    assert.ok(!answers.some((a) => a.id === 8 && a.result !== undefined));
    assert.ok(answers.some((a) => a.id === 3 && a.result !== undefined));
  });

  it('closes with a reason, relaying nothing of it, when the agent writes a line over 16 MiB', async () => {
    const out = await promptOnce('huge');
    assert.equal(out.code, BridgeClose.agentExited);
    assert.match(out.reason, /larger than 16 MiB/);
    assert.ok(out.frames.every((f) => f.length < MiB));
    assert.ok(logs.includes('agent huge wrote a line over 16777216 bytes'), logs.join('\n'));
  });
});
