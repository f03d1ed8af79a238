/**
 * The agent's `command` as an absolute, canonical executable, found without
 * a shell (src-node/resolveExecutable.ts), with errors the agent can act on.
 */
import * as path from 'node:path';
import { resolveExecutable } from '../resolveExecutable';
import { TerminalError } from './errors';
import { identityOf, type PathIdentity } from './launchPaths';
import { quotedShort } from './shownText';

export async function resolveProgram(
  command: unknown,
  env: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
): Promise<{ executable: string; identity: PathIdentity }> {
  if (typeof command !== 'string' || command === '') {
    throw new TerminalError('invalid-request', 'command must be a non-empty string.');
  }
  if (command.includes('\0')) throw new TerminalError('invalid-request', 'command must not contain NUL bytes.');
  if (!path.isAbsolute(command) && /[/\\]/.test(command)) {
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
