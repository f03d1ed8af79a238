/**
 * The bridge under a side that does not keep up: it must stop reading the
 * other side rather than hold everything in memory. The bridge runs as its
 * own process (dist/bridge/bridge.js) so that its memory can be read alone.
 * Each agent answers the client's initialize first, as the standard
 * transport's server requires, and then misbehaves.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import { ORIGIN, loopbackBridge, startBridgeProcess } from './bridgeClient';

const MiB = 1024 * 1024;
/** What the sending side offers: far more than the bridge may hold. */
const FLOOD_MIB = 384;
/** Resident memory the bridge may reach meanwhile (Node itself is ~50 MiB). */
const MAX_RSS_MIB = 160;

/** On the command line of every agent these tests start, to find them afterwards. */
const MARKER = 'acp-backpressure-test-agent';

/** Agent code: answers the first line it reads (the client's initialize, id 1), then runs `then`. */
const answerInitialize = (then: string) =>
  `process.stdin.once('data', () => { process.stdin.pause(); process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1 } }) + '\\n'); ${then} });`;
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } });

/** An agent that writes 1 MiB lines as fast as its stdout takes them, FLOOD_MIB of them. */
const FLOOD_AGENT = `/* ${MARKER} */ const line = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'a'.repeat(${MiB}) } }) + '\\n';
let left = ${FLOOD_MIB};
const go = () => { while (left > 0) { left--; if (!process.stdout.write(line)) return process.stdout.once('drain', go); } };
${answerInitialize('go();')} setInterval(() => {}, 1e9);`;
/** An agent that answers initialize and then never reads its stdin again. */
const DEAF_AGENT = `/* ${MARKER} */ ${answerInitialize('')} setInterval(() => {}, 1e9);`;

/** Opens a socket to `url` and initializes; resolves once the agent has answered. */
async function initialized(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { origin: ORIGIN });
  await new Promise((r) => ws.once('open', r));
  ws.send(INITIALIZE);
  await new Promise((r) => ws.once('message', r));
  return ws;
}

/** The agents of these tests still running, polled for up to `ms` (the bridge's keeper gives them 2 s after SIGTERM). */
async function agentsLeft(ms: number): Promise<string> {
  const running = () => {
    try {
      // The agent's own command line starts with its program and `-e /* MARKER`; the bridge's names it after `--`.
      return execFileSync('pgrep', ['-f', `^[^ ]+ -e /\\* ${MARKER}`], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  };
  for (const end = Date.now() + ms; running() && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
  return running();
}

function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

/** The highest resident memory of `pid` over `ms`. */
async function peakRss(pid: number, ms: number): Promise<number> {
  let peak = 0;
  for (const end = Date.now() + ms; Date.now() < end;) {
    peak = Math.max(peak, rssMiB(pid));
    await new Promise((r) => setTimeout(r, 50));
  }
  return peak;
}

describe('bridge backpressure (the bridge as its own process)', function () {
  this.timeout(30_000);
  if (process.platform !== 'linux') return;

  it('a client that does not read: the agent is made to wait, the bridge does not hold its output', async () => {
    const { child, url } = await startBridgeProcess([process.execPath, '-e', FLOOD_AGENT]);
    const ws = await initialized(url);
    try {
      let received = 0;
      ws.on('message', (data: Buffer) => (received += data.length));
      await new Promise((r) => setTimeout(r, 200));
      ws.pause(); // stop reading: the bridge's writes to us back up
      const peak = await peakRss(child.pid!, 3_000);
      assert.ok(peak < MAX_RSS_MIB, `the bridge grew to ${peak.toFixed(0)} MiB while its client did not read`);
      // Reading again gets the rest: nothing was dropped.
      ws.resume();
      const deadline = Date.now() + 20_000;
      while (received < FLOOD_MIB * MiB && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.ok(received >= FLOOD_MIB * MiB, `received ${(received / MiB).toFixed(0)} of ${FLOOD_MIB} MiB`);
    } finally {
      ws.terminate();
      child.kill('SIGKILL');
    }
  });

  it('a bridge killed outright (SIGKILL) leaves no agent behind: its keeper ends it', async () => {
    const { child, url } = await startBridgeProcess([process.execPath, '-e', DEAF_AGENT]);
    const ws = new WebSocket(url, { origin: ORIGIN });
    await new Promise((r) => ws.once('open', r));
    for (let i = 0; i < 50 && !(await agentsLeft(0)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(await agentsLeft(0), 'the agent runs');
    child.kill('SIGKILL');
    ws.terminate();
    assert.equal(await agentsLeft(5_000), '', 'no agent outlives the bridge');
  });

  it('an agent that does not read: the bridge stops reading the client instead of holding its frames', async () => {
    const { child, url } = await startBridgeProcess([process.execPath, '-e', DEAF_AGENT]);
    const ws = await initialized(url);
    try {
      const frame = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'a'.repeat(MiB) } });
      for (let i = 0; i < FLOOD_MIB; i++) ws.send(frame);
      const peak = await peakRss(child.pid!, 3_000);
      assert.ok(peak < MAX_RSS_MIB, `the bridge grew to ${peak.toFixed(0)} MiB while its agent did not read`);
      assert.ok(
        ws.bufferedAmount > (FLOOD_MIB / 2) * MiB,
        `the sender holds what the agent did not take (${(ws.bufferedAmount / MiB).toFixed(0)} MiB)`,
      );
    } finally {
      ws.terminate();
      child.kill('SIGKILL');
    }
  });
});

/**
 * The same two cases with the bridge in this process (startBridge): what a
 * side that keeps up gets in the end, and how far the other side got while it
 * did not. Here mutation testing (npm run mutate) sees the relay's code run.
 */
describe('bridge backpressure (in this process)', function () {
  this.timeout(60_000);
  if (process.platform !== 'linux') return;
  const LINES = 128;
  const FRAMES = 64;
  const frame = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'a'.repeat(MiB) } });
  /** What the late agent is sent: each frame as one line. */
  const framed = FRAMES * (Buffer.byteLength(frame) + 1);
  let tmp: string;
  let progress: string;
  let bridge: RunningBridge;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-backpressure-'));
    progress = path.join(tmp, 'progress');
    const line = `JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'a'.repeat(${MiB}) } }) + '\\n'`;
    bridge = await startBridge(
      loopbackBridge(
        [
          // Writes LINES lines of 1 MiB as fast as they are taken, noting how many it has written.
          {
            id: 'flood',
            name: 'Flood',
            command: process.execPath,
            args: [
              '-e',
              `/* ${MARKER} */ const fs = require('fs'); const line = ${line}; let n = 0;
const go = () => { while (n < ${LINES}) { n++; fs.writeFileSync(${JSON.stringify(progress)}, String(n)); if (!process.stdout.write(line)) return process.stdout.once('drain', go); } };
${answerInitialize('go();')} setInterval(() => {}, 100_000);`,
            ],
          },
          // Does not read for 0.8 s, then reads a batch of FRAMES lines and says how many bytes came; and again for the next batch.
          {
            id: 'late',
            name: 'Late',
            command: process.execPath,
            args: [
              '-e',
              `/* ${MARKER} */ let got = 0; let batch = 1;
const read = () => process.stdin.on('data', (c) => { got += c.length; if (got === batch * ${framed}) { process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'got', params: { got } }) + '\\n'); batch++; process.stdin.pause(); setTimeout(() => process.stdin.resume(), 800); } });
${answerInitialize('setTimeout(() => { read(); process.stdin.resume(); }, 800);')}
setInterval(() => {}, 100_000);`,
            ],
          },
        ],
        { cwd: tmp },
      ),
      () => undefined,
    );
  });
  after(async () => {
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
    await agentsLeft(5_000);
  });

  it('a client that does not read: the agent is held back, each time, and gets everything through once the client reads', async () => {
    const ws = new WebSocket(`${bridge.url}&agent=flood`, { origin: ORIGIN });
    const written = () => Number(fs.readFileSync(progress, 'utf8'));
    const until = async (done: () => boolean) => {
      for (const deadline = Date.now() + 30_000; !done() && Date.now() < deadline;) {
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      let frames = 0;
      ws.on('message', () => frames++);
      await new Promise((r) => ws.once('open', r));
      ws.send(INITIALIZE);
      await new Promise((r) => ws.once('message', r)); // its answer: the flood begins
      ws.pause();
      await new Promise((r) => setTimeout(r, 700));
      assert.ok(written() < 40, `the agent wrote ${written()} MiB while its client did not read`);
      ws.resume();
      await until(() => frames >= 60);
      ws.pause(); // and again: the bridge must stop reading the agent a second time
      const seen = frames;
      await new Promise((r) => setTimeout(r, 700));
      assert.ok(
        written() < seen + 40,
        `the agent wrote ${written()} MiB while its client, which had ${seen}, did not read again`,
      );
      ws.resume();
      await until(() => frames >= LINES + 1);
      assert.equal(frames, LINES + 1, 'every line arrives once the client reads (and the answer to initialize)');
    } finally {
      ws.terminate();
    }
  });

  it('an agent that does not read: the client is held back, each time, and everything reaches the agent once it reads', async () => {
    const ws = new WebSocket(`${bridge.url}&agent=late`, { origin: ORIGIN });
    try {
      const reports: number[] = [];
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { params?: { got?: number } };
        if (m.params?.got !== undefined) reports.push(m.params.got);
      });
      await new Promise((r) => ws.once('open', r));
      ws.send(INITIALIZE);
      await new Promise((r) => ws.once('message', r));
      for (const batch of [1, 2]) {
        for (let i = 0; i < FRAMES; i++) ws.send(frame);
        await new Promise((r) => setTimeout(r, 500));
        assert.ok(
          ws.bufferedAmount > 24 * MiB,
          `batch ${batch}: the client holds what the agent did not take (${(ws.bufferedAmount / MiB).toFixed(0)} MiB)`,
        );
        for (const deadline = Date.now() + 20_000; reports.length < batch && Date.now() < deadline;) {
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.equal(
          reports[batch - 1],
          batch * framed,
          `batch ${batch}: every frame reaches the agent, each as one line`,
        );
      }
    } finally {
      ws.terminate();
    }
  });
});
