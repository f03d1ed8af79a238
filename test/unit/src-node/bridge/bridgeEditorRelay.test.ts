/**
 * The bridge serves the browser's editor server to its agent (issue 48): a session's server with the relay's mark
 * reaches the agent as an HTTP server on 127.0.0.1 (its token in a header), each call the agent makes comes to the
 * browser as a request over the WebSocket, and the browser's answer goes back to the agent. Real sockets, the real
 * bridge in-process, the scripted agent as a real process.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import WebSocket from 'ws';
import { startBridge, type RunningBridge } from '../../../../src-node/bridge/bridgeServer';
import { EDITOR_CALL_METHOD, EDITOR_RELAY_META, readBridgeAnnouncement } from '../../../../src/shared/bridgeProtocol';
import { ORIGIN, agentJs, initialize, loopbackBridge } from './bridgeClient';

const relayed = (groups: string[]) => ({
  type: 'acp',
  name: 'vscode-editor',
  serverId: 'browser-editor-1',
  _meta: { [EDITOR_RELAY_META]: { groups, version: '9.9.9' } },
});
const session = (servers: unknown[]) =>
  JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/tmp', mcpServers: servers } });
const prompt = JSON.stringify({
  jsonrpc: '2.0',
  id: 3,
  method: 'session/prompt',
  params: { sessionId: 'sess-1', prompt: [{ type: 'text', text: 'ask' }] },
});

/** The agent's texts of a session, and the bridge's requests to the browser, until the prompt's answer. */
async function conversation(url: string, servers: unknown[], answer: (params: unknown) => unknown) {
  const ws = new WebSocket(url, { origin: ORIGIN });
  const texts: string[] = [];
  const calls: unknown[] = [];
  let announced: unknown;
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => ws.send(initialize));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as {
        id?: unknown;
        method?: string;
        params?: { update?: { content?: { text?: string } } };
        result?: unknown;
      };
      if (m.id === 1) {
        announced = m.result;
        ws.send(session(servers));
      } else if (m.id === 2) ws.send(prompt);
      else if (m.id === 3) resolve();
      else if (m.method === EDITOR_CALL_METHOD) {
        calls.push(m.params);
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: answer(m.params) }));
      } else if (m.method === 'session/update') texts.push(m.params?.update?.content?.text ?? '');
    });
    ws.on('error', reject);
  });
  ws.close(1000);
  return { texts: texts.join(''), calls, announced };
}

describe('bridge: the editor server relayed to the browser (real sockets, real agent process)', function () {
  this.timeout(20_000);
  let bridge: RunningBridge;
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-relay-'));
    const scenario = (http: boolean) => {
      const file = path.join(tmp, `relay-${http}.json`);
      fs.writeFileSync(
        file,
        JSON.stringify({
          agentCapabilities: { mcpCapabilities: { http } },
          turns: [
            {
              match: 'ask',
              steps: [
                { reportMcp: true },
                { mcpCall: { tool: 'problems', arguments: { path: 'src/a.ts' } } },
                { mcpCall: { tool: 'hover', arguments: { path: 'src/a.ts', line: 1, character: 1 } } },
              ],
            },
          ],
        }),
      );
      return file;
    };
    bridge = await startBridge(
      loopbackBridge(
        [
          { id: 'http', name: 'HTTP Agent', command: process.execPath, args: [agentJs, scenario(true)] },
          { id: 'nohttp', name: 'No HTTP Agent', command: process.execPath, args: [agentJs, scenario(false)] },
        ],
        { cwd: tmp },
      ),
      () => undefined,
    );
  });
  after(async () => {
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("gives the agent an HTTP server in the mark's place, and relays each call to the browser and its answer back", async () => {
    const url = `${bridge.url}&agent=http`;
    const { texts, calls, announced } = await conversation(url, [relayed(['problems'])], (params) => {
      const { tool } = params as { tool: string };
      return tool === 'problems' ? { text: '1 problem in src/a.ts' } : { text: 'refused', isError: true };
    });
    assert.equal(readBridgeAnnouncement(announced)?.editorRelay, 1);
    // The agent sees an HTTP server on loopback with a token in a header: no mark, no server id.
    assert.match(
      texts,
      /\[mcp: \[\{"type":"http","name":"vscode-editor","url":"http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}","headers":\["Authorization=[0-9a-f]{12}"\]\}\]\]/,
    );
    assert.doesNotMatch(texts, /browser-editor-1|editorRelay/);
    assert.match(texts, /\[mcp problems: 1 problem in src\/a\.ts\]/);
    // A tool of a group the browser left out is not served: the library refuses it, the browser is not asked.
    assert.match(texts, /\[mcp hover: error|\[mcp hover refused: [^\]]*hover/);
    assert.deepEqual(calls, [{ serverId: 'browser-editor-1', tool: 'problems', arguments: { path: 'src/a.ts' } }]);
  });

  it('gives an agent that takes no MCP over HTTP nothing in its place', async () => {
    const url = `${bridge.url}&agent=nohttp`;
    const { texts, calls } = await conversation(
      url,
      [relayed(['problems']), { name: 'mine', command: 'x', args: [], env: [] }],
      () => ({ text: 'x' }),
    );
    assert.match(texts, /\[mcp: \[\{"name":"mine","command":"x","args":\[\],"env":\[\]\}\]\]/);
    assert.match(texts, /\[mcp problems: no server vscode-editor\]/);
    assert.deepEqual(calls, []);
  });
});
