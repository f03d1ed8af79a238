/**
 * One connection's agent: spawned without a shell in its own process group,
 * stdout lines become text frames, frames become stdin lines. When either
 * side goes, the other follows.
 *
 * The relay only frames: message bytes pass through untouched (ws has already
 * checked that a client's text frame is valid UTF-8; an agent's line is sent
 * as is when it is valid UTF-8, else decoded with U+FFFD for what is not).
 * Per message it costs a read and a write on each side; what makes the bridge
 * slower than direct stdio is mostly the extra process hop itself (two more
 * wake-ups per round trip), which test/bench/bridge.mjs measures against a
 * bare relay.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { WebSocket } from 'ws';
import { processKeeper } from '../keeper/processKeeper';
import { BridgeClose, type BridgeExit, type BridgeHello } from '../../src/shared/bridgeProtocol';
import { HOST_OS } from '../hostOs';
import { resolveExecutable } from '../resolveExecutable';
import { tapStderr } from './agentStderr';
import type { BridgeLog } from './bridgeServer';
import { LineSplitter, NEWLINE, textPayload } from './lineSplitter';
import { MAX_MESSAGE_BYTES, type BridgeAgent } from './options';

const KILL_GRACE_MS = 3_000;
/**
 * Bytes the bridge holds for a slow side before it stops reading the other:
 * the agent's output while the client does not read, a client's frames while
 * the agent does not read. Either way the sender blocks, not our memory.
 */
export const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const NEWLINE_BYTES = Buffer.from([NEWLINE]);

export interface RelayOptions {
  readonly cwd: string;
  readonly idleTimeoutMs: number;
}

/**
 * Runs `agent` for the client on `ws`. `socket` is the connection under `ws`:
 * corked while one stdout read's lines are sent, so they leave in one write.
 */
export async function relayAgent(
  ws: WebSocket,
  socket: Writable,
  agent: BridgeAgent,
  options: RelayOptions,
  log: BridgeLog,
): Promise<void> {
  const { cwd } = options;
  const idle = idleTimer(ws, options.idleTimeoutMs, log);
  // Frames can arrive while the agent is being found and started: hold them.
  const early: Buffer[] = [];
  let deliver: (line: Buffer) => void = (line) => void early.push(line);
  ws.on('message', (data, isBinary) => {
    idle.touch();
    const bytes = data as Buffer; // binaryType 'nodebuffer' (the default): always one Buffer
    // Compact JSON has no raw newline; a frame with one would split into two lines.
    if (isBinary || bytes.length === 0 || bytes.includes(NEWLINE)) {
      return log('dropped a frame that is not one JSON line');
    }
    deliver(bytes);
  });
  const executable = await resolveExecutable(agent.command);
  if (!executable) {
    ws.close(BridgeClose.agentExited, closeReason(`${agent.command} was not found on the bridge's PATH`));
    return;
  }
  if (ws.readyState !== ws.OPEN) return;
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(executable, agent.args, {
      cwd,
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
  } catch (e) {
    // Some failures are thrown at once instead of emitted (E2BIG: an argument over the kernel's 128 KiB).
    ws.close(BridgeClose.agentExited, closeReason(`${agent.name} could not be started: ${(e as Error).message}`));
    return;
  }
  // If the bridge itself is killed, its keeper ends the agent's process group.
  processKeeper.watch(child.pid);
  const stderr = tapStderr(child.stderr, (bytes) => process.stderr.write(bytes));
  child.stdin.on('error', () => undefined); // the exit handler reports
  const hello: BridgeHello = { vscodeAcpBridge: 1, cwd, agent: { id: agent.id, name: agent.name }, os: HOST_OS };
  ws.send(JSON.stringify(hello));

  relayOutput(child.stdout, ws, socket, idle.touch, () => {
    log(`agent ${agent.id} wrote a line over ${MAX_MESSAGE_BYTES} bytes`);
    ws.close(
      BridgeClose.agentExited,
      closeReason(`${agent.name} sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`),
    );
  });
  // Backpressure: while the agent does not read its stdin, stop reading the socket.
  let inputPaused = false;
  deliver = (line) => {
    if (writeLine(child.stdin, line) || inputPaused) return;
    inputPaused = true;
    ws.pause();
    child.stdin.once('drain', () => {
      inputPaused = false;
      ws.resume();
    });
  };
  early.splice(0).forEach(deliver);
  child.once('error', (error) =>
    ws.close(BridgeClose.agentExited, closeReason(`${agent.name} could not be started: ${error.message}`)),
  );
  child.once('exit', (code, signal) => {
    const why = signal ? `${agent.name} was ended by ${signal}` : `${agent.name} exited with code ${code}`;
    const last = stderr.lastLine();
    stderr.flush();
    log(`agent ${agent.id} ended: ${why}`);
    // The whole report first (a close reason holds one line at best), then the close, which older clients read.
    const tail = stderr.tail();
    const exit: BridgeExit = { vscodeAcpBridge: 1, exit: { code, signal, ...(tail ? { stderrTail: tail } : {}) } };
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(exit));
    ws.close(BridgeClose.agentExited, closeReason(last ? `${why}: ${last}` : why));
  });
  ws.once('close', () => {
    stderr.flush();
    endProcessGroup(child.pid, child.exitCode !== null);
  });
}

/**
 * Agent to client: each stdout line one text frame; the lines of one read
 * leave in one socket write. While the client does not take them, stdout is
 * not read (the agent's writes block).
 */
function relayOutput(
  stdout: Readable,
  ws: WebSocket,
  socket: Writable,
  touch: () => void,
  onTooLong: () => void,
): void {
  const lines = new LineSplitter(
    MAX_MESSAGE_BYTES,
    (line) => {
      if (ws.readyState === ws.OPEN) ws.send(textPayload(line), { binary: false });
    },
    onTooLong,
  );
  let paused = false;
  stdout.on('data', (chunk: Buffer) => {
    touch();
    socket.cork();
    lines.push(chunk);
    socket.uncork();
    if (paused || socket.writableLength <= HIGH_WATER_BYTES) return;
    paused = true;
    stdout.pause();
    socket.once('drain', () => {
      paused = false;
      stdout.resume();
    });
  });
}

/** Client to agent: the line and its newline in one write (writev), not two. False: too much waits, until 'drain'. */
function writeLine(stdin: Writable, line: Buffer): boolean {
  stdin.cork();
  stdin.write(line);
  stdin.write(NEWLINE_BYTES);
  stdin.uncork();
  return stdin.writableLength <= HIGH_WATER_BYTES;
}

/**
 * Closes the socket after `ms` without traffic either way. Traffic only notes
 * the time; the one timer re-arms itself when it fires early (a timer per
 * message would cost more than the message).
 */
function idleTimer(ws: WebSocket, ms: number, log: BridgeLog): { touch(): void } {
  let last = performance.now();
  const check = () => {
    const left = last + ms - performance.now();
    if (left > 0) {
      timer = setTimeout(check, left).unref();
      return;
    }
    log('closed an idle connection');
    ws.close(BridgeClose.idle, 'idle');
  };
  let timer = setTimeout(check, ms).unref();
  ws.once('close', () => clearTimeout(timer));
  return { touch: () => void (last = performance.now()) };
}

function endProcessGroup(pid: number | undefined, alreadyExited: boolean): void {
  if (pid === undefined) return;
  const send = (signal: NodeJS.Signals) => {
    try {
      if (process.platform === 'win32') process.kill(pid, signal);
      else process.kill(-pid, signal);
    } catch {
      // Gone.
    }
  };
  const done = () => {
    send('SIGKILL');
    processKeeper.forget(pid);
  };
  if (alreadyExited) return done();
  send('SIGTERM');
  setTimeout(done, KILL_GRACE_MS).unref();
}

/** A WebSocket close reason must fit in 123 bytes. */
export function closeReason(text: string): string {
  let reason = text.replace(/\s+/g, ' ').trim();
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -2) + '…';
  return reason;
}
