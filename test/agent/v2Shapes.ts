// How the scripted agent's v1-shaped updates and requests go on an ACP v2 wire, as Claude Code's adapter turns its v1
// core's (its dist/v2/session-update.js and tool-call.js): chunks carry message ids, tool calls are upserts without
// nulls, a diff is a list of changes with a git patch, the plan has an id, modes are gone.
import type * as acp from '@agentclientprotocol/sdk';
import type * as v2 from '@agentclientprotocol/sdk/experimental/v2';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { Scenario } from './scenario';

/** Updates a scenario gives raw (the `update` step): sent as they are on either wire. */
export const verbatimUpdates = new WeakSet<object>();

/** The message ids a session's chunks get on v2 where a step gave none: one per kind of message and turn. */
export interface MessageIds {
  agent: string;
  thought: string;
}

function withoutNulls<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}

/** A v1 diff as v2's structured change: what happened to which file, and the change as a git patch. */
function v2Diff(item: Extract<acp.ToolCallContent, { type: 'diff' }>): v2.ToolCallContent {
  const created = item.oldText === null || item.oldText === undefined;
  const body = createTwoFilesPatch(
    created ? '/dev/null' : item.path,
    item.path,
    item.oldText ?? '',
    item.newText,
    undefined,
    undefined,
    { headerOptions: FILE_HEADERS_ONLY },
  );
  const header = `diff --git ${item.path} ${item.path}\n${created ? 'new file mode 100644\n' : ''}`;
  const change = created
    ? { operation: 'add' as const, path: item.path, fileType: 'text' }
    : { operation: 'modify' as const, path: item.path, fileType: 'text' };
  return {
    type: 'diff',
    changes: [change],
    patch: { format: 'git_patch', text: header + body },
  };
}

function v2ToolContent(content: acp.ToolCallContent[] | null | undefined): v2.ToolCallContent[] | undefined {
  return content?.map((item) => (item.type === 'diff' ? v2Diff(item) : (item as v2.ToolCallContent)));
}

/** A v1 tool call or tool call update as v2's one upsert. */
export function v2ToolCall(call: Omit<acp.ToolCallUpdate, 'sessionUpdate'>): v2.ToolCallUpdate {
  const { content, ...rest } = withoutNulls(call);
  const items = v2ToolContent(content);
  return { ...(rest as v2.ToolCallUpdate), ...(items ? { content: items } : {}) };
}

/** A v1 config option as v2's (`configId` for `id`). */
export function v2ConfigOption(option: acp.SessionConfigOption): v2.SessionConfigOption {
  const { id, ...rest } = option as acp.SessionConfigOption & { id: string };
  return { ...rest, configId: id } as unknown as v2.SessionConfigOption;
}

/** A session update as it goes on the v2 wire; undefined for what v2 does not have (modes). */
export function v2Update(update: acp.SessionUpdate, ids: MessageIds): v2.SessionUpdate | undefined {
  if (verbatimUpdates.has(update)) return update as unknown as v2.SessionUpdate;
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
      return { ...update, messageId: update.messageId ?? ids.agent } as v2.SessionUpdate;
    case 'agent_thought_chunk':
      return { ...update, messageId: update.messageId ?? ids.thought } as v2.SessionUpdate;
    case 'user_message_chunk':
      return undefined; // v2 echoes a prompt whole (user_message), sent by the prompt handler
    case 'tool_call':
    case 'tool_call_update': {
      const { sessionUpdate: _kind, ...call } = update;
      return { sessionUpdate: 'tool_call_update', ...v2ToolCall(call) };
    }
    case 'plan':
      return { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'plan', entries: update.entries } };
    case 'config_option_update':
      return { sessionUpdate: 'config_option_update', configOptions: update.configOptions.map(v2ConfigOption) };
    case 'current_mode_update':
      return undefined;
    default:
      return update as unknown as v2.SessionUpdate;
  }
}

/** A v1 permission request as v2's: a title, and the tool call as its subject. */
export function v2Permission(params: acp.RequestPermissionRequest): v2.RequestPermissionRequest {
  const { toolCall, ...rest } = params;
  return {
    ...rest,
    title: toolCall.title ?? 'Permission',
    subject: { type: 'tool_call', toolCall: v2ToolCall(toolCall) },
  };
}

/** The scenario's initialize answer on v2: `info`, capabilities regrouped under `session`, auth methods by `methodId`. */
export function v2InitializeResponse(scenario: Scenario): v2.InitializeResponse {
  const caps = scenario.agentCapabilities;
  const session = caps.sessionCapabilities;
  const present = (value: unknown) => (value ? {} : undefined);
  return {
    protocolVersion: 2,
    info: scenario.agentInfo,
    capabilities: {
      session: withoutNulls({
        prompt: withoutNulls({
          image: present(caps.promptCapabilities?.image),
          audio: present(caps.promptCapabilities?.audio),
          embeddedContext: present(caps.promptCapabilities?.embeddedContext),
        }),
        mcp: withoutNulls({ stdio: {}, http: present(caps.mcpCapabilities?.http) }),
        delete: present(session?.delete),
        additionalDirectories: present(session?.additionalDirectories),
      }),
    },
    // auth/login and auth/logout are advertised by a non-empty list (v2 has no logout capability).
    authMethods: scenario.authMethods.map((method) => {
      const { id, type, env, ...rest } = method as acp.AuthMethod & {
        id: string;
        type?: string;
        env?: Record<string, string> | { name: string; value: string }[];
      };
      const vars = Array.isArray(env) ? env : env && Object.entries(env).map(([name, value]) => ({ name, value }));
      return {
        ...rest,
        methodId: id,
        type: type === 'terminal' ? 'terminal' : 'agent',
        ...(vars ? { env: vars } : {}),
      } as v2.AuthMethod;
    }),
  };
}
