/**
 * The web worker host (vscode.dev): no processes and no local files, so the
 * agent runs next to our WebSocket bridge and uses its own tools there.
 */
import * as vscode from 'vscode';
import { hostCapabilities } from '../src/capabilities';
import type { McpHost } from '../src/mcp/sessionMcp';
import { readMcpSources } from '../src/mcp/mcpSources';
import type { AgentTransport, ConnectContext, HostCapabilities, Platform } from '../src/platform';
import { sessionFolderIfAny } from '../src/workspaceFolder';
import type { AgentChoice } from '../src/shared/page/protocol';
import { BridgeAddress } from './bridgeAddress';
import { WebAttachmentFiles } from './webAttachmentFiles';
import { webEditorScope } from './webEditorScope';
import { resolveAgentSettings, type AgentDefinition } from '../src/agents/agents';
import { openServedAgent, openStandardTransport, servedChoice } from '../src/connection/wire/standardTransport';
import { setting } from '../src/settings/settings';

/**
 * The agents of vscode-acp.agents served over the standard remote transport: the ones a web worker can reach
 * (programs it cannot start). Broken entries are the Node host's to report; here they are left out.
 */
function servedAgents(): (AgentDefinition & { url: string })[] {
  return resolveAgentSettings(setting('agents'), undefined).agents.filter(
    (a): a is AgentDefinition & { url: string } => a.url !== undefined,
  );
}

/** The agent the bridge was started with; named by the bridge once connected. */
const BRIDGE_AGENT_ID = 'bridge';

export class WebPlatform implements Platform {
  /** The agent runs next to the bridge, on another machine's files: it uses its own tools. */
  capabilities(): HostCapabilities {
    return hostCapabilities({
      kind: 'web',
      remoteName: vscode.env.remoteName,
      trusted: vscode.workspace.isTrusted,
      localFolder: false,
      descriptorWalk: false,
      terminalsReady: false,
    });
  }
  readonly attachmentFiles = new WebAttachmentFiles();
  /** The editor server, served by a bridge that relays it next to the agent (src-node/bridge/editorRelay.ts). */
  readonly editorScope = webEditorScope;
  /** The agent's machine is the bridge's, unknown here; a web worker has no environment to resolve `${env:...}` from. */
  readonly mcpHost: McpHost = { os: undefined, env: () => undefined, sources: readMcpSources };
  private readonly address: BridgeAddress;

  /** The agent reads its environment on the bridge's machine. */
  whereToSetEnv(_agentId: string, vars: readonly string[]): string {
    return `The agent runs next to the bridge: set ${vars.join(', ')} in the environment the bridge starts from on that machine, start the bridge again, and connect again.`;
  }

  constructor(secrets: vscode.SecretStorage) {
    this.address = new BridgeAddress(secrets);
  }

  async listAgents(): Promise<AgentChoice[]> {
    return [
      { id: BRIDGE_AGENT_ID, name: 'Agent on the ACP bridge', available: true, detail: this.address.url },
      ...servedAgents().map(servedChoice),
    ];
  }

  async connect(agentId: string, context: ConnectContext): Promise<AgentTransport | undefined> {
    // The folder whose settings and .vscode/mcp.json the session takes (the agent itself works where it runs).
    const picked = await sessionFolderIfAny();
    if (!picked) return undefined;
    const folder = picked.folder ? { folder: picked.folder.uri } : {};
    const served = servedAgents().find((a) => a.id === agentId);
    // No path here names a folder where the agent is served: its own `cwd` is needed, or a bridge's.
    if (served) return openServedAgent(served, WebSocket, context, folder);
    const url = await this.address.connectUrl(undefined);
    if (!url) return undefined;
    return openStandardTransport(url, WebSocket, context, {
      ...folder,
      serverName: 'the bridge',
      missingCwd: `The server at ${this.address.url} is not an ACP bridge (it did not say where it runs the agent): add it to vscode-acp.agents with its "url" and "cwd" instead.`,
      unreachableHint:
        'Start the bridge next to your agent with: node dist/bridge/bridge.js -- <agent command> (see docs/bridge.md in the extension repository; if one is running, its output says why it refused).',
    });
  }

  registerCommands(context: vscode.ExtensionContext): void {
    void vscode.commands.executeCommand('setContext', 'vscode-acp.usesBridge', true);
    context.subscriptions.push(
      vscode.commands.registerCommand('vscode-acp.setBridgeToken', async (value?: unknown) => {
        // Tests and scripts may pass the URL or token; people get an input box.
        const ok =
          typeof value === 'string'
            ? await this.address.setFrom(value)
            : (await this.address.askForToken()) !== undefined;
        if (!ok && typeof value === 'string') {
          void vscode.window.showErrorMessage('That is not a bridge URL with a token, nor a token.');
        }
        return ok;
      }),
    );
  }
}
