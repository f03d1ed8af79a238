/**
 * An agent as a local process: spawned without a shell, newline-delimited
 * JSON over stdio, stderr to the log, ended with its whole process group.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Readable, Transform, Writable } from 'node:stream';
import type { AgentExit, AgentTransport, ConnectContext } from '../../src/platform';
import { exitText, MAX_STDERR_TAIL_CHARS, MAX_STDERR_TAIL_LINES } from '../../src/shared/bridgeProtocol';
import { processKeeper } from '../keeper/processKeeper';
import { MAX_MESSAGE_BYTES } from '../agentOutput/messageLimit';
import { StrayLineDetector } from '../agentOutput/strayLines';
import { LargeLineRelay } from '../agentOutput/largeLines';
import { descendants, signalEach } from './descendants';

/**
 * A stderr line is logged once whole (so that a secret split across writes is
 * still redacted whole, see secrets/redactor.ts); a longer one is left out.
 */
const MAX_STDERR_LINE_CHARS = 64 * 1024;
const KILL_GRACE_MS = 3_000;
/** Stray stdout lines shown in the chat; the rest only go to the log. */
const MAX_STRAY_WARNINGS = 3;

export interface AgentLaunch {
  readonly executable: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly label: string;
}

export function spawnAgent(launch: AgentLaunch, context: ConnectContext): AgentTransport {
  const { log } = context;
  log.info(`Starting ${launch.label}: ${launch.executable} ${launch.args.join(' ')} (cwd ${launch.cwd})`);
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn(launch.executable, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      // Its own process group, so that ending it ends what it started too.
      detached: process.platform !== 'win32',
    });
  } catch (e) {
    // Some failures are thrown at once instead of emitted (E2BIG: an argument or variable over the kernel's 128 KiB).
    throw new Error(`${launch.label} could not be started: ${(e as Error).message}`, { cause: e });
  }
  // If the extension host dies before it can end the agent, the keeper does.
  processKeeper.watch(child.pid);
  const stderrTail: string[] = [];
  let stderrRest = '';
  /** Inside a line over the limit: the rest of it is dropped. */
  let skipping = false;
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    const lines = (stderrRest + text).split('\n');
    stderrRest = lines.pop() ?? '';
    if (skipping && lines.length > 0) {
      lines.shift();
      skipping = false;
    }
    if (stderrRest.length > MAX_STDERR_LINE_CHARS) {
      if (!skipping) lines.push(`(a line of more than ${MAX_STDERR_LINE_CHARS / 1024} KiB, left out)`);
      stderrRest = '';
      skipping = true;
    }
    for (const line of lines) {
      log.info(`[${launch.label}] ${line}`);
      stderrTail.push(line);
      if (stderrTail.length > MAX_STDERR_TAIL_LINES) stderrTail.shift();
    }
  });
  const tail = () =>
    [...stderrTail, stderrRest]
      .filter((l) => l.trim() !== '')
      .join('\n')
      .slice(-MAX_STDERR_TAIL_CHARS) || undefined;

  /** Set when we end the agent ourselves for what it sent: that, not the signal, is why it stopped. */
  let endedBecause: string | undefined;
  const exited = new Promise<AgentExit>((resolve) => {
    child.once('error', (error) => resolve({ message: `${launch.label} could not be started: ${error.message}` }));
    child.once('exit', (code, signal) =>
      resolve({
        message: endedBecause ?? exitText(launch.label, code, signal),
        stderrTail: tail(),
      }),
    );
  });

  let strays = 0;
  const detector = new StrayLineDetector(
    (line) => {
      log.warn(`[${launch.label}] non-protocol output on stdout: ${line}`);
      if (++strays <= MAX_STRAY_WARNINGS) {
        context.onProtocolWarning(`The agent wrote a line that is not ACP to its output, ignored: ${line}`);
      }
    },
    MAX_MESSAGE_BYTES,
    () => {
      // As the bridge does: a message this large is refused, and the agent with it.
      endedBecause = `${launch.label} sent a message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB, the limit, and was ended.`;
      log.error(`[${launch.label}] ${endedBecause}`);
      endProcessTree(child.pid, exited);
    },
  );
  const stdout = child.stdout
    .pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          detector.scan(chunk);
          done(null, chunk);
        },
        flush(done) {
          detector.end();
          done();
        },
      }),
    )
    .pipe(new LargeLineRelay(MAX_MESSAGE_BYTES));
  child.stdin.on('error', (error) => log.warn(`[${launch.label}] stdin: ${error.message}`));

  const stream = acp.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(stdout) as ReadableStream<Uint8Array>,
  );
  return { stream, cwd: launch.cwd, exited, dispose: () => endProcessTree(child.pid, exited) };
}

/**
 * SIGTERM to the group and to every process below the agent (read before
 * any signal, see descendants.ts: a child in a group of its own is not
 * reached through the agent's group), SIGKILL if still there after a grace
 * period.
 */
function endProcessTree(pid: number | undefined, exited: Promise<AgentExit>): void {
  if (pid === undefined) return;
  const below = descendants(pid);
  const signalTree = (signal: NodeJS.Signals) => {
    try {
      if (process.platform === 'win32') process.kill(pid, signal);
      else process.kill(-pid, signal);
    } catch {
      // Already gone.
    }
    signalEach(below, signal);
  };
  signalTree('SIGTERM');
  const timer = setTimeout(() => signalTree('SIGKILL'), KILL_GRACE_MS);
  void exited.then(() => {
    clearTimeout(timer);
    // The leader is gone; its children may not be.
    signalTree('SIGKILL');
    processKeeper.forget(pid);
  });
}
