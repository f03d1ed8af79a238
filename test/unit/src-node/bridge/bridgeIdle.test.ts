/**
 * The bridge's idle timeout, for real: a connection with no traffic either
 * way for the timeout is closed; traffic from either side alone keeps it.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import type { BridgeAgent } from '../../../../src-node/bridge/options';
import { BridgeClose } from '../../../../src/shared/bridgeProtocol';
import { ORIGIN, agentJs, initialize, loopbackBridge, newSession, scenarios, sleep } from './bridgeClient';

/** The idle timeout of these tests (half a second: each mutant of the relay runs them). */
const IDLE_MS = 500;
/** Traffic every TICK_MS, five times: the connection must outlive the timeout while it lasts. */
const TICK_MS = 150;

const AGENTS: BridgeAgent[] = [
  { id: 'test', name: 'Test Agent', command: process.execPath, args: [agentJs, path.join(scenarios, 'basic.json')] },
  // Never reads what it is sent, never writes (not even an answer to initialize): only the client's frames are traffic.
  { id: 'deaf', name: 'Deaf', command: process.execPath, args: ['-e', 'setInterval(() => {}, 100_000)'] },
  // Answers initialize, then says something every TICK_MS, five times, unasked: only the agent's lines are traffic.
  {
    id: 'talker',
    name: 'Talker',
    command: process.execPath,
    args: [
      '-e',
      `process.stdin.once('data', () => { process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}\\n'); let n = 0; const t = setInterval(() => { process.stdout.write('{"jsonrpc":"2.0","method":"x/tick"}\\n'); if (++n === 5) clearInterval(t); }, ${TICK_MS}); }); setInterval(() => {}, 100_000);`,
    ],
  },
];

/** Opens a socket to `agent`; resolves when it closes, with its code and the time from open to close. */
function openUntilClosed(
  bridge: RunningBridge,
  agent: string,
  onOpen: (ws: WebSocket) => void = () => undefined,
): Promise<{ code: number; reason: string; openMs: number; lastMessageMs: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${bridge.url}&agent=${agent}`, { origin: ORIGIN });
    let opened = 0;
    let lastMessage = 0;
    ws.on('open', () => {
      opened = Date.now();
      onOpen(ws);
    });
    ws.on('message', () => (lastMessage = Date.now()));
    ws.on('close', (code, reason) =>
      resolve({
        code,
        reason: reason.toString(),
        openMs: Date.now() - opened,
        lastMessageMs: Date.now() - lastMessage,
      }),
    );
    ws.on('error', () => undefined);
  });
}

describe('bridge idle timeout', function () {
  this.timeout(20_000);
  let bridge: RunningBridge;
  let logs: string[];

  before(async () => {
    logs = [];
    bridge = await startBridge(loopbackBridge(AGENTS, { idleTimeoutSeconds: IDLE_MS / 1000 }), (line) =>
      logs.push(line),
    );
  });
  after(() => bridge.close());

  it('closes a connection with no traffic for the idle timeout, with a reason', async () => {
    const before = logs.length;
    const out = await openUntilClosed(bridge, 'test', (ws) => ws.send(initialize));
    assert.equal(out.code, BridgeClose.idle);
    assert.equal(out.reason, 'idle');
    assert.ok(out.openMs >= IDLE_MS - 50, `closed ${out.openMs} ms after it opened, before the timeout`);
    assert.deepEqual(
      logs.slice(before).filter((l) => l.includes('idle')),
      ['closed an idle connection'],
    );
  });

  it('counts from the last message either way, not from the first', async () => {
    const out = await openUntilClosed(bridge, 'test', (ws) => {
      ws.send(initialize);
      setTimeout(() => ws.send(newSession), IDLE_MS * 0.7);
    });
    assert.equal(out.code, BridgeClose.idle);
    assert.ok(out.lastMessageMs >= IDLE_MS - 50, `closed ${out.lastMessageMs} ms after the last message`);
  });

  it("is kept open by the client's frames alone, to an agent that says nothing", async () => {
    const out = await openUntilClosed(bridge, 'deaf', (ws) => {
      ws.send(initialize);
      let n = 0;
      const t = setInterval(() => {
        ws.send('{"jsonrpc":"2.0","method":"x/tick"}');
        if (++n === 5) clearInterval(t);
      }, TICK_MS);
    });
    assert.equal(out.code, BridgeClose.idle);
    assert.ok(
      out.openMs >= 5 * TICK_MS + IDLE_MS - 50,
      `closed ${out.openMs} ms after it opened, while the client was still sending`,
    );
  });

  it("is kept open by the agent's lines alone, to a client that says nothing", async () => {
    const out = await openUntilClosed(bridge, 'talker', (ws) => ws.send(initialize));
    assert.equal(out.code, BridgeClose.idle);
    assert.ok(
      out.openMs >= 5 * TICK_MS + IDLE_MS - 50,
      `closed ${out.openMs} ms after it opened, while the agent was still writing`,
    );
    assert.ok(out.lastMessageMs >= IDLE_MS - 50, `closed ${out.lastMessageMs} ms after the agent's last line`);
  });

  it('says nothing of idleness for a connection that closed before its timeout', async () => {
    const before = logs.length;
    const out = await openUntilClosed(bridge, 'test', (ws) => setTimeout(() => ws.close(1000), 100));
    assert.equal(out.code, 1000);
    await sleep(IDLE_MS + 300);
    assert.deepEqual(
      logs.slice(before).filter((l) => l.includes('idle')),
      [],
    );
  });
});
