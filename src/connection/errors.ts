/** How the end of an agent and a failed request are said to the user. */
import * as acp from '@agentclientprotocol/sdk';

export function describeExit(exit: { message: string; stderrTail?: string }): string {
  return exit.stderrTail ? `${exit.message}\n${exit.stderrTail}` : exit.message;
}

export function errorMessage(error: unknown): string {
  if (error instanceof acp.RequestError) return error.data ? `${error.message} (${JSON.stringify(error.data).slice(0, 500)})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
