/**
 * One connection's agent: spawned without a shell in its own process group,
 * stdout lines become text frames, frames become stdin lines. When either
 * side goes, the other follows.
 */
import { spawn } from 'node:child_process';
import type { WebSocket } from 'ws';
import { BridgeClose, type BridgeHello } from '../../src/shared/bridgeProtocol';
import { resolveExecutable } from '../resolveExecutable';
import type { BridgeLog } from './bridgeServer';
import { MAX_MESSAGE_BYTES, type BridgeAgent } from './options';

const KILL_GRACE_MS = 3_000;

export interface RelayOptions {
  readonly cwd: string;
  readonly idleTimeoutMs: number;
}

export async function relayAgent(ws: WebSocket, agent: BridgeAgent, options: RelayOptions, log: BridgeLog): Promise<void> {
  const { cwd } = options;
  const idle = idleTimer(ws, options.idleTimeoutMs, log);
  // Frames can arrive while the agent is being found and started: hold them.
  const early: string[] = [];
  let deliver = (line: string) => void early.push(line);
  ws.on('message', (data, isBinary) => {
    idle.touch();
    const text = isBinary ? '' : data.toString();
    // Compact JSON has no raw newline; a frame with one would split into two lines.
    if (text === '' || text.includes('\n')) return log('dropped a frame that is not one JSON line');
    deliver(text);
  });
  const executable = await resolveExecutable(agent.command);
  if (!executable) {
    ws.close(BridgeClose.agentExited, closeReason(`${agent.command} was not found on the bridge's PATH`));
    return;
  }
  if (ws.readyState !== ws.OPEN) return;
  const child = spawn(executable, agent.args, { cwd, shell: false, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
  let lastStderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    process.stderr.write(text);
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 0) lastStderr = lines[lines.length - 1];
  });
  child.stdin.on('error', () => undefined); // the exit handler reports
  const hello: BridgeHello = { vscodeAcpBridge: 1, cwd, agent: { id: agent.id, name: agent.name } };
  ws.send(JSON.stringify(hello));

  splitLines(child.stdout, (line) => {
    idle.touch();
    if (ws.readyState === ws.OPEN) ws.send(line);
  }, () => {
    log(`agent ${agent.id} wrote a line over ${MAX_MESSAGE_BYTES} bytes`);
    ws.close(BridgeClose.agentExited, closeReason(`${agent.name} sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB`));
  });
  deliver = (line) => void child.stdin.write(line + '\n');
  early.splice(0).forEach(deliver);
  child.once('error', (error) => ws.close(BridgeClose.agentExited, closeReason(`${agent.name} could not be started: ${error.message}`)));
  child.once('exit', (code, signal) => {
    const why = signal ? `${agent.name} was ended by ${signal}` : `${agent.name} exited with code ${code}`;
    log(`agent ${agent.id} ended: ${why}`);
    ws.close(BridgeClose.agentExited, closeReason(lastStderr ? `${why}: ${lastStderr}` : why));
  });
  ws.once('close', () => endProcessGroup(child.pid, child.exitCode !== null));
}

/** Calls `onLine` per line; `onTooLong` (once) when a line grows past the message limit. */
function splitLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void, onTooLong: () => void): void {
  let rest = '';
  let broken = false;
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => {
    if (broken) return;
    const parts = (rest + text).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') onLine(part);
    if (rest.length > MAX_MESSAGE_BYTES) {
      broken = true;
      rest = '';
      onTooLong();
    }
  });
}

/** Closes the socket after `ms` without traffic either way. */
function idleTimer(ws: WebSocket, ms: number, log: BridgeLog): { touch(): void } {
  let timer: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      log('closed an idle connection');
      ws.close(BridgeClose.idle, 'idle');
    }, ms);
    timer.unref();
  };
  ws.once('close', () => clearTimeout(timer));
  touch();
  return { touch };
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
  send(alreadyExited ? 'SIGKILL' : 'SIGTERM');
  if (!alreadyExited) setTimeout(() => send('SIGKILL'), KILL_GRACE_MS).unref();
}

/** A WebSocket close reason must fit in 123 bytes. */
export function closeReason(text: string): string {
  let reason = text.replace(/\s+/g, ' ').trim();
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -2) + '…';
  return reason;
}
