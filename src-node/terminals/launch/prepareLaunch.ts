/**
 * A `terminal/create` request turned into exactly what would run: the
 * executable resolved without a shell, the canonical working folder inside
 * the workspace, the filtered environment. Prepared before the user is asked,
 * shown to them (describeLaunch.ts), and checked again right before the start
 * (TerminalHost.create).
 */
import type { CreateTerminalRequest } from '@agentclientprotocol/sdk';
import { TerminalError } from '../errors';
import { filterEnv } from './envAllowlist';
import { canonicalRoot, resolveCwd, type PathIdentity } from './launchPaths';
import { DEFAULT_OUTPUT_BYTES, MAX_ARGS, MAX_LAUNCH_TEXT_BYTES, MAX_OUTPUT_BYTES } from '../limits';
import { resolveProgram } from './resolveProgram';

export type LaunchRequest = Pick<CreateTerminalRequest, 'command' | 'args' | 'env' | 'cwd' | 'outputByteLimit'>;

export interface LaunchContext {
  /** The workspace folder (from the editor, trusted): where the command runs when it names no folder. */
  readonly root: string;
  /** The other folders the agent was given (`additionalDirectories`): the command's folder must be inside one of these or `root`. */
  readonly moreRoots?: readonly string[];
  /** The editor's environment: its PATH finds the command, its allowlisted variables are passed. */
  readonly env: NodeJS.ProcessEnv;
  /** Only for tests of platform rules; defaults to process.platform. */
  readonly platform?: NodeJS.Platform;
}

export interface PreparedLaunch {
  /** The command as the agent sent it (resolved again before the start). */
  readonly command: string;
  /** Absolute, canonical. */
  readonly executable: string;
  readonly args: readonly string[];
  /** Canonical, inside `root`. */
  readonly cwd: string;
  /** The canonical folder (of those given) that `cwd` is in. */
  readonly root: string;
  /** Exactly the environment the command gets. */
  readonly env: Readonly<Record<string, string>>;
  /** Names in `env` whose value the agent chose. */
  readonly envFromAgent: readonly string[];
  /** Names the agent asked to set that are not passed (not on the allowlist). */
  readonly droppedEnv: readonly string[];
  /** Names in the editor's environment that are not passed. */
  readonly droppedHostEnv: readonly string[];
  /** Bytes of output kept (the newest), after the host's own cap. */
  readonly outputByteLimit: number;
  /** What the paths named when prepared; the start refuses if they changed. */
  readonly identities: { readonly cwd: PathIdentity; readonly executable: PathIdentity };
  readonly platform: NodeJS.Platform;
}

/** Launches made here: TerminalHost only starts these, never a hand-built or altered copy. */
const prepared = new WeakSet<PreparedLaunch>();

export function isPreparedLaunch(launch: PreparedLaunch): boolean {
  return prepared.has(launch);
}

/** Throws TerminalError with a message for the agent when the request cannot run. */
export async function prepareLaunch(request: LaunchRequest, context: LaunchContext): Promise<PreparedLaunch> {
  const platform = context.platform ?? process.platform;
  const args = validArgs(request.args);
  const requestedEnv = validEnv(request.env);
  checkSize(request.command, args, requestedEnv);
  const outputByteLimit = validLimit(request.outputByteLimit);
  // A further folder that is gone (removed, renamed) is simply not one of them.
  const more = await Promise.all((context.moreRoots ?? []).map((r) => canonicalRoot(r).catch(() => undefined)));
  const roots = [await canonicalRoot(context.root), ...more.filter((r) => r !== undefined)];
  // The folders as the workspace names them count for the text check too (before symlinks are resolved).
  const spellings = [context.root, ...(context.moreRoots ?? [])];
  const { root, ...cwd } = await resolveCwd(request.cwd, roots, { spellings });
  const filtered = filterEnv(context.env, requestedEnv, platform);
  const program = await resolveProgram(request.command, filtered.env, platform);
  const launch: PreparedLaunch = Object.freeze({
    command: request.command,
    executable: program.executable,
    args: Object.freeze(args),
    cwd: cwd.path,
    root,
    env: Object.freeze({ ...filtered.env }),
    envFromAgent: Object.freeze([...filtered.fromAgent]),
    droppedEnv: Object.freeze([...filtered.droppedFromAgent]),
    droppedHostEnv: Object.freeze([...filtered.droppedFromHost]),
    outputByteLimit,
    identities: Object.freeze({ cwd: cwd.identity, executable: program.identity }),
    platform,
  });
  prepared.add(launch);
  return launch;
}

function validArgs(args: unknown): string[] {
  if (args === undefined || args === null) return [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) {
    throw new TerminalError('invalid-request', 'args must be a list of strings.');
  }
  if (args.length > MAX_ARGS) {
    throw new TerminalError('invalid-request', `Too many arguments (${args.length}; at most ${MAX_ARGS}).`);
  }
  if (args.some((a) => a.includes('\0'))) {
    throw new TerminalError('invalid-request', 'Arguments must not contain NUL bytes.');
  }
  return [...args];
}

function validEnv(env: unknown): Array<{ name: string; value: string }> {
  if (env === undefined || env === null) return [];
  const ok = Array.isArray(env) && env.every((e) => typeof e?.name === 'string' && typeof e?.value === 'string');
  if (!ok) throw new TerminalError('invalid-request', 'env must be a list of { name, value } strings.');
  const entries = (env as Array<{ name: string; value: string }>).map(({ name, value }) => ({ name, value }));
  if (entries.some((e) => e.name.includes('\0') || e.value.includes('\0'))) {
    throw new TerminalError('invalid-request', 'Environment names and values must not contain NUL bytes.');
  }
  return entries;
}

/** Everything the user must read in the consent prompt has to fit in it. */
function checkSize(
  command: unknown,
  args: readonly string[],
  env: ReadonlyArray<{ name: string; value: string }>,
): void {
  const texts = [String(command), ...args, ...env.flatMap((e) => [e.name, e.value])];
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  if (bytes > MAX_LAUNCH_TEXT_BYTES) {
    throw new TerminalError(
      'invalid-request',
      `The command line is too long to show for approval (${bytes} bytes; at most ${MAX_LAUNCH_TEXT_BYTES}).`,
    );
  }
}

function validLimit(limit: unknown): number {
  if (limit === undefined || limit === null) return DEFAULT_OUTPUT_BYTES;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0) {
    throw new TerminalError('invalid-request', 'outputByteLimit must be a whole number >= 0.');
  }
  return Math.min(limit, MAX_OUTPUT_BYTES);
}
