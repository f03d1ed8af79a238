/**
 * Why an MCP server (or a whole source of them) is left out: a code and the
 * place in its source, in our words only. Nothing a project wrote (server
 * names, keys, values) is ever part of a problem's text: places are given
 * by position (`servers[2].env[0].value`).
 */

export type McpProblemCode =
  /** Not the shape we read (a wrong type, a missing field). */
  | 'MCP_CONFIG_INVALID'
  /** A section, property or variable this extension does not support (inputs, OAuth, envFile, `${input:...}`). */
  | 'MCP_CONFIG_UNSUPPORTED'
  /** A relative or batch-file command, a URL that is not HTTPS or carries credentials. */
  | 'MCP_CONFIG_UNSAFE'
  /** Two servers of one name in one source, or a property twice in one object. */
  | 'MCP_CONFIG_DUPLICATE'
  /** Over a size, count or nesting limit (MCP_LIMITS). */
  | 'MCP_CONFIG_TOO_LARGE'
  /** Not JSON with comments. */
  | 'MCP_CONFIG_SYNTAX'
  /** Not UTF-8. */
  | 'MCP_CONFIG_ENCODING'
  /** `.vscode/mcp.json` is a folder or something else that is not a file. */
  | 'MCP_CONFIG_NOT_A_FILE'
  /** It could not be read (permissions, a broken link). */
  | 'MCP_CONFIG_UNREADABLE'
  /** `${env:NAME}` names a variable that is not set (or this host has no environment). */
  | 'MCP_ENV_UNSET'
  /** An HTTP or SSE server, and the agent did not say it takes that transport. */
  | 'MCP_AGENT_UNSUPPORTED'
  /** A workspace source, ignored in Restricted Mode. */
  | 'MCP_RESTRICTED';

export interface McpProblem {
  readonly code: McpProblemCode;
  /** Where: the source and the position in it, e.g. `.vscode/mcp.json.servers[0].command`. */
  readonly path: string;
  /** Our sentence: what is wrong. */
  readonly detail: string;
}

export function problemText(problem: McpProblem): string {
  return `[${problem.code}] ${problem.path} ${problem.detail}`;
}

/** One set of bounds for every source. */
export const MCP_LIMITS = {
  /** `.vscode/mcp.json`, before and after reading. */
  fileBytes: 256 * 1024,
  /** Nesting of objects and arrays, in a file or a setting. */
  depth: 16,
  /** Servers in one source, and sent in one session. */
  servers: 64,
  args: 256,
  /** Environment variables or headers of one server. */
  variables: 128,
  /** Any one string (a command, an argument, a URL, a value). */
  stringChars: 16 * 1024,
  nameChars: 100,
} as const;
