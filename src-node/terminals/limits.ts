/** The bounds on what an agent's terminals may take from the host. */

/** Terminals per ACP session, counting ones awaiting consent and ones being torn down. */
export const MAX_TERMINALS = 8;
/** Output kept when the agent names no `outputByteLimit`. */
export const DEFAULT_OUTPUT_BYTES = 1024 * 1024;
/** The most output kept whatever the agent asks: 8 terminals x 8 MiB bounds a session. */
export const MAX_OUTPUT_BYTES = 8 * 1024 * 1024;
/** Arguments per command, and their total size with the agent's env values: a consent prompt must show all of it. */
export const MAX_ARGS = 1024;
export const MAX_LAUNCH_TEXT_BYTES = 64 * 1024;
/** Between SIGTERM to a process group and SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** After SIGKILL, how long to wait for the group to be gone before giving up on it. */
export const KILL_WAIT_MS = 3_000;
/**
 * After the command exits, how long its output pipes may stay open (a
 * background child holds them) before the exit is reported anyway.
 */
export const EXIT_DRAIN_MS = 250;
/** Released terminals whose last output stays readable for the chat. */
export const RETAINED_RELEASED = 16;
