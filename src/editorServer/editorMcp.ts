/**
 * The editor server as an MCP server (the official library's McpServer): the tools of editorTools.ts in the groups
 * the user leaves on. One factory serves every transport, asked for a server per request as MCP 2026-07-28 serving
 * does. `answer` runs a call: in the extension host against the editor (runTool), or, in the bridge next to an agent
 * for vscode.dev, by asking the browser over the ACP connection. Only those two import the library: the web bundle
 * stays without it (the web host answers the bridge's calls with runTool).
 */
import { McpServer } from '@modelcontextprotocol/server';
import { EDITOR_SERVER_NAME, EDITOR_TOOLS, type EditorTool, type ToolAnswer, type ToolGroup } from './editorTools';

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
