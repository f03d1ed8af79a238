/**
 * The v2 wire's turn ends in the orders and shapes an agent may send them that the scripted agent does not: the
 * idle before the prompt's answer, a state snapshot that is not the end, a held prompt cancelled, an error stop,
 * stop reasons v1 lacks, and hostile shapes (not an object, no id). What goes in is what an agent writes; what
 * comes out is what the SDK's v1 client reads.
 */
import * as assert from 'node:assert/strict';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { V2Wire } from '../../../../src/connection/v2/wire';

/** Writes `messages` into one side of the wire; what comes out of the other. */
async function pass(stream: TransformStream<AnyMessage, AnyMessage>, messages: object[]): Promise<unknown[]> {
  const out: unknown[] = [];
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
  })();
  const writer = stream.writable.getWriter();
  for (const m of messages) await writer.write(m as AnyMessage);
  await writer.close();
  await reading;
  return out;
}

/** Sends the client's messages through the wire, then the agent's; what reaches each. */
async function through(toAgent: object[], fromAgent: object[]): Promise<{ sent: unknown[]; received: unknown[] }> {
  const wire = new V2Wire();
  const sent = await pass(wire.outgoing, toAgent);
  return { sent, received: await pass(wire.incoming, fromAgent) };
}

const prompt = { jsonrpc: '2.0', id: 5, method: 'session/prompt', params: { sessionId: 's', prompt: [] } };
const state = (update: object) => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: { sessionId: 's', update: { sessionUpdate: 'state_update', ...update } },
});
const taken = { jsonrpc: '2.0', id: 5, result: { messageId: 'u1' } };

describe('the ACP v2 wire: turn ends', () => {
  const ends: [string, object[], string][] = [
    [
      'held until idle, it is the stop reason',
      [taken, state({ state: 'running' }), state({ state: 'idle', stopReason: 'max_tokens' })],
      'max_tokens',
    ],
    [
      'an idle before the answer ends the turn once the answer comes',
      [state({ state: 'running' }), state({ state: 'idle', stopReason: 'end_turn' }), taken],
      'end_turn',
    ],
    [
      'a stop reason v1 lacks is the end of the turn',
      [taken, state({ state: 'running' }), state({ state: 'idle', stopReason: '_vendor_paused' })],
      'end_turn',
    ],
  ];
  for (const [what, fromAgent, stopReason] of ends) {
    it(`the prompt's answer: ${what}`, async () => {
      const { received } = await through([prompt], fromAgent);
      assert.deepEqual(received, [{ jsonrpc: '2.0', id: 5, result: { stopReason } }]);
    });
  }

  it('a snapshot of idle before the agent worked is not the end; nor a running after it', async () => {
    const { received } = await through(
      [prompt],
      [state({ state: 'idle' }), taken, state({ state: 'idle' }), state({ state: 'requires_action' })],
    );
    assert.deepEqual(received, [], 'still running');
  });

  it('a held prompt answered "cancelled" (-32800) ends as cancelled; an error stop is the error', async () => {
    const cancelled = await through([prompt], [{ jsonrpc: '2.0', id: 5, error: { code: -32800, message: 'x' } }]);
    assert.deepEqual(cancelled.received, [{ jsonrpc: '2.0', id: 5, result: { stopReason: 'cancelled' } }]);
    const failed = await through(
      [prompt],
      [
        taken,
        state({ state: 'running' }),
        state({ state: 'idle', stopReason: 'error', error: { code: -32000, message: 'Sign in' } }),
      ],
    );
    assert.deepEqual(failed.received, [{ jsonrpc: '2.0', id: 5, error: { code: -32000, message: 'Sign in' } }]);
    const vague = await through(
      [prompt],
      [taken, state({ state: 'running' }), state({ state: 'idle', stopReason: 'error', error: 'x' })],
    );
    assert.deepEqual(vague.received, [
      { jsonrpc: '2.0', id: 5, error: { code: -32603, message: 'The agent ended the turn with an error.' } },
    ]);
  });

  it('hostile messages pass to the SDK (which refuses them) or are dropped; they end no turn', async () => {
    const { received } = await through(
      [prompt],
      [
        taken,
        state({ state: 'running' }),
        { jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's', update: 'idle' } },
        {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: 7, update: { sessionUpdate: 'state_update', state: 'idle' } },
        },
        {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: 's', update: { sessionUpdate: 'tool_call_update' } },
        },
        {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: 's', update: { sessionUpdate: 'agent_message', messageId: 3 } },
        },
        { jsonrpc: '2.0', id: 'nobody', result: { messageId: 'u9' } },
      ],
    );
    assert.equal(received.length, 3, JSON.stringify(received));
    assert.ok(
      received.every((m) => (m as { id?: unknown }).id !== 5),
      'the turn goes on',
    );
  });
});

describe('the ACP v2 wire: requests and answers', () => {
  it('initialize asks for version 2; a v1 answer passes as it is, a v2 answer in v1 shape', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: true },
          terminal: true,
          auth: { terminal: true },
          elicitation: { form: {} },
        },
        clientInfo: { name: 'c', version: '1' },
      },
    };
    const v1Answer = { jsonrpc: '2.0', id: 0, result: { protocolVersion: 1, agentCapabilities: {} } };
    const v1 = await through([init], [v1Answer]);
    assert.deepEqual((v1.sent[0] as { params: unknown }).params, {
      protocolVersion: 2,
      info: { name: 'c', version: '1' },
      capabilities: { auth: { terminal: {} }, elicitation: { form: {} } },
    });
    assert.deepEqual(v1.received, [v1Answer]);
    const v2 = await through(
      [init],
      [
        {
          jsonrpc: '2.0',
          id: 0,
          result: {
            protocolVersion: 2,
            info: { name: 'a', version: '2' },
            capabilities: { session: { prompt: { image: {} }, mcp: { http: {} }, additionalDirectories: {} } },
            authMethods: [{ type: 'agent', methodId: 'login', name: 'Log in' }],
          },
        },
      ],
    );
    const result = (v2.received[0] as { result: Record<string, unknown> }).result;
    assert.deepEqual(result.agentInfo, { name: 'a', version: '2' });
    assert.deepEqual(result.authMethods, [{ type: 'agent', id: 'login', name: 'Log in' }]);
    const caps = result.agentCapabilities as Record<string, unknown>;
    assert.equal(caps.loadSession, true);
    assert.deepEqual(caps.promptCapabilities, { image: true, audio: false, embeddedContext: false });
    assert.deepEqual(caps.sessionCapabilities, { resume: {}, close: {}, list: {}, additionalDirectories: {} });
  });

  it('load is a resume that replays; config options and MCP servers typed; sign-in is auth/login', async () => {
    const { sent, received } = await through(
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'session/load',
          params: {
            sessionId: 's',
            cwd: '/w',
            mcpServers: [
              { name: 'm', command: '/bin/m', args: [], env: [] },
              { type: 'sse', name: 'old', url: 'http://x', headers: [] },
            ],
          },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'session/set_config_option',
          params: { sessionId: 's', configId: 'model', value: 'fast' },
        },
        { jsonrpc: '2.0', id: 3, method: 'authenticate', params: { methodId: 'login' } },
      ],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            configOptions: [{ configId: 'model', type: 'select', name: 'Model', currentValue: 'x', options: [] }],
            availableCommands: [
              { type: 'command', name: 'init', description: 'Init' },
              { type: '_x', name: 'y', description: 'z' },
            ],
          },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          result: {
            configOptions: [
              { configId: 'model', type: 'select', name: 'Model', currentValue: 'fast', options: [] },
              { name: 'no id' },
            ],
          },
        },
      ],
    );
    assert.deepEqual(sent[0], {
      jsonrpc: '2.0',
      id: 1,
      method: 'session/resume',
      params: {
        sessionId: 's',
        cwd: '/w',
        mcpServers: [{ type: 'stdio', name: 'm', command: '/bin/m', args: [], env: [] }],
        replayFrom: { type: 'start' },
      },
    });
    assert.deepEqual((sent[1] as { params: unknown }).params, {
      type: 'id',
      sessionId: 's',
      configId: 'model',
      value: 'fast',
    });
    assert.equal((sent[2] as { method: string }).method, 'auth/login');
    assert.deepEqual(received, [
      {
        jsonrpc: '2.0',
        method: 'session/update',
        params: {
          sessionId: 's',
          update: {
            sessionUpdate: 'available_commands_update',
            availableCommands: [{ name: 'init', description: 'Init' }],
          },
        },
      },
      {
        jsonrpc: '2.0',
        id: 1,
        result: { configOptions: [{ id: 'model', type: 'select', name: 'Model', currentValue: 'x', options: [] }] },
      },
      {
        jsonrpc: '2.0',
        id: 2,
        result: { configOptions: [{ id: 'model', type: 'select', name: 'Model', currentValue: 'fast', options: [] }] },
      },
    ]);
  });

  it('a permission request without a tool call is about one of its title, under an id of its own', async () => {
    const ask = (id: number, params: object) => ({ jsonrpc: '2.0', id, method: 'session/request_permission', params });
    const options = [{ optionId: 'ok', name: 'OK', kind: 'allow_once' }];
    const { received } = await through(
      [],
      [
        ask(1, { sessionId: 's', title: 'Run rm', options }),
        ask(2, {
          sessionId: 's',
          title: 'Edit',
          subject: { type: 'tool_call', toolCall: { toolCallId: 't1', kind: null, status: 'paused' } },
          options,
        }),
      ],
    );
    assert.deepEqual(
      received.map((m) => (m as { params: { toolCall: unknown } }).params.toolCall),
      [
        { title: 'Run rm', toolCallId: 'permission-1' },
        { status: 'pending', title: 'Edit', toolCallId: 't1' },
      ],
    );
  });
});
