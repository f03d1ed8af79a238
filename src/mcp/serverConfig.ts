/**
 * The one validator for an MCP server, whichever source it comes from:
 * settings use ACP's shape (arrays of `{name, value}`), `.vscode/mcp.json`
 * is VS Code's (a `servers` object, string maps), converted to ACP's shape
 * first. Unknown properties fail closed. Problems name positions, never
 * what the source wrote.
 */
import { z } from 'zod';
import { MCP_LIMITS, type McpProblem } from './problems';

const text = z.string().max(MCP_LIMITS.stringChars);
/** No control or format characters (bidirectional overrides included): names are shown. */
const serverName = z
  .string()
  .min(1)
  .max(MCP_LIMITS.nameChars)
  .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), 'control');
const variableName = z
  .string()
  .max(256)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
const headerName = z
  .string()
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/);
const envValue = text.refine((s) => !s.includes('\0'), 'control');
const headerValue = text.refine((s) => !/[\0\r\n]/.test(s), 'control');

const stdioSchema = z.strictObject({
  type: z.literal('stdio').optional(),
  name: serverName,
  command: text.min(1),
  args: z.array(text).max(MCP_LIMITS.args).default([]),
  env: z
    .array(z.strictObject({ name: variableName, value: envValue }))
    .max(MCP_LIMITS.variables)
    .default([]),
});

const remoteSchema = z.strictObject({
  type: z.enum(['http', 'sse']),
  name: serverName,
  url: text.min(1),
  headers: z
    .array(z.strictObject({ name: headerName, value: headerValue }))
    .max(MCP_LIMITS.variables)
    .default([]),
});

export type StdioConfig = z.infer<typeof stdioSchema>;
export type RemoteConfig = z.infer<typeof remoteSchema>;
export type ServerConfig = StdioConfig | RemoteConfig;

export function isRemote(config: ServerConfig): config is RemoteConfig {
  return config.type === 'http' || config.type === 'sse';
}

/** One server read from a source: its config, or why not. `at` is its position, e.g. `.vscode/mcp.json.servers[1]`. */
export type ServerRead =
  | { readonly at: string; readonly name: string; readonly config: ServerConfig }
  | { readonly at: string; readonly name?: string; readonly problem: McpProblem };

/** Validates one server in ACP's shape. */
export function readServer(value: unknown, at: string): ServerRead {
  const record = value as { type?: unknown; name?: unknown } | null;
  const name = typeof record?.name === 'string' && serverName.safeParse(record.name).success ? record.name : undefined;
  const remote = record?.type === 'http' || record?.type === 'sse';
  if (
    record !== null &&
    typeof record === 'object' &&
    !Array.isArray(record) &&
    record.type !== undefined &&
    record.type !== 'stdio' &&
    !remote
  ) {
    return {
      at,
      ...(name ? { name } : {}),
      problem: {
        code: 'MCP_CONFIG_UNSUPPORTED',
        path: `${at}.type`,
        detail: 'is a transport this extension does not support (stdio, http and sse are)',
      },
    };
  }
  const parsed = (remote ? remoteSchema : stdioSchema).safeParse(value);
  if (parsed.success) return { at, name: parsed.data.name, config: parsed.data };
  return { at, ...(name ? { name } : {}), problem: issueProblem(parsed.error.issues[0], at) };
}

/** A zod issue in our words: its path is made of schema property names and indices only. */
function issueProblem(issue: z.core.$ZodIssue | undefined, at: string): McpProblem {
  const path = at + (issue?.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  switch (issue?.code) {
    case 'unrecognized_keys':
      return {
        code: 'MCP_CONFIG_UNSUPPORTED',
        path,
        detail: 'has a property this extension does not support (such as envFile, cwd, OAuth or sandbox settings)',
      };
    case 'too_big':
      return { code: 'MCP_CONFIG_TOO_LARGE', path, detail: `is over its limit (${issue.maximum})` };
    case 'too_small':
      return { code: 'MCP_CONFIG_INVALID', path, detail: 'is empty' };
    case 'invalid_type':
      return {
        code: 'MCP_CONFIG_INVALID',
        path,
        detail: issue.input === undefined ? 'is missing' : `should be ${article(issue.expected)}`,
      };
    case 'invalid_format':
      return { code: 'MCP_CONFIG_INVALID', path, detail: 'is not a valid name' };
    case 'invalid_value':
      return { code: 'MCP_CONFIG_UNSUPPORTED', path, detail: 'has a value this extension does not support' };
    case 'custom':
      return { code: 'MCP_CONFIG_INVALID', path, detail: 'contains control characters' };
    default:
      return { code: 'MCP_CONFIG_INVALID', path, detail: 'is not a valid MCP server' };
  }
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

/** What a source holds before each server is validated: the servers, or why the whole source is refused. */
export type SourceServers =
  | { readonly ok: true; readonly servers: readonly { readonly at: string; readonly value: unknown }[] }
  | { readonly ok: false; readonly problem: McpProblem };

/** A `vscode-acp.mcpServers` setting: an array of ACP servers. */
export function settingServers(value: unknown, at: string): SourceServers {
  const bounds = withinBounds(value, at);
  if (bounds) return { ok: false, problem: bounds };
  if (!Array.isArray(value)) {
    return { ok: false, problem: { code: 'MCP_CONFIG_INVALID', path: at, detail: 'should be an array of servers' } };
  }
  return { ok: true, servers: value.map((server, i) => ({ at: `${at}[${i}]`, value: server })) };
}

/**
 * `.vscode/mcp.json`'s value: `servers` (an object by server name), and
 * `inputs` only when empty (VS Code writes `"inputs": []`); anything else
 * refuses the file.
 */
export function mcpJsonServers(value: unknown, at: string): SourceServers {
  const bounds = withinBounds(value, at);
  if (bounds) return { ok: false, problem: bounds };
  if (!isObject(value)) {
    return {
      ok: false,
      problem: { code: 'MCP_CONFIG_INVALID', path: at, detail: 'should be an object with a "servers" object' },
    };
  }
  for (const key of Object.keys(value)) {
    if (key === 'servers') continue;
    if (key === 'inputs' && Array.isArray(value.inputs) && value.inputs.length === 0) continue;
    const known = ['inputs', 'sandbox'].includes(key) ? ` ("${key}")` : '';
    return {
      ok: false,
      problem: {
        code: 'MCP_CONFIG_UNSUPPORTED',
        path: at,
        detail: `has a section this extension does not support${known}: none of its servers are used`,
      },
    };
  }
  if (value.servers === undefined) return { ok: true, servers: [] };
  if (!isObject(value.servers)) {
    return {
      ok: false,
      problem: { code: 'MCP_CONFIG_INVALID', path: `${at}.servers`, detail: 'should be an object of servers by name' },
    };
  }
  const servers = Object.entries(value.servers).map(([name, server], i) => {
    const position = `${at}.servers[${i}]`;
    if (!isObject(server)) return { at: position, value: server };
    // VS Code's maps become ACP's lists; a map that is not one fails as itself.
    const converted: Record<string, unknown> = { ...server, name };
    for (const field of ['env', 'headers'] as const) {
      if (!(field in server)) continue;
      const map = server[field];
      converted[field] = isObject(map)
        ? Object.entries(map).map(([k, v]) => ({ name: k, value: v }))
        : { notAMap: true };
    }
    return { at: position, value: converted };
  });
  return { ok: true, servers };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** At most 20,000 values, nested at most MCP_LIMITS.depth deep: walked without recursion. */
const MAX_VALUES = 20_000;

function withinBounds(value: unknown, at: string): McpProblem | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    if (++count > MAX_VALUES) {
      return {
        code: 'MCP_CONFIG_TOO_LARGE',
        path: at,
        detail: `holds more than ${MAX_VALUES.toLocaleString('en-US')} values`,
      };
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MCP_LIMITS.depth) {
      return {
        code: 'MCP_CONFIG_TOO_LARGE',
        path: at,
        detail: `nests objects or arrays more than ${MCP_LIMITS.depth} levels deep`,
      };
    }
    for (const child of Object.values(v)) stack.push({ value: child, depth: depth + 1 });
  }
  return undefined;
}
