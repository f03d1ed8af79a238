import * as assert from 'node:assert/strict';
import type { AnyMessage } from '@agentclientprotocol/sdk';
import { Correlation, messageRecord } from '../../../../src/diagnostics/messageRecord';

const C = 'CANARY-secret';
const messages: [dir: 'out' | 'in', message: unknown][] = [
  [
    'out',
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: 1, clientCapabilities: { _meta: { x: C } } },
    },
  ],
  [
    'in',
    {
      jsonrpc: '2.0',
      id: 0,
      result: { protocolVersion: 1, authMethods: [{ id: C, name: C }], agentInfo: { name: C } },
    },
  ],
  [
    'out',
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'session/new',
      params: {
        cwd: `/home/${C}`,
        mcpServers: [
          { name: C, command: `/${C}`, args: [C], env: [{ name: C, value: C }] },
          { type: 'http', name: C, url: `https://${C}`, headers: [{ name: 'A', value: C }] },
        ],
      },
    },
  ],
  ['in', { jsonrpc: '2.0', id: 1, result: { sessionId: C } }],
  [
    'out',
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'session/prompt',
      params: {
        sessionId: C,
        prompt: [{ type: 'text', text: C }, { type: 'image', data: C, mimeType: C }, { type: C }],
      },
    },
  ],
  [
    'in',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: C, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: C } } },
    },
  ],
  [
    'in',
    {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: C, update: { sessionUpdate: C, content: { type: C } } },
    },
  ],
  [
    'in',
    {
      jsonrpc: '2.0',
      id: C,
      method: 'session/request_permission',
      params: { sessionId: C, toolCall: { title: C }, options: [{ optionId: C, name: C, kind: 'allow_once' }] },
    },
  ],
  ['out', { jsonrpc: '2.0', id: C, result: { outcome: { outcome: 'selected', optionId: C } } }],
  ['in', { jsonrpc: '2.0', id: 'r', method: 'fs/read_text_file', params: { sessionId: C, path: `/${C}` } }],
  ['out', { jsonrpc: '2.0', id: 'r', result: { content: C } }],
  [
    'in',
    { jsonrpc: '2.0', id: 'w', method: 'fs/write_text_file', params: { sessionId: C, path: `/${C}`, content: C } },
  ],
  [
    'in',
    {
      jsonrpc: '2.0',
      id: 't',
      method: 'terminal/create',
      params: { sessionId: C, command: C, args: [C], env: [{ name: C, value: C }], cwd: C },
    },
  ],
  ['out', { jsonrpc: '2.0', id: 't', error: { code: -32602, message: C, data: { x: C } } }],
  ['in', { jsonrpc: '2.0', id: 'u', method: 'craft/drainMidTurnQueue', params: { x: C } }],
  ['in', { jsonrpc: '2.0', method: `_qwencode/end turn\n${'x'.repeat(100)}`, params: { x: C } }],
  ['in', { jsonrpc: '2.0', id: 77, result: { x: C } }],
  ['in', { garbage: C }],
  ['in', { jsonrpc: '2.0', id: 2, result: { stopReason: 'end_turn', _meta: { x: C } } }],
];

describe('diagnostics records', () => {
  const out = new Correlation();
  const inc = new Correlation();
  let now = 1000;
  const records = messages.map(([dir, m]) =>
    messageRecord(dir, m as AnyMessage, dir === 'out' ? out : inc, dir === 'out' ? inc : out, (now += 5)),
  );

  it('carry structure only: no text, value, path, name or id that a message held (a method is named, bounded)', () => {
    for (const r of records) assert.ok(!JSON.stringify(r).includes('CANARY'), JSON.stringify(r));
  });

  it('name known methods, correlate requests and responses with numbers of ours, time them', () => {
    assert.deepEqual(
      records.map(
        (r) => `${r.dir} ${r.kind} ${r.method}${r.seq ? ` #${r.seq}` : ''}${r.outcome ? ` ${r.outcome}` : ''}`,
      ),
      [
        'out request initialize #1',
        'in response initialize #1 ok',
        'out request session/new #2',
        'in response session/new #2 ok',
        'out request session/prompt #3',
        'in notification session/update',
        'in notification session/update',
        'in request session/request_permission #1',
        'out response session/request_permission #1 ok',
        'in request fs/read_text_file #2',
        'out response fs/read_text_file #2 ok',
        'in request fs/write_text_file #3',
        'in request terminal/create #4',
        'out response terminal/create #4 error',
        'in request craft/drainMidTurnQueue #5',
        `in notification _qwencode/end?turn?${'x'.repeat(45)}…`,
        'in response (unknown) ok',
        'in invalid (unknown)',
        'in response session/prompt #3 ok',
      ],
    );
    assert.equal(records[1].ms, 5);
    assert.equal(records.at(-1)!.ms, 70);
    assert.equal(records[13].code, -32602);
  });

  it('sum up with counts, sizes and protocol kinds', () => {
    assert.deepEqual(records[2].meta, { mcpServers: 2, mcpRemote: 1 });
    assert.deepEqual(records[4].meta, { blocks: 3, text: 1, image: 1, other: 1 });
    assert.deepEqual(records[5].meta, { update: 'agent_message_chunk', content: 'text' });
    assert.deepEqual(records[6].meta, { update: 'other', content: 'other' });
    assert.deepEqual(records[10].meta, { chars: C.length });
    assert.deepEqual(records[12].meta, { args: 1, env: 1 });
    assert.equal(records[14].meta, undefined, 'an unknown method shows no payload metadata');
    assert.deepEqual(records.at(-1)!.meta, { stopReason: 'end_turn' });
    assert.ok(records.every((r) => r.bytes > 0));
  });

  it('name every update kind the SDK knows, the newer ones too', () => {
    for (const kind of ['notice', 'compaction_update', 'compaction_summary_chunk', 'usage_update']) {
      const r = messageRecord(
        'in',
        {
          jsonrpc: '2.0',
          method: 'session/update',
          params: { sessionId: C, update: { sessionUpdate: kind } },
        } as AnyMessage,
        inc,
        out,
        now,
      );
      assert.deepEqual(r.meta, { update: kind });
    }
  });
});
