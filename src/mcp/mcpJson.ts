/**
 * `.vscode/mcp.json` from its bytes: at most 256 KiB of UTF-8 (a byte order
 * mark allowed), JSON with comments nested at most 16 deep, no property
 * twice, in VS Code's shape. No I/O (mcpSources.ts reads the file).
 */
import { readJsonc } from './jsonc';
import type { McpSourceRead } from './mcpPlan';
import { MCP_LIMITS, type McpProblem } from './problems';
import { mcpJsonServers, readServer, type SourceServers } from './serverConfig';

export const MCP_JSON_PATH = '.vscode/mcp.json';

export function fromServers(id: McpSourceRead['id'], read: SourceServers): McpSourceRead {
  if (!read.ok) return { id, problem: read.problem };
  return { id, servers: read.servers.map(({ at, value }) => readServer(value, at)) };
}

/** The file's bytes as a source. */
export function parseMcpJson(bytes: Uint8Array): McpSourceRead {
  const refuse = (code: McpProblem['code'], detail: string, path = MCP_JSON_PATH): McpSourceRead => ({
    id: 'project',
    problem: { code, path, detail },
  });
  if (bytes.length > MCP_LIMITS.fileBytes) {
    return refuse('MCP_CONFIG_TOO_LARGE', `is larger than ${MCP_LIMITS.fileBytes / 1024} KiB`);
  }
  let text: string;
  try {
    // A UTF-8 byte order mark is dropped; anything that is not UTF-8 is refused.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return refuse('MCP_CONFIG_ENCODING', 'is not UTF-8');
  }
  const parsed = readJsonc(text, MCP_LIMITS.depth);
  if (!parsed.ok) {
    const code =
      parsed.why === 'depth'
        ? 'MCP_CONFIG_TOO_LARGE'
        : parsed.why === 'duplicate'
          ? 'MCP_CONFIG_DUPLICATE'
          : 'MCP_CONFIG_SYNTAX';
    return refuse(code, parsed.detail, MCP_JSON_PATH + (parsed.at ?? ''));
  }
  return fromServers('project', mcpJsonServers(parsed.value, MCP_JSON_PATH));
}
