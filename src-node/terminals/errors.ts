/**
 * The one error type of agent terminals. Its message is sent back to the
 * agent as is and may be shown to the user, so it only ever names what the
 * agent itself sent (quoted) or the workspace folder: never an environment
 * value, never the text of Node's own error.
 */

export type TerminalErrorCode =
  | 'invalid-request' // malformed: NUL bytes, relative cwd, bad outputByteLimit, too many arguments, ...
  | 'not-found' // the command does not resolve to an executable file
  | 'outside-workspace' // the working folder is (or resolves to) a place outside the workspace folder
  | 'cwd-not-found' // the working folder does not exist or is not a folder
  | 'changed' // the executable or folder changed between the consent prompt and the start
  | 'too-many' // the per-session terminal limit is reached
  | 'unknown-terminal' // no such terminal (never created, or released)
  | 'spawn-failed' // the operating system refused to start it
  | 'disposed'; // the session's terminals were ended (disconnect, new chat, ...)

export class TerminalError extends Error {
  override readonly name = 'TerminalError';
  constructor(
    readonly code: TerminalErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isTerminalError(e: unknown, code?: TerminalErrorCode): e is TerminalError {
  return e instanceof TerminalError && (code === undefined || e.code === code);
}
