// The scripted agent on the ACP v2 draft (SDK experimental/v2): the same ScriptedAgent and steps, its v1-shaped
// client calls translated as Claude Code's adapter translates its v1 core (v2Shapes.ts). A prompt is answered as
// soon as it is taken (its echo first, as Claude's adapter does), then the turn runs: `running`, the steps,
// `requires_action` while a permission is asked, and `idle` with the stop reason (`error` with the error when a
// step fails). `after` steps arrive once idle: updates outside a turn. No client fs or terminal on v2.
import * as acp from '@agentclientprotocol/sdk';
import * as v2 from '@agentclientprotocol/sdk/experimental/v2';
import type { ScriptedAgent } from './agent';
import type { Scenario } from './scenario';
import { v2ConfigOption, v2InitializeResponse, v2Permission, v2Update, type MessageIds } from './v2Shapes';

/** The v1 AgentContext calls the steps make, on a v2 connection. */
class V2Client {
  constructor(
    private readonly wire: v2.AgentContext,
    private readonly ids: (sessionId: string) => MessageIds,
  ) {}

  async notify(method: string, params: unknown): Promise<void> {
    if (method !== 'session/update') return this.wire.notify(method as `_${string}`, params);
    const { sessionId, update } = params as acp.SessionNotification;
    const translated = v2Update(update, this.ids(sessionId));
    if (translated) await this.wire.notify('session/update', { sessionId, update: translated });
  }

  async request(method: string, params: unknown, options?: v2.SendRequestOptions): Promise<unknown> {
    if (method === 'session/request_permission') {
      const request = params as acp.RequestPermissionRequest;
      await this.state(request.sessionId, { state: 'requires_action' });
      try {
        return await this.wire.request('session/request_permission', v2Permission(request), options);
      } finally {
        await this.state(request.sessionId, { state: 'running' });
      }
    }
    if (method.startsWith('fs/') || method.startsWith('terminal/')) throw notOnV2(method);
    return this.wire.request(method as `_${string}`, params, options);
  }

  createTerminal(): Promise<never> {
    return Promise.reject(notOnV2('terminal/create'));
  }

  state(sessionId: string, update: v2.StateUpdate): Promise<void> {
    return this.wire.notify('session/update', { sessionId, update: { sessionUpdate: 'state_update', ...update } });
  }
}

function notOnV2(method: string): acp.RequestError {
  return acp.RequestError.methodNotFound(`${method} (not on ACP v2: an agent reads, writes and runs commands itself)`);
}

/** A v2 request's context as the ScriptedAgent's v1 handlers take it. */
function asV1<P>(c: v2.AgentRequestContext<unknown>, params: P, client: V2Client): acp.AgentRequestContext<P> {
  return {
    method: c.method,
    params,
    signal: c.signal,
    requestId: c.requestId,
    client,
  } as unknown as acp.AgentRequestContext<P>;
}

function v2Options(options: acp.SessionConfigOption[] | undefined): v2.SessionConfigOption[] | undefined {
  return options?.map(v2ConfigOption);
}

/** The scripted agent's ACP v2 app. */
export function v2App(agent: ScriptedAgent, scenario: Scenario): v2.AgentApp {
  /** Per session: the prompts taken so far, the ids of this turn's messages, and what cancels it. */
  const turns = new Map<string, { count: number; ids: MessageIds; cancel: AbortController }>();
  const idsOf = (sessionId: string): MessageIds =>
    turns.get(sessionId)?.ids ?? { agent: `${sessionId}/a0`, thought: `${sessionId}/t0` };
  let client: V2Client | undefined;
  const clientOf = (c: { client: v2.AgentContext }) => (client ??= new V2Client(c.client, idsOf));

  /** The turn after its prompt was answered: running, the steps, idle with how it ended. */
  async function run(c: v2.AgentRequestContext<v2.PromptRequest>, wire: V2Client): Promise<void> {
    const { sessionId } = c.params;
    await wire.state(sessionId, { state: 'running' });
    let idle: v2.StateUpdate;
    try {
      // The request is answered: only session/cancel stops this turn now (also one that came before it started).
      const params = { sessionId, prompt: c.params.prompt as acp.ContentBlock[] };
      const signal = turns.get(sessionId)!.cancel.signal;
      const { stopReason } = await agent.prompt({ ...asV1(c, params, wire), signal });
      idle = { state: 'idle', stopReason } as v2.StateUpdate;
    } catch (error) {
      const { code, message } = error instanceof acp.RequestError ? error : { code: -32603, message: String(error) };
      idle = { state: 'idle', stopReason: 'error', error: { code, message } };
    }
    await wire.state(sessionId, idle);
  }

  /** A resumed session's history, as v2 replays it: each prompt one user message, each turn's chunks one message. */
  async function replay(sessionId: string, wire: v2.AgentContext): Promise<void> {
    let turn = 0;
    let user: acp.ContentBlock[] | undefined;
    const flush = async () => {
      if (!user) return;
      const update = { sessionUpdate: 'user_message', messageId: `${sessionId}/u${turn}`, content: user } as const;
      await wire.notify('session/update', { sessionId, update: update as v2.SessionUpdate });
      user = undefined;
    };
    for (const update of agent.historyOf(sessionId)) {
      if (update.sessionUpdate === 'user_message_chunk') {
        if (!user) turn += 1;
        (user ??= []).push(update.content);
        continue;
      }
      await flush();
      const translated = v2Update(update, { agent: `${sessionId}/a${turn}`, thought: `${sessionId}/t${turn}` });
      if (translated) await wire.notify('session/update', { sessionId, update: translated });
    }
    await flush();
  }

  return v2
    .agent({ name: 'test-agent' })
    .onRequest('initialize', async (c) => {
      const wire = clientOf(c);
      const params = { protocolVersion: c.params.protocolVersion, clientCapabilities: c.params.capabilities ?? {} };
      await agent.initialize(asV1(c, params as acp.InitializeRequest, wire));
      return v2InitializeResponse(scenario);
    })
    .onRequest('auth/login', (c) => agent.authenticate(asV1(c, c.params, clientOf(c))))
    .onRequest('auth/logout', () => agent.logout())
    .onRequest('session/new', async (c) => {
      const params = { ...c.params, mcpServers: (c.params.mcpServers ?? []) as acp.McpServer[] };
      const { sessionId, configOptions } = await agent.newSession(asV1(c, params, clientOf(c)));
      return { sessionId, ...(configOptions ? { configOptions: v2Options(configOptions) } : {}) };
    })
    .onRequest('session/resume', async (c) => {
      const { replayFrom, ...rest } = c.params;
      const params = { ...rest, mcpServers: (rest.mcpServers ?? []) as acp.McpServer[] };
      const { configOptions } = agent.resumeSession(asV1(c, params, clientOf(c)), true);
      if (replayFrom?.type === 'start') await replay(c.params.sessionId, c.client);
      // Every resume ends with the session's state, before its answer.
      await clientOf(c).state(c.params.sessionId, { state: 'idle' });
      return configOptions ? { configOptions: v2Options(configOptions) } : {};
    })
    .onRequest('session/set_config_option', (c) => {
      const { sessionId, configId, value } = c.params;
      const params = { sessionId, configId, value } as acp.SetSessionConfigOptionRequest;
      const { configOptions } = agent.setConfigOption(asV1(c, params, clientOf(c)));
      return { configOptions: v2Options(configOptions) ?? [] };
    })
    .onRequest('session/list', (c) => agent.listSessions(asV1(c, c.params, clientOf(c))))
    .onRequest('session/delete', (c) => agent.deleteSession(asV1(c, c.params, clientOf(c))))
    .onRequest('session/close', (c) => agent.closeSession(asV1(c, c.params, clientOf(c))))
    .onRequest('session/prompt', async (c) => {
      const { sessionId, prompt } = c.params;
      agent.historyOf(sessionId); // an unknown session is refused here, not in the turn
      const count = (turns.get(sessionId)?.count ?? 0) + 1;
      const ids = { agent: `${sessionId}/a${count}`, thought: `${sessionId}/t${count}` };
      turns.set(sessionId, { count, ids, cancel: new AbortController() });
      const messageId = `${sessionId}/u${count}`;
      const echo = { sessionUpdate: 'user_message', messageId, content: prompt } as const;
      await c.client.notify('session/update', { sessionId, update: echo as v2.SessionUpdate });
      // After this answer is written (a timer runs after the SDK sends it).
      setTimeout(() => void run(c, clientOf(c)), 0);
      return { messageId };
    })
    .onNotification('session/cancel', (c) => {
      turns.get(c.params.sessionId)?.cancel.abort();
      agent.cancel(c.params);
    });
}
