/**
 * Signing in when the agent answers "authentication required" (-32000).
 * The agent's `authMethods` are untrusted and parsed here (the SDK passes
 * responses through as they came):
 * - an `agent` method: the client calls `authenticate`, then tries again;
 * - a `terminal` method (stable ACP since August 2026; offered only where the
 *   client advertised `auth.terminal`, which a host that runs no terminals
 *   does not): the configured agent program, with the method's `args`
 *   appended to its configured arguments and its `env` over the configured
 *   environment, runs in a VS Code terminal (no shell, and never a command the
 *   agent names); exit status 0 is success, any other end a failure. The
 *   legacy `_meta["terminal-auth"]` form replaces the arguments instead. Once
 *   signed in the session is asked for again, and if the agent still refuses
 *   (it reads its credentials when it starts) it is restarted and asked once
 *   more;
 * - an `env_var` method (removed from ACP in July 2026, and never advertised
 *   here; read only from older agents): the user is told which variable the
 *   agent reads and where to set it; the extension never asks for, stores or
 *   logs a value.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { WindowPort } from '../../platform';
import { AUTH_REQUIRED, type AgentClient } from '../agentClient';
import { signInChoices, type SignInChoice } from './signInChoices';

/** What a sign-in did: `retry` on this connection, or `reconnect` (a terminal sign-in: the agent may need a restart to use it). */
export type SignedIn = 'retry' | 'reconnect';

/** A sign-in that was not done (cancelled, failed, or left to the user): its message says what to do. */
export class SignInError extends Error {}

/** Thrown by withSignIn when the agent still refuses after a terminal sign-in: the caller restarts it and asks once more. */
export class ReconnectAfterSignIn extends Error {
  constructor() {
    super('Signed in: the agent is restarted to use it.');
  }
}

export interface SignInContext {
  readonly client: AgentClient;
  readonly window: WindowPort;
  readonly init: acp.InitializeResponse;
  readonly agentName: string;
  /** The agent's configured command (for legacy terminal methods). */
  readonly agentCommand?: string;
  /** Where the user sets the variables of an `env_var` method (Platform.whereToSetEnv). */
  readonly whereToSetEnv: (vars: readonly string[]) => string;
  /** Runs the agent's own program with `args` in a terminal the user sees; its exit code. Where the host can. */
  readonly runInTerminal?: (
    args: readonly string[],
    env: Readonly<Record<string, string>>,
    replaceArgs: boolean,
  ) => Promise<number | undefined>;
}

/** Asks the user how to sign in and does it; throws (a message for the user) when it was not done. */
export async function signIn(context: SignInContext): Promise<SignedIn> {
  const choices = signInChoices(context.init.authMethods, {
    terminal: !!context.runInTerminal,
    ...(context.agentCommand ? { agentCommand: context.agentCommand } : {}),
  });
  if (choices.length === 0) {
    throw new SignInError(
      `${context.agentName} needs you to sign in, and offers no way this extension can do it here: sign in with the agent's own program, then connect again.`,
    );
  }
  const picked = await context.window.pick(
    choices.map((c) => ({
      label: shown(c.name),
      detail: shown([c.description, how(c)].filter(Boolean).join(' · ')),
      choice: c,
    })),
    { title: `${context.agentName} needs you to sign in`, placeHolder: 'Choose how to sign in' },
  );
  if (!picked) throw new SignInError(`${context.agentName} needs you to sign in before it can start a session.`);
  const choice = picked.choice;
  switch (choice.kind) {
    case 'agent': {
      // The agent's own sign-in (a browser page, say) may never finish: the user can give it up, and the agent is told.
      let given: AbortSignal | undefined;
      try {
        await context.window.progress(`Signing in to ${context.agentName}…`, (signal) => {
          given = signal;
          return context.client.authenticate(choice.id, signal);
        });
      } catch (error) {
        if (given?.aborted) throw new SignInError(`Signing in to ${context.agentName} was cancelled.`);
        throw error;
      }
      return 'retry';
    }
    case 'terminal': {
      const code = await context.runInTerminal!(choice.args, choice.env, choice.replaceArgs);
      if (code !== 0) {
        throw new SignInError(
          `Signing in to ${context.agentName} did not finish (${code === undefined ? 'the terminal was closed' : `exit code ${code}`}).`,
        );
      }
      return 'reconnect';
    }
    case 'env_var': {
      const vars = choice.vars.join(', ');
      throw new SignInError(
        `${context.agentName} reads its key from the environment variable ${vars}. ${context.whereToSetEnv(choice.vars)} This extension never asks for, stores or logs the key.`,
      );
    }
  }
}

function how(choice: SignInChoice): string {
  switch (choice.kind) {
    case 'agent':
      return '';
    case 'terminal':
      return "runs the agent's sign-in in a terminal";
    case 'env_var':
      return `set ${choice.vars.join(', ')}`;
  }
}

/** Agent text for a quick pick: one line, no codicon syntax. */
function shown(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\$\(/g, '$\u200a(')
    .slice(0, 300);
}

export function isAuthRequired(error: unknown): boolean {
  return error instanceof acp.RequestError && error.code === AUTH_REQUIRED;
}

/**
 * Runs `open`; when the agent answers "authentication required", signs in
 * and runs it once more. After a terminal sign-in an agent that read its
 * credentials when it started still refuses: then ReconnectAfterSignIn says
 * to restart it and ask again.
 */
export async function withSignIn<T>(
  open: () => Promise<T>,
  signInOnce: (() => Promise<SignedIn>) | undefined,
): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!isAuthRequired(error) || !signInOnce) throw error;
  }
  if ((await signInOnce()) === 'retry') return open();
  try {
    return await open();
  } catch (error) {
    throw isAuthRequired(error) ? new ReconnectAfterSignIn() : error;
  }
}

/**
 * `signIn` at most once: a second "authentication required" in the same
 * attempt (the agent still refuses after signing in) is an error, not
 * another prompt. `used`: the sign-in was done already (before a restart).
 */
export function once(signIn: () => Promise<SignedIn>, agentName: string, used = false): () => Promise<SignedIn> {
  return () => {
    if (used) return Promise.reject(new SignInError(`${agentName} still needs you to sign in.`));
    used = true;
    return signIn();
  };
}
