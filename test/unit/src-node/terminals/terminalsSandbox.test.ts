/**
 * Shared by the terminals tests (no tests of its own): a throwaway
 * workspace, a marker to find a test's processes with ps, and polling.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isTerminalError, type TerminalErrorCode, type TerminalHost } from '../../../../src-node/terminals';

export interface TerminalSandbox {
  /** Canonical temporary folder holding `root` and `outside`. */
  readonly base: string;
  /** The workspace folder (canonical), with a `sub` folder. */
  readonly root: string;
  /** A folder next to the workspace, not inside it. */
  readonly outside: string;
  /** A small host environment: PATH, HOME, LANG and one secret. */
  readonly env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeTerminalSandbox(): TerminalSandbox {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-terminals-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(outside);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME ?? base,
    LANG: 'C.UTF-8',
    SECRET_TOKEN: 'host-secret-value',
  };
  return { base, root, outside, env, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

/**
 * A number no other process has in its command line: used as the duration
 * of `sleep`, so the sleeps themselves (not only their shell) carry it.
 */
export function uniqueSleep(): string {
  return `30.${randomInt(100_000, 999_999)}`;
}

/** Live (non-zombie) processes whose command line contains `marker`, as ps prints them. */
export function liveProcessesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(marker) && !/^\s*\d+\s+Z/.test(line));
}

/**
 * After a test: ends the host's terminals, removes the sandbox, and fails
 * when a process carrying `marker` outlived them (killing it either way).
 */
export async function endTerminalTest(host: TerminalHost, sandbox: TerminalSandbox, marker: string): Promise<void> {
  await host.disposeAll();
  const left = liveProcessesWith(marker);
  killLeftovers(marker);
  sandbox.cleanup();
  assert.deepEqual(left, [], 'processes left behind');
}

/** Kills whatever a failed test left behind (by pid, never by name). */
export function killLeftovers(marker: string): void {
  for (const line of liveProcessesWith(marker)) {
    try {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export async function waitFor(condition: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The TerminalError code a promise rejects with (fails when it resolves or throws something else). */
export async function refusal(promise: Promise<unknown>): Promise<TerminalErrorCode> {
  try {
    await promise;
  } catch (e) {
    assert.ok(isTerminalError(e), `expected a TerminalError, got ${String(e)}`);
    return e.code;
  }
  return assert.fail('expected a refusal');
}

/** "code: message" of the TerminalError a promise rejects with, or 'not refused'. */
export async function said(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (isTerminalError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'not refused';
}
