/** How the end of an agent and a failed request are said to the user. */
import * as acp from '@agentclientprotocol/sdk';
import { redactor } from './secrets/redactor';

/** Redacted: the agent's stderr may hold what an MCP server's `${env:...}` resolved to. */
export function describeExit(exit: { message: string; stderrTail?: string }): string {
  return redactor.redact(exit.stderrTail ? `${exit.message}\n${exit.stderrTail}` : exit.message);
}

/** Redacted, as describeExit: an agent's error may echo a secret. */
export function errorMessage(error: unknown): string {
  if (error instanceof acp.RequestError) {
    return redactor.redact(
      error.data ? `${error.message} (${JSON.stringify(error.data).slice(0, 500)})` : error.message,
    );
  }
  return redactor.redact(error instanceof Error ? error.message : String(error));
}
