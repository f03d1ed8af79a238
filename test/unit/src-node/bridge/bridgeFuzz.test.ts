/**
 * The bridge as its own process (dist/bridge/bridge.js, serving the scripted
 * test agent) against hundreds of odd upgrade requests from anyone who can
 * reach it, with the token or without (bridgeFuzzCases.ts). Each must be
 * answered or refused without ending the bridge: after them it still runs, a
 * connection opened before them still works and a new one still initializes.
 * The seed is printed; ACP_BRIDGE_FUZZ_SEED=<seed> runs the same requests.
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as path from 'node:path';
import WebSocket from 'ws';
import { BridgeClose } from '../../../../src/shared/bridgeProtocol';
import {
  ORIGIN,
  agentJs,
  initialize,
  newSession,
  scenarios,
  startBridgeProcess,
  type BridgeProcess,
} from './bridgeClient';
import { fuzzCases, type FuzzCase } from './bridgeFuzzCases';

const COUNT = 400;
/** How long an accepted socket is watched for a close frame that would say it was refused after all. */
const ACCEPTED_WAIT_MS = 40;
/** Every request is answered, or its socket closed, sooner than this. */
const ANSWER_MS = 3_000;
/** What a close frame may say: the bridge's refusals, and ws's for a broken frame (1002, 1007, 1009). */
const CLOSE_CODES = new Set<number>([...Object.values(BridgeClose), 1002, 1007, 1009]);

interface Outcome {
  /** The HTTP status the bridge answered with, if any. */
  status?: number;
  /** The WebSocket close frame after a 101. */
  close?: { code: number; reason: Buffer };
  /** A 101 with no close frame: a connection to an agent. */
  accepted: boolean;
  /** The socket's error code (ECONNREFUSED: nobody listens any more). */
  error?: string;
}

/** Sends `fuzz` on a new connection to `port` and reads the answer (raw: a WebSocket client checks too much). */
function attempt(port: number, fuzz: FuzzCase): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const outcome: Outcome = { accepted: false };
    let received = Buffer.alloc(0);
    const socket = net.connect(port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    let timer = setTimeout(done, ANSWER_MS);
    socket.on('connect', () => {
      socket.write(fuzz.request);
      if (fuzz.reset) socket.resetAndDestroy();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const head = received.indexOf('\r\n\r\n');
      if (head < 0 || outcome.close) return;
      outcome.status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(received.toString('latin1'))?.[1] ?? -1);
      // Refused, or a plain request answered (and kept alive): nothing more to read.
      if (outcome.status !== 101) return done();
      outcome.close = closeFrame(received.subarray(head + 4));
      if (outcome.close) return done();
      // A wrong token's close frame comes at once; wait the whole time for it, to be sure none is accepted.
      if (fuzz.rightToken) {
        clearTimeout(timer);
        timer = setTimeout(() => ((outcome.accepted = true), done()), ACCEPTED_WAIT_MS);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (outcome.error = error.code));
    socket.on('close', done);
  }).then((outcome) => ({ ...outcome, accepted: outcome.accepted || (outcome.status === 101 && !outcome.close) }));
}

/** The first close frame among the server's (unmasked) frames in `bytes`, if they hold a whole one. */
function closeFrame(bytes: Buffer): Outcome['close'] {
  for (let at = 0; at + 2 <= bytes.length;) {
    let length = bytes[at + 1] & 0x7f;
    let start = at + 2;
    if (length === 126) [length, start] = [bytes.readUInt16BE(at + 2), at + 4];
    else if (length === 127) [length, start] = [Number(bytes.readBigUInt64BE(at + 2)), at + 10];
    if (start + length > bytes.length) return undefined;
    if ((bytes[at] & 0x0f) === 0x8) {
      const payload = bytes.subarray(start, start + length);
      return { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2) };
    }
    at = start + length;
  }
  return undefined;
}

/** What is wrong with `outcome` as the answer to `fuzz`, or undefined. */
function wrongIn(fuzz: FuzzCase, outcome: Outcome): string | undefined {
  if (outcome.error === 'ECONNREFUSED') return 'the bridge no longer listens';
  if (fuzz.reset) return undefined;
  if (fuzz.oversized) {
    // Node answers 431 (400 for a fault it reads first) and resets the connection still sending: the answer may be lost.
    const answered = outcome.status === 431 || outcome.status === 400 || outcome.error === 'ECONNRESET';
    return answered ? undefined : `${outcome.status ?? outcome.error} for a head over 16 KiB`;
  }
  if (outcome.status === undefined) return `no answer (socket error ${outcome.error ?? 'none'})`;
  if (outcome.status < 100) return 'an answer that is not HTTP';
  if (outcome.accepted && !fuzz.rightToken) return 'accepted without the token';
  if (!outcome.close) return undefined;
  const { code, reason } = outcome.close;
  if (!CLOSE_CODES.has(code)) return `closed with code ${code}`;
  if (reason.length > 123) return `a close reason of ${reason.length} bytes`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(reason);
  } catch {
    return `a close reason that is not UTF-8: ${reason.toString('hex')}`;
  }
  return undefined;
}

/** The end of the bridge's log: its last lines, each cut short (a crash's quotes a line of the minified bundle). */
function logTail(log: string): string {
  const cut = (line: string) => (line.length > 300 ? `${line.slice(0, 300)}…` : line);
  return log.split('\n').slice(-20).map(cut).join('\n');
}

/** Whether the bridge at `port` still answers a plain HTTP request (with its 426). */
function stillAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.end('GET / HTTP/1.1\r\nHost: bridge\r\nConnection: close\r\n\r\n'),
    );
    let answer = '';
    socket.setEncoding('latin1').on('data', (text: string) => (answer += text));
    socket.on('error', () => undefined).on('close', () => resolve(answer.startsWith('HTTP/1.1 426 ')));
  });
}

/** The response to `request` (with the id `id`) on `ws`. */
function roundTrip(ws: WebSocket, request: string, id: number): Promise<{ result?: unknown; error?: unknown }> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message);
    };
    ws.on('message', onMessage).once('close', (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
    ws.send(request);
  });
}

async function initialized(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { origin: ORIGIN });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answer = await roundTrip(ws, initialize, 1);
  assert.equal((answer.result as { protocolVersion?: number } | undefined)?.protocolVersion, 1, JSON.stringify(answer));
  return ws;
}

describe('bridge fuzz (the bridge as its own process, odd requests)', function () {
  this.timeout(60_000);
  const seed = Number(process.env.ACP_BRIDGE_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  let bridge: BridgeProcess;

  before(async () => {
    bridge = await startBridgeProcess(
      [process.execPath, agentJs, path.join(scenarios, 'basic.json')],
      ['--max-connections', '3'],
    );
  });
  // SIGTERM: the bridge closes its connections and ends their agents' process groups; then it exits.
  after(async () => {
    const child = bridge?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it(`survives ${COUNT} odd requests, and its connections with it (seed printed)`, async () => {
    console.log(`      bridge fuzz seed ${seed} (ACP_BRIDGE_FUZZ_SEED=${seed} repeats it)`);
    const { port, searchParams } = new URL(bridge.url);
    const earlier = await initialized(bridge.url);
    const answers = new Map<string, number>();
    const slow: number[] = [];
    const cases = fuzzCases(seed, COUNT, searchParams.get('token') ?? '');
    for (const [i, fuzz] of cases.entries()) {
      const started = performance.now();
      const outcome = await attempt(Number(port), fuzz);
      // Asked after each request, so that the one that ends the bridge is the one named.
      const wrong = (await stillAnswers(Number(port))) ? wrongIn(fuzz, outcome) : 'the bridge ended';
      if (wrong) {
        assert.fail(
          `seed ${seed}, request ${i}: ${wrong}:\n  ${fuzz.summary}\nthe bridge's log:\n${logTail(bridge.stderr())}`,
        );
      }
      const key = outcome.accepted
        ? 'accepted'
        : String(outcome.close?.code ?? outcome.status ?? outcome.error ?? 'no answer');
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (performance.now() - started > 1_000) slow.push(i);
    }
    console.log(
      `      answers: ${[...answers].map(([k, n]) => `${k}×${n}`).join(' ')}; slower than 1 s: ${slow.join(', ') || 'none'}`,
    );
    assert.equal(bridge.child.exitCode ?? bridge.child.signalCode, null, `seed ${seed}: the bridge ended`);
    assert.doesNotMatch(bridge.stderr(), /failed on a request/, 'a request threw in the bridge');
    // The connection from before still works, and a new one still initializes.
    const session = await roundTrip(earlier, newSession, 2);
    assert.ok(session.result, JSON.stringify(session));
    earlier.close();
    (await initialized(bridge.url)).close();
  });
});
