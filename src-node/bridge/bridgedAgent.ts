/**
 * One connection's agent, as the SDK's ACP server connects it: spawned without
 * a shell in its own process group, newline-delimited JSON on its stdio
 * (agentOutput, toAgent), the server's message stream on the other side. Its
 * initialize response gains the bridge's announcement (the folder and OS it
 * runs in); the first lines it writes that are not JSON-RPC are told with a
 * notification each; its end is told with a last notification (exit status
 * and stderr tail), or, before it answered `initialize`, with the socket's
 * close reason. When either side goes, the other follows.
 *
 * Backpressure: the agent's output is read only while the client's socket
 * holds less than HIGH_WATER_BYTES unsent, and the client's socket is not read
 * while the agent does not read its stdin.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { PrepareWebSocketUpgradeOptions } from '@agentclientprotocol/sdk/experimental/server';
import type { WebSocket } from 'ws';
import { processKeeper } from '../keeper/processKeeper';
import {
  AGENT_EXITED_METHOD,
  BRIDGE_META_KEY,
  BridgeClose,
  MAX_STRAY_LINE_CHARS,
  STRAY_LINE_METHOD,
  type BridgeAnnouncement,
  type BridgeExit,
} from '../../src/shared/bridgeProtocol';
import { HOST_OS } from '../hostOs';
import { resolveExecutable } from '../agents/resolveExecutable';
import { tapStderr } from './agentStderr';
import { closeSocket } from './closeReason';
import { LineSplitter } from './lineSplitter';
import { EditorRelay } from './editorRelay';
import { MAX_MESSAGE_BYTES, type BridgeAgent } from './options';

/** Where the bridge's lines go (its log file, or standard error). */
export type BridgeLog = (line: string) => void;

/** What the SDK's server connects for each connection (its own type is not exported). */
type AgentConnector = NonNullable<PrepareWebSocketUpgradeOptions['agent']>;

const KILL_GRACE_MS = 3_000;
/**
 * Bytes held for a slow side: the agent's output queued here, and what its client's socket has not sent yet (the
 * server's own limit is the size of a message: too much to wait on); the agent's input it has not read.
 */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Stray output lines of one agent told to the client (all are logged). */
const MAX_STRAYS_TOLD = 3;

export interface BridgedAgentOptions {
  readonly cwd: string;
  readonly idleTimeoutMs: number;
}

/**
 * The agent for the client on `ws` (whose own close codes say why the bridge ends a connection); `socket` is the
 * connection under it, whose unsent bytes hold back the agent's output.
 */
export function bridgedAgent(
  agent: BridgeAgent,
  options: BridgedAgentOptions,
  ws: WebSocket,
  socket: Writable,
  log: BridgeLog,
): AgentConnector {
  return { connect: (stream: Stream) => ({ closed: runAgent(stream, agent, options, ws, socket, log) }) };
}

async function runAgent(
  stream: Stream,
  agent: BridgeAgent,
  options: BridgedAgentOptions,
  ws: WebSocket,
  socket: Writable,
  log: BridgeLog,
): Promise<void> {
  const { cwd } = options;
  const idle = idleTimer(ws, options.idleTimeoutMs, log);
  // The client's frames count as they come (the server may hold them a while: until the agent has answered
  // initialize, say); the agent's lines as they are taken.
  ws.on('message', idle.touch);
  const refuse = (text: string) => closeSocket(ws, BridgeClose.agentExited, text);
  const executable = await resolveExecutable(agent.command);
  if (!executable) return refuse(`${agent.command} was not found on the bridge's PATH`);
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
    return refuse(`${agent.name} could not be started: ${(e as Error).message}`);
  }
  // If the bridge itself is killed, its keeper ends the agent's process group.
  processKeeper.watch(child.pid);
  const stderr = tapStderr(child.stderr, (bytes) => process.stderr.write(bytes));
  child.stdin.on('error', () => undefined); // the exit says why
  const ended = new Promise<{ code: number | null; signal: string | null } | Error>((resolve) => {
    child.once('error', resolve);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  ws.once('close', () => {
    stderr.flush();
    endProcessGroup(child.pid, child.exitCode !== null);
  });

  const toClient = stream.writable.getWriter();
  const relay = new EditorRelay((message) => toClient.write(message));
  ws.once('close', () => relay.dispose());
  void toAgent(stream.readable, child.stdin, (held) => (held ? ws.pause() : ws.resume()), relay);
  const announcement: BridgeAnnouncement = {
    cwd,
    os: HOST_OS,
    agent: { id: agent.id, name: agent.name },
    editorRelay: 1,
  };
  let answered = false;
  // Stray lines told before the agent answered initialize wait for that answer, which must come first.
  const early: AnyMessage[] = [];
  const deliver = async (message: AnyMessage) => {
    idle.touch();
    // The server waits only when its socket holds its whole limit (the size of a message): take no more of the
    // agent's output while the client has not read what is already on its way.
    if (socket.writableLength > HIGH_WATER_BYTES) await drained(socket);
    if (answered) return toClient.write(message);
    if ((message as { method?: unknown }).method === STRAY_LINE_METHOD) return void early.push(message);
    relay.agentAnswered(message);
    await toClient.write(announced(message, announcement));
    answered = true;
    for (const stray of early.splice(0)) await toClient.write(stray);
  };
  let tooLong = false;
  try {
    await agentOutput(child.stdout, log, deliver);
  } catch (error) {
    // The client went (its side of the stream is gone), or the agent wrote a line over the limit.
    tooLong = error instanceof MessageTooLongError;
  }
  if (tooLong) {
    log(`agent ${agent.id} wrote a line over ${MAX_MESSAGE_BYTES} bytes`);
    return refuse(`${agent.name} sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`);
  }
  const end = await ended;
  stderr.flush();
  if (end instanceof Error) return refuse(`${agent.name} could not be started: ${end.message}`);
  const why = end.signal ? `${agent.name} was ended by ${end.signal}` : `${agent.name} exited with code ${end.code}`;
  log(`agent ${agent.id} ended: ${why}`);
  if (ws.readyState !== ws.OPEN) return;
  if (!answered) {
    // Nothing but the socket's close can tell a client that has no initialize answer yet.
    const last = stderr.lastLine();
    return refuse(last ? `${why}: ${last}` : why);
  }
  const tail = stderr.tail();
  const exit: BridgeExit = { code: end.code, signal: end.signal, ...(tail ? { stderrTail: tail } : {}) };
  // Last, after everything the agent wrote; the server then closes the socket.
  await toClient.write({ jsonrpc: '2.0', method: AGENT_EXITED_METHOD, params: exit }).catch(() => undefined);
  await toClient.close().catch(() => undefined);
}

/**
 * The agent's stdout as messages (one parse each; lines that are not a JSON object are logged and dropped, the
 * first few told as stray-line notifications), each given to `deliver` in order, the next once the one before is
 * taken; stdout is paused while more than HIGH_WATER_BYTES of them wait. Resolves when stdout ends and all are
 * taken; rejects with MessageTooLongError for a line over the limit, or with what `deliver` threw (the client went).
 * No web streams of its own: a message is handed over in the tick its line arrives (test/bench/bridge.mjs measures
 * the bridge's share of a round trip).
 */
function agentOutput(stdout: Readable, log: BridgeLog, deliver: (message: AnyMessage) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue: { message: AnyMessage; bytes: number }[] = [];
    let queuedBytes = 0;
    let delivering = false;
    let ended = false;
    let failed = false;
    let strays = 0;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      stdout.destroy();
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const pump = async () => {
      delivering = true;
      try {
        for (let next = queue.shift(); next; next = queue.shift()) {
          queuedBytes -= next.bytes;
          await deliver(next.message);
        }
      } catch (error) {
        return fail(error);
      } finally {
        delivering = false;
      }
      if (ended) resolve();
      else stdout.resume();
    };
    const lines = new LineSplitter(
      MAX_MESSAGE_BYTES,
      (line) => {
        let message = parsedLine(line);
        if (!message) {
          log(`dropped a line of the agent's output that is not a JSON-RPC message: ${line.subarray(0, 80)}`);
          if (++strays > MAX_STRAYS_TOLD) return;
          const text = line
            .subarray(0, MAX_STRAY_LINE_CHARS * 4)
            .toString('utf8')
            .slice(0, MAX_STRAY_LINE_CHARS);
          message = { jsonrpc: '2.0', method: STRAY_LINE_METHOD, params: { text } };
        }
        queue.push({ message, bytes: line.length });
        queuedBytes += line.length;
        if (!delivering) void pump();
      },
      () => fail(new MessageTooLongError()),
    );
    stdout.on('data', (chunk: Buffer) => {
      lines.push(chunk);
      if (queuedBytes > HIGH_WATER_BYTES && !failed) stdout.pause();
    });
    stdout.once('end', () => {
      ended = true;
      if (!delivering && !failed) resolve();
    });
    stdout.once('error', fail);
  });
}

class MessageTooLongError extends Error {}

function parsedLine(line: Buffer): AnyMessage | undefined {
  try {
    const value = JSON.parse(line.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as AnyMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves when `socket` has sent what it holds, or is gone. */
function drained(socket: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      socket.off('drain', done).off('close', done);
      resolve();
    };
    socket.once('drain', done).once('close', done);
  });
}

/**
 * Client to agent (through the editor relay), each message a line on its stdin; while stdin holds more than HIGH_WATER_BYTES, `hold(true)`
 * (the client's socket is not read) until the agent reads again. The agent's stdin ends with the client.
 */
async function toAgent(
  from: ReadableStream<AnyMessage>,
  stdin: Writable,
  hold: (held: boolean) => void,
  relay: EditorRelay,
): Promise<void> {
  try {
    const reader = from.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // The editor relay takes the browser's answers to its calls, and puts its servers in place of their marks.
      const taken = relay.fromClient(next.value);
      const message = taken instanceof Promise ? await taken : taken;
      if (!message) continue;
      stdin.write(`${JSON.stringify(message)}\n`);
      if (stdin.writableLength <= HIGH_WATER_BYTES) continue;
      hold(true);
      await drained(stdin);
      hold(false);
      if (stdin.destroyed) break;
    }
  } catch {
    // The connection ended: the agent's stdin follows.
  }
  stdin.end();
}

/** The agent's initialize response with the bridge's announcement in its `_meta`. */
function announced(message: AnyMessage, announcement: BridgeAnnouncement): AnyMessage {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return message;
  const meta = (result as { _meta?: unknown })._meta;
  const kept = typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta : {};
  return { ...message, result: { ...result, _meta: { ...kept, [BRIDGE_META_KEY]: announcement } } } as AnyMessage;
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
    closeSocket(ws, BridgeClose.idle, 'idle');
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
