/** This machine's kind of OS, as MCP server commands are checked for it (and as the bridge tells the web host). */
import type { AgentOs } from '../src/mcp/serverChecks';

export const HOST_OS: Exclude<AgentOs, undefined> = process.platform === 'win32' ? 'windows' : 'posix';
