/**
 * Signing in when the agent answers "authentication required" (-32000):
 * the user picks one of the agent's own methods, the client authenticates,
 * and the request runs once more. Terminal methods are not offered yet.
 */
import * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import { AUTH_REQUIRED, type AgentClient } from './agentClient';

/** Runs `open`; when the agent answers "authentication required", signs in and runs it once more. */
export async function withSignIn<T>(client: AgentClient, init: acp.InitializeResponse, open: () => Promise<T>): Promise<T> {
  try {
    return await open();
  } catch (error) {
    if (!(error instanceof acp.RequestError) || error.code !== AUTH_REQUIRED) throw error;
    const method = await pickAuthMethod(init.authMethods ?? []);
    if (!method) throw new Error('The agent needs you to sign in before it can start a session.');
    await client.authenticate(method);
    return open();
  }
}

/** Offers the sign-in methods the client can perform itself (`agent` type). */
async function pickAuthMethod(methods: readonly acp.AuthMethod[]): Promise<string | undefined> {
  // Terminal sign-in (running the agent's login in a terminal) is not offered yet.
  const usable = methods.filter((m) => !('type' in m && m.type === 'terminal'));
  if (usable.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    usable.map((m) => ({ label: m.name, detail: m.description ?? undefined, id: m.id })),
    { title: 'The agent needs you to sign in', placeHolder: 'Choose how to sign in' },
  );
  return picked?.id;
}
