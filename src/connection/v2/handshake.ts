/**
 * ACP v2's requests and answers in the shapes of v1 that the rest of the client reads (see wire.ts): `initialize`
 * (`info` and capabilities under `session`), MCP servers (typed), config options (`configId`), permission requests
 * (a title and a subject), commands (typed). Everything read from the agent is checked here or by the SDK's v1
 * schema after it: a field of the wrong type is left out.
 */
import type * as acp from '@agentclientprotocol/sdk';

type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const present = (value: unknown) => (value !== undefined && value !== null ? {} : undefined);

/** Only the entries whose value is neither undefined nor null. */
export function defined(fields: Json): Json {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
}

/** The v1 `initialize` params the client builds, as v2's: version 2, `info`, and the two capabilities v2 has. */
export function initializeRequest(params: acp.InitializeRequest): Json {
  const caps = params.clientCapabilities ?? {};
  return defined({
    protocolVersion: 2,
    info: params.clientInfo ?? { name: 'vscode-acp', version: '0' },
    capabilities: defined({
      auth: caps.auth?.terminal ? { terminal: {} } : undefined,
      elicitation: caps.elicitation,
      _meta: caps._meta,
    }),
  });
}

/**
 * A v2 `initialize` answer as v1's: what v2 makes every agent serve (resume with replay, so load; close; list) and
 * what it advertises. Undefined when it is not a version 2 answer (a v1 agent answers 1 whatever it is asked).
 */
export function initializeAnswer(result: unknown): acp.InitializeResponse | undefined {
  if (!isRecord(result) || result.protocolVersion !== 2) return undefined;
  const caps = isRecord(result.capabilities) ? result.capabilities : {};
  const session = isRecord(caps.session) ? caps.session : {};
  const prompt = isRecord(session.prompt) ? session.prompt : {};
  const mcp = isRecord(session.mcp) ? session.mcp : {};
  const methods = Array.isArray(result.authMethods) ? result.authMethods : [];
  return {
    protocolVersion: 1,
    ...(isRecord(result.info) ? { agentInfo: result.info as acp.Implementation } : {}),
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: {
        image: !!present(prompt.image),
        audio: !!present(prompt.audio),
        embeddedContext: !!present(prompt.embeddedContext),
      },
      mcpCapabilities: { http: !!present(mcp.http), sse: false },
      sessionCapabilities: defined({
        resume: {},
        close: {},
        list: {},
        delete: present(session.delete),
        additionalDirectories: present(session.additionalDirectories),
        fork: present(session.fork),
      }) as acp.SessionCapabilities,
      // Sign-in methods listed are served by auth/login and auth/logout on v2.
      ...(methods.length > 0 ? { auth: { logout: {} } } : {}),
    },
    authMethods: methods.filter(isRecord).map(authMethod),
  };
}

/** A v2 sign-in method (`methodId`, env as a list) as v1's (`id`, env as v1 terminal methods carry it). */
function authMethod(method: Json): acp.AuthMethod {
  const { methodId, ...rest } = method;
  return { ...rest, id: methodId } as acp.AuthMethod;
}

/** v1 MCP servers as v2 takes them: each typed (`stdio` was untyped); v2 has no SSE. */
export function mcpServers(servers: unknown): Json[] {
  if (!Array.isArray(servers)) return [];
  return servers
    .filter(isRecord)
    .filter((server) => server.type !== 'sse')
    .map((server) => (server.type === undefined ? { type: 'stdio', ...server } : server));
}

/** v2 config options (`configId`) as v1's (`id`); one without an id is left out. */
export function configOptions(options: unknown): acp.SessionConfigOption[] | undefined {
  if (!Array.isArray(options)) return undefined;
  return options
    .filter((option): option is Json => isRecord(option) && typeof option.configId === 'string')
    .map(({ configId, ...rest }) => ({ ...rest, id: configId }) as unknown as acp.SessionConfigOption);
}

/** v2 commands (`type: "command"`) as v1's; other kinds of command are left out. */
export function commands(list: unknown): acp.AvailableCommand[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list
    .filter((command): command is Json => isRecord(command) && (command.type ?? 'command') === 'command')
    .map(({ type: _type, ...rest }) => rest as acp.AvailableCommand);
}

/**
 * A v2 permission request as v1's: the subject's tool call (fields as `toolCall` makes them), else one of the
 * request's title, named `fallbackId`.
 */
export function permissionRequest(params: unknown, toolCall: (call: Json) => Json, fallbackId: string): Json {
  if (!isRecord(params)) return {};
  const { subject, title, description: _description, ...rest } = params;
  const call = isRecord(subject) && subject.type === 'tool_call' && isRecord(subject.toolCall) ? subject.toolCall : {};
  const titled = call.title == null && typeof title === 'string' ? { ...call, title } : call;
  const toolCallId = typeof call.toolCallId === 'string' && call.toolCallId !== '' ? call.toolCallId : fallbackId;
  return { ...rest, toolCall: { ...toolCall(titled), toolCallId } };
}
