/**
 * A session's editor server (src/editorServer/): started where the host serves it (a trusted local folder, an agent
 * it starts) for an agent that takes MCP over HTTP, with the tool groups the user leaves on; declared among the
 * session's MCP servers under a name none of the user's has, its token kept out of every log; closed with the session.
 */
import type * as acp from '@agentclientprotocol/sdk';
import type { EditorPort } from '../editorServer/editorPort';
import { runTool, serverName, type ToolGroup } from '../editorServer/editorTools';
import type { HostCapabilities, Platform } from '../platform';
import { redactor } from '../secrets/redactor';

/** What the editor server answers from, given to every session. */
export interface EditorServerDeps {
  readonly editor: EditorPort;
  /** The extension's version, as the server names itself. */
  readonly version: string;
  /** The tool groups the user leaves on (`vscode-acp.editorServer.*`), read as each session starts. */
  groups(): ReadonlySet<ToolGroup>;
}

export interface SessionEditor {
  readonly server: acp.McpServerHttp & { type: 'http' };
  dispose(): void;
}

/**
 * The editor server for a session in `roots`: started, or why the agent gets none when it is the agent's doing (a
 * sentence for the chat), or nothing (the host does not serve it, the user turned every group off).
 */
export async function startSessionEditor(
  platform: Platform,
  offered: HostCapabilities,
  deps: EditorServerDeps | undefined,
  agentMcp: acp.McpCapabilities | null | undefined,
  roots: readonly string[],
  taken: readonly acp.McpServer[],
): Promise<SessionEditor | { notice: string } | undefined> {
  const { editorEndpoint, editorScope } = platform;
  if (!deps || !offered.editorServer || !editorEndpoint || !editorScope) return undefined;
  const groups = deps.groups();
  if (groups.size === 0) return undefined;
  if (!agentMcp?.http) {
    return {
      notice:
        'This agent takes no MCP server over HTTP, so it cannot ask VS Code about problems, symbols or changes (the editor server).',
    };
  }
  const scope = editorScope.call(platform, roots);
  const endpoint = await editorEndpoint.call(platform, {
    answer: (tool, args) => runTool(tool, args, { editor: deps.editor, scope }),
    groups,
    version: deps.version,
  });
  redactor.add(endpoint.headers.map((h) => h.value));
  const name = serverName(new Set(taken.map((s) => s.name)));
  return {
    server: { type: 'http', name, url: endpoint.url, headers: endpoint.headers.map((h) => ({ ...h })) },
    dispose: () => endpoint.dispose(),
  };
}
