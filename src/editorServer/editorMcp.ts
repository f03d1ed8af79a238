/**
 * The editor server as an MCP server (the official library's McpServer): the tools of editorTools.ts in the groups
 * the user leaves on. One factory serves every transport, asked for a server per request as MCP 2026-07-28 serving
 * does. `answer` runs a call: in the extension host against the editor (runTool), or, in the bridge next to an agent
 * for vscode.dev, by asking the browser over the ACP connection. Only those two import the library: the web bundle
 * stays without it (the web host answers the bridge's calls with runTool).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { EDITOR_TOOLS, type EditorTool, type ToolAnswer, type ToolGroup } from './editorTools';

/** The server's name in a session's `mcpServers`: a user's server of this name keeps its own (see serverName). */
export const EDITOR_SERVER_NAME = 'vscode-editor';

/** A name for the editor server that none of the user's servers has. */
export function serverName(taken: ReadonlySet<string>): string {
  let name = EDITOR_SERVER_NAME;
  for (let n = 2; taken.has(name); n++) name = `${EDITOR_SERVER_NAME}-${n}`;
  return name;
}

/** A new McpServer serving the tools of `groups`, each call answered by `answer`. */
export function editorMcpServer(
  answer: (tool: EditorTool, args: Record<string, unknown>) => Promise<ToolAnswer>,
  groups: ReadonlySet<ToolGroup>,
  version: string,
): McpServer {
  const server = new McpServer({ name: EDITOR_SERVER_NAME, version });
  for (const tool of EDITOR_TOOLS) {
    if (!groups.has(tool.group)) continue;
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (args: Record<string, unknown>) => {
        const { text, isError } = await answer(tool, args);
        return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
      },
    );
  }
  return server;
}
