/**
 * Reading the MCP sources of a session's workspace folder: the
 * `vscode-acp.mcpServers` setting at user, workspace and folder level, and
 * the folder's `.vscode/mcp.json` through `vscode.workspace.fs` (so remote
 * and virtual folders work). Workspace sources are not read in Restricted
 * Mode; a folder that is no longer one of the workspace's gives nothing.
 */
import * as vscode from 'vscode';
import type { McpSourceRead } from './mcpPlan';
import { MCP_LIMITS, type McpProblem } from './problems';
import { fromServers, MCP_JSON_PATH, parseMcpJson } from './mcpJson';
import { settingServers } from './serverConfig';
import { settingScopes } from '../settings/settings';

/** The sources for a session in `folder` (its exact URI), lowest precedence first. */
export async function readMcpSources(folder: vscode.Uri | undefined): Promise<McpSourceRead[]> {
  const current = folder && vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === folder.toString());
  const setting = settingScopes('mcpServers', current?.uri);
  const sources: McpSourceRead[] = [fromSetting('user', setting?.globalValue)];
  // A single-folder window's folder settings are its workspace settings: read once.
  const folderValue = vscode.workspace.workspaceFile ? setting?.workspaceFolderValue : undefined;
  const mcpJson = current ? vscode.Uri.joinPath(current.uri, '.vscode', 'mcp.json') : undefined;
  if (!vscode.workspace.isTrusted) {
    const restricted = (id: 'workspace' | 'folder' | 'project', path: string): McpSourceRead => ({
      id,
      problem: {
        code: 'MCP_RESTRICTED',
        path,
        detail: 'is not used in Restricted Mode (trust the workspace to use it)',
      },
    });
    if (setting?.workspaceValue !== undefined) sources.push(restricted('workspace', 'workspace:vscode-acp.mcpServers'));
    if (folderValue !== undefined) sources.push(restricted('folder', 'folder:vscode-acp.mcpServers'));
    if (mcpJson && (await exists(mcpJson))) sources.push(restricted('project', MCP_JSON_PATH));
    return sources;
  }
  sources.push(fromSetting('workspace', setting?.workspaceValue), fromSetting('folder', folderValue));
  if (mcpJson) sources.push(await readMcpJson(mcpJson));
  return sources;
}

function fromSetting(id: 'user' | 'workspace' | 'folder', value: unknown): McpSourceRead {
  if (value === undefined) return { id };
  return fromServers(id, settingServers(value, `${id}:vscode-acp.mcpServers`));
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** `.vscode/mcp.json`: a file (before and after reading) of at most 256 KiB of UTF-8 JSON with comments. */
export async function readMcpJson(uri: vscode.Uri): Promise<McpSourceRead> {
  const refuse = (code: McpProblem['code'], detail: string): McpSourceRead => ({
    id: 'project',
    problem: { code, path: MCP_JSON_PATH, detail },
  });
  const checkStat = async (): Promise<McpSourceRead | undefined> => {
    const stat = await vscode.workspace.fs.stat(uri);
    if ((stat.type & vscode.FileType.File) === 0) return refuse('MCP_CONFIG_NOT_A_FILE', 'is not a file');
    if (stat.size > MCP_LIMITS.fileBytes) {
      return refuse('MCP_CONFIG_TOO_LARGE', `is larger than ${MCP_LIMITS.fileBytes / 1024} KiB`);
    }
    return undefined;
  };
  let bytes: Uint8Array;
  try {
    const before = await checkStat();
    if (before) return before;
    bytes = await vscode.workspace.fs.readFile(uri);
    const after = await checkStat();
    if (after) return after;
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return { id: 'project' };
    return refuse('MCP_CONFIG_UNREADABLE', 'could not be read');
  }
  return parseMcpJson(bytes);
}
