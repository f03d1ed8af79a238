/** What differs between the two extension hosts in the integration tests. */
import type { AcpExtensionApi } from '../../../src/extension';
import { acpApi, activeChat, type Chat } from './chatWaits';

export interface HostSetup {
  /** The agent id to pick in the chat. */
  readonly agentId: string;
  /** Whether non-protocol output from the agent reaches the chat as a warning. */
  readonly reportsStrayOutput: boolean;
  /** The `clientCapabilities` this host must advertise to the agent, as JSON. */
  readonly expectedCapabilities: string;
  /** The value of `ACP_TEST_MCP_SECRET` where the host resolves `${env:...}` (Node); undefined where it cannot (web). */
  readonly mcpSecret: string | undefined;
  /** The extension's editor server is among a session's MCP servers (the Node host: a trusted local folder). */
  readonly editorServer: boolean;
  /** Points the extension at the test agent (a setting, or the bridge). */
  configureAgent(): Promise<void>;
}

export let hostSetup: HostSetup;

export function setHostSetup(setup: HostSetup): void {
  hostSetup = setup;
}

/** The chat, with the host's test agent configured and selected. */
export async function chatWithTestAgent(): Promise<Chat> {
  const chat = await activeChat();
  await hostSetup.configureAgent();
  await chat.refreshAgents();
  chat.selectAgent(hostSetup.agentId);
  return chat;
}

/** Another open chat, with the host's test agent configured and selected in it. */
export async function newChatWithTestAgent(): Promise<{
  api: AcpExtensionApi;
  chat: ReturnType<AcpExtensionApi['chats']['newChat']>;
}> {
  await chatWithTestAgent();
  const api = await acpApi();
  const chat = api.chats.newChat();
  chat.selectAgent(hostSetup.agentId);
  return { api, chat };
}
