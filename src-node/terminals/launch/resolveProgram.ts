/**
 * The agent's `command` as an absolute, canonical executable, found without
 * a shell (src-node/agents/resolveExecutable.ts), with errors the agent can act on.
 */
import * as path from 'node:path';
import { pathShapeProblem, type PathFlavour } from '../../paths/agentPathText';
import { resolveExecutable } from '../../agents/resolveExecutable';
import { TerminalError } from '../errors';
import { identityOf, type PathIdentity } from './launchPaths';
import { quotedShort } from './shownText';

/** `flavour`: the paths' semantics (this machine's; a test gives path.win32 on Linux). */
export async function resolveProgram(
  command: unknown,
  env: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
  flavour: PathFlavour = path,
): Promise<{ executable: string; identity: PathIdentity }> {
  if (typeof command !== 'string' || command === '') {
    throw new TerminalError('invalid-request', 'command must be a non-empty string.');
  }
  if (command.includes('\0')) throw new TerminalError('invalid-request', 'command must not contain NUL bytes.');
  // A path is judged as text before it is looked at (on Windows a look at \\host\x.exe is a network connection).
  const drive = flavour.sep === '\\' && /^[A-Za-z]:/.test(command);
  const problem = flavour.isAbsolute(command) || drive ? pathShapeProblem(flavour, command) : undefined;
  if (problem) throw new TerminalError('invalid-request', `command ${quotedShort(command)} is refused: ${problem}.`);
  if (!flavour.isAbsolute(command) && /[/\\]/.test(command)) {
    throw new TerminalError(
      'invalid-request',
      `command ${quotedShort(command)} is a relative path; give an absolute path or a bare name found on PATH.`,
    );
  }
  const executable = await resolveExecutable(command, env);
  if (executable === undefined) {
    const hint = /\s/.test(command)
      ? ' Commands run without a shell: send the program in command and each argument in args (or run /bin/sh with -c).'
      : '';
    throw new TerminalError('not-found', `command ${quotedShort(command)} was not found as an executable file.${hint}`);
  }
  // Node refuses .bat/.cmd without a shell (CVE-2024-27980), and cmd.exe would
  // re-read the arguments (&, |, %VAR%): batch files are never started.
  if (platform === 'win32' && /\.(bat|cmd)$/i.test(executable)) {
    throw new TerminalError(
      'invalid-request',
      `command ${quotedShort(command)} is a batch file, which only cmd.exe runs; run the program it wraps directly (for an npm tool: node and its script).`,
    );
  }
  return { executable, identity: await identityOf(executable) };
}
