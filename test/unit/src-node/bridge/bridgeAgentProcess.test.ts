/**
 * The bridge's agent process, for real: started in a group of its own, ended
 * with its whole group when the socket goes (SIGTERM, then SIGKILL after a
 * grace), its stderr copied, its failures told in the close reason. The
 * agents are small Node scripts that say their pid, and those of their own
 * children, in a first line.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import type { BridgeAgent } from '../../../../src-node/bridge/options';
import { processKeeper } from '../../../../src-node/keeper/processKeeper';
import { AGENT_EXITED_METHOD, BridgeClose, parseBridgeExit } from '../../../../src/shared/bridgeProtocol';
import { ORIGIN, agentJs, closeOf, initialize, loopbackBridge, sleep } from './bridgeClient';

/** Running, that is: a zombie (ended, not yet reaped by whoever adopted it) is not. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
/** Polls until `pid` is gone or `ms` pass; true when it is gone. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; alive(pid) && Date.now() < end;) await sleep(25);
  return !alive(pid);
}

/** A Node script as an agent: `node -e code`. */
const script = (id: string, code: string): BridgeAgent => ({
  id,
  name: `Agent ${id}`,
  command: process.execPath,
  args: ['-e', code],
});
/** Starts a child of the agent in the agent's own process group; `grandchild` is its code. */
const withChild = (grandchild: string) =>
  `const c = require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { stdio: 'ignore' });`;
/** Answers the client's initialize (the first line it reads) with the pids of the agent and its child. */
const SAY_PIDS = `process.stdin.once('data', () => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: 1, pid: process.pid, child: c.pid } }) + '\\n'));`;
/** Before the pids are said: a handler installed after them could come too late for a signal sent on reading them. */
const IGNORE_TERM = `process.on('SIGTERM', () => {}); setInterval(() => {}, 100_000);`;

interface Pids {
  pid: number;
  child: number;
}

/** Connects to `agent` and initializes; resolves with the pids its answer names, and the socket. */
function connect(
  bridge: RunningBridge,
  agent: string,
): Promise<{ ws: WebSocket; pids: Pids; closed: Promise<{ code: number; reason: string }>; frames: string[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${bridge.url}&agent=${agent}`, { origin: ORIGIN });
    const closed = closeOf(ws);
    const frames: string[] = [];
    ws.on('open', () => ws.send(initialize));
    ws.on('message', (data) => {
      if (frames.push(data.toString()) > 1) return;
      resolve({ ws, pids: (JSON.parse(frames[0]) as { result: Pids }).result, closed, frames });
    });
    ws.on('error', reject);
    void closed.then(({ code, reason }) =>
      reject(new Error(`closed before the agent said its pids: ${code} ${reason}`)),
    );
  });
}

describe('bridge agent process (its group, its end, its stderr)', function () {
  this.timeout(20_000);
  if (process.platform !== 'linux') return;
  let bridge: RunningBridge;
  let logs: string[];
  let tmp: string;
  const watched: number[] = [];
  const forgotten: number[] = [];
  const { watch, forget } = processKeeper;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-process-'));
    processKeeper.watch = (pid) => (pid !== undefined && watched.push(pid), watch.call(processKeeper, pid));
    processKeeper.forget = (pid) => (pid !== undefined && forgotten.push(pid), forget.call(processKeeper, pid));
    const noInterpreter = path.join(tmp, 'no-interpreter');
    fs.writeFileSync(noInterpreter, '#!/nonexistent/interpreter\n', { mode: 0o755 });
    logs = [];
    bridge = await startBridge(
      loopbackBridge(
        [
          script(
            'family',
            `${withChild('setInterval(() => {}, 100_000)')} ${SAY_PIDS} setInterval(() => {}, 100_000);`,
          ),
          script(
            'polite',
            `const c = { pid: 0 }; process.on('SIGTERM', () => { require('fs').writeFileSync(${JSON.stringify(path.join(tmp, 'got-sigterm'))}, 'yes'); process.exit(0); }); ${SAY_PIDS} setInterval(() => {}, 100_000);`,
          ),
          script('stubborn', `const c = { pid: 0 }; ${IGNORE_TERM} ${SAY_PIDS}`),
          script('leaves-child', `${withChild(IGNORE_TERM)} ${SAY_PIDS} setTimeout(() => process.exit(0), 300);`),
          script(
            'noisy',
            `process.stderr.write('noisy agent says hello on stderr\\n'); setTimeout(() => process.exit(2), 200);`,
          ),
          { id: 'unstartable', name: 'Unstartable', command: noInterpreter, args: [] },
          // An argument over the kernel's 128 KiB: spawn() throws (E2BIG) instead of emitting 'error'.
          { id: 'too-long', name: 'Too long', command: process.execPath, args: ['x'.repeat(200_000)] },
          script('killed', `process.kill(process.pid, 'SIGKILL');`),
          // Closes its stdin and lives on: the bridge's writes to it fail (EPIPE).
          script('closed-stdin', `require('fs').closeSync(0); setTimeout(() => process.exit(0), 700);`),
        ],
        { cwd: tmp, maxConnections: 4 },
      ),
      (line) => logs.push(line),
    );
  });
  after(async () => {
    processKeeper.watch = watch;
    processKeeper.forget = forget;
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('ends the agent and the processes it started when the socket closes, and the keeper forgets the group', async () => {
    const { ws, pids } = await connect(bridge, 'family');
    assert.ok(alive(pids.pid) && alive(pids.child));
    assert.ok(watched.includes(pids.pid), "the keeper watches the agent's group while it runs");
    ws.close(1000);
    assert.ok(await goneWithin(pids.pid, 2_000), 'the agent is ended');
    assert.ok(await goneWithin(pids.child, 2_000), 'so is the process it started');
    for (let i = 0; i < 80 && !forgotten.includes(pids.pid); i++) await sleep(50);
    assert.ok(forgotten.includes(pids.pid), 'the keeper forgets the group once it is ended');
  });

  it('asks with SIGTERM first, so an agent can end cleanly', async () => {
    const { ws, pids } = await connect(bridge, 'polite');
    ws.close(1000);
    assert.ok(await goneWithin(pids.pid, 2_000));
    assert.equal(fs.readFileSync(path.join(tmp, 'got-sigterm'), 'utf8'), 'yes');
  });

  it('kills an agent that ignores SIGTERM after a grace of seconds, not at once', async () => {
    const { ws, pids } = await connect(bridge, 'stubborn');
    ws.close(1000);
    await sleep(1_000);
    assert.ok(
      alive(pids.pid),
      `still given its grace after one second: ${logs.filter((l) => l.includes('stubborn')).join('; ')}`,
    );
    assert.ok(await goneWithin(pids.pid, 5_000), 'killed after the grace');
  });

  it('kills at once what an agent that exited left behind in its group', async () => {
    const { pids, closed, frames } = await connect(bridge, 'leaves-child');
    await closed;
    const last = JSON.parse(frames.at(-1)!) as { method?: string; params?: unknown };
    assert.equal(last.method, AGENT_EXITED_METHOD);
    assert.deepEqual(parseBridgeExit(last.params), { code: 0, signal: null });
    assert.ok(
      await goneWithin(pids.child, 1_500),
      'the child it left, which ignores SIGTERM, is killed without the grace',
    );
    assert.ok(logs.includes('agent leaves-child ended: Agent leaves-child exited with code 0'), logs.join('\n'));
  });

  it("copies the agent's stderr to its own, and ends the close reason with its last line", async () => {
    const copied: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => (
      copied.push(Buffer.from(chunk).toString()),
      true
    )) as typeof process.stderr.write;
    try {
      const { code, reason } = await closeOf(new WebSocket(`${bridge.url}&agent=noisy`, { origin: ORIGIN }));
      assert.equal(code, BridgeClose.agentExited);
      assert.equal(reason, 'Agent noisy exited with code 2: noisy agent says hello on stderr');
      for (let i = 0; i < 40 && !copied.join('').includes('noisy agent says hello'); i++) await sleep(25);
    } finally {
      process.stderr.write = write;
    }
    assert.match(copied.join(''), /noisy agent says hello on stderr\n/);
  });

  it('says which signal ended an agent', async () => {
    assert.deepEqual(await closeOf(new WebSocket(`${bridge.url}&agent=killed`, { origin: ORIGIN })), {
      code: BridgeClose.agentExited,
      reason: 'Agent killed was ended by SIGKILL',
    });
  });

  it('lives on when an agent stops reading: what it cannot write is dropped with the agent', async () => {
    const ws = new WebSocket(`${bridge.url}&agent=closed-stdin`, { origin: ORIGIN });
    await new Promise((r) => ws.once('open', r));
    await sleep(200);
    for (let i = 0; i < 20; i++) ws.send(initialize);
    assert.deepEqual(await closeOf(ws), {
      code: BridgeClose.agentExited,
      reason: 'Agent closed-stdin exited with code 0',
    });
    assert.equal(
      (await closeOf(new WebSocket(`${bridge.url}&agent=killed`, { origin: ORIGIN }))).code,
      BridgeClose.agentExited,
      'the bridge still serves',
    );
  });

  it("says when the agent's program is there but cannot be started", async () => {
    const { code, reason } = await closeOf(new WebSocket(`${bridge.url}&agent=unstartable`, { origin: ORIGIN }));
    assert.equal(code, BridgeClose.agentExited);
    assert.match(reason, /^Unstartable could not be started: spawn .*no-interpreter ENOENT$/);
  });

  it('says so, and serves on, when the system refuses to start the agent at once', async () => {
    assert.deepEqual(await closeOf(new WebSocket(`${bridge.url}&agent=too-long`, { origin: ORIGIN })), {
      code: BridgeClose.agentExited,
      reason: 'Too long could not be started: spawn E2BIG',
    });
    assert.equal(
      (await closeOf(new WebSocket(`${bridge.url}&agent=killed`, { origin: ORIGIN }))).code,
      BridgeClose.agentExited,
      'the bridge still serves',
    );
  });
});

describe('bridge agent start (a socket that goes while the agent is looked up)', function () {
  this.timeout(20_000);
  if (process.platform !== 'linux') return;

  it('holds the messages sent while the agent is found, and starts no agent for a socket already gone', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-lookup-'));
    const started = path.join(tmp, 'started');
    // A long PATH makes the lookup of a bare name take a while (each entry is tried in turn).
    const savedPath = process.env.PATH;
    process.env.PATH = [
      ...Array.from({ length: 3_000 }, (_, i) => path.join(tmp, `none-${i}`)),
      path.dirname(process.execPath),
    ].join(path.delimiter);
    const bridge = await startBridge(
      loopbackBridge(
        [
          {
            id: 'test',
            name: 'Test',
            command: path.basename(process.execPath),
            args: [agentJs, JSON.stringify({ turns: [] })],
          },
          {
            id: 'marks',
            name: 'Marks',
            command: path.basename(process.execPath),
            args: ['-e', `require('fs').appendFileSync(${JSON.stringify(started)}, 'x')`],
          },
        ],
        { cwd: tmp },
      ),
      () => undefined,
    );
    try {
      // Sent at once, before the agent runs: answered all the same.
      const answered = await new Promise<string>((resolve) => {
        const ws = new WebSocket(bridge.url, { origin: ORIGIN });
        ws.on('open', () => ws.send(initialize));
        ws.on('message', (data) => {
          if (data.toString().includes('"id":1')) {
            resolve(data.toString());
            ws.close(1000);
          }
        });
      });
      assert.match(answered, /"protocolVersion":1/);
      // Gone before the lookup ends: nothing is started for it.
      const ws = new WebSocket(`${bridge.url}&agent=marks`, { origin: ORIGIN });
      await new Promise<void>((resolve) =>
        ws.on('open', () => {
          ws.terminate();
          resolve();
        }),
      );
      await sleep(1_500);
      assert.equal(fs.existsSync(started), false, 'an agent was started for a socket that had closed');
    } finally {
      process.env.PATH = savedPath;
      await bridge.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
