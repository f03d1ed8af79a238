/**
 * The editor server as a chat's session gets it: the chat core against the scripted agent over the real wire, the
 * host's loopback endpoint (the Node host's own), and a fixture editor in place of VS Code's answers.
 */
import * as assert from 'node:assert/strict';
import { fixtureEditor } from './fixtureEditor';
import { scriptedHost, shown, until, type ScriptedHost } from '../chat/scriptedHost';
import type { Chat } from '../../../../src/chat/chat';
import { editorServerReport } from '../../../../src/session/sessionEditor';

const ROOT = 'file:///scripted/workspace';
const takesHttp = { agentCapabilities: { mcpCapabilities: { http: true } } };
const calls = {
  match: 'ask',
  steps: [
    { reportMcp: true },
    { mcpCall: { tool: 'problems', arguments: { path: 'src/a.ts' } } },
    { mcpCall: { tool: 'definition', arguments: { path: 'src/a.ts', line: 5, character: 3 } } },
    { mcpCall: { tool: 'problems', arguments: { path: '/etc/passwd' } } },
    { mcpCall: { tool: 'problems', omitHeaders: true } },
  ],
};

/** The url of the editor server the agent was given, as it reported it (`reportMcp`). */
function editorUrl(chat: Chat): string | undefined {
  return /"name":"vscode-editor","url":"([^"]+)"/.exec(shown(chat))?.[1];
}

describe('The editor server in a session', () => {
  let host: ScriptedHost | undefined;
  afterEach(async () => {
    await host?.dispose();
    host = undefined;
  });

  it('is given to an agent that takes MCP over HTTP, answers its calls about the folders only, and only with its token', async () => {
    host = scriptedHost({ ...takesHttp, turns: [calls] }, { trusted: true, editor: fixtureEditor(ROOT) });
    const chat = await host.connectedChat();
    await chat.composer.send('ask');
    await until('the calls', () => shown(chat).includes('[mcp problems: HTTP'));
    const text = shown(chat);
    assert.match(
      text,
      /\[mcp: \[\{"type":"http","name":"vscode-editor","url":"http:\/\/127\.0\.0\.1:\d+\/mcp\/[0-9a-f]{32}"/,
    );
    assert.match(
      text,
      /\[mcp problems: 1 problem in src\/a\.ts \(1 error\):\nsrc\/a\.ts:3:7: error 2322: Type 'string'/,
    );
    assert.match(text, /\[mcp definition: src\/a\.ts:1:14\nsrc\/b\.ts:5:3\n\(outside the workspace folders\)\]/);
    assert.match(
      text,
      /\[mcp problems refused: "\/etc\/passwd" cannot be read: it is outside the workspace folders\.\]/,
    );
    assert.match(text, /\[mcp problems: HTTP 401\]/);
    // Under the answer: each call the server took, by what it was about (never the agent's path), opening its place.
    await until('the turn to end', () => chat.thread.turn === 'idle');
    assert.match(
      shown(chat),
      /\[mcp problems: HTTP 401\]\n\n\*\*Asked VS Code\*\*\n- problems in src\/a\.ts: 1 \(1 error\)\n- definition at src\/a\.ts:5:3: src\/a\.ts:1:14\n- problems: not answered\n$/,
    );
    const listed = chat.thread.entries.at(-1);
    assert.ok(listed?.kind === 'editorCalls');
    assert.deepEqual(
      listed.calls.map((c) => [c.path, c.line, c.refused]),
      [
        ['/scripted/workspace/src/a.ts', 3, undefined],
        ['/scripted/workspace/src/a.ts', 1, undefined],
        [undefined, undefined, true],
      ],
    );
  });

  it('is served over the ACP connection to an agent that takes MCP-over-ACP, and no port is opened', async () => {
    const takesAcp = { agentCapabilities: { mcpCapabilities: { acp: true, http: true } } };
    host = scriptedHost({ ...takesAcp, turns: [calls] }, { trusted: true, editor: fixtureEditor(ROOT) });
    const chat = await host.connectedChat();
    await chat.composer.send('ask');
    await until('the turn to end', () => chat.thread.turn === 'idle' && shown(chat).includes('Asked VS Code'));
    const text = shown(chat);
    assert.match(text, /\[mcp: \[\{"type":"acp","name":"vscode-editor","serverId":"[^"]+"\}\]\]/);
    assert.doesNotMatch(text, /127\.0\.0\.1/);
    assert.match(text, /\[mcp over ACP problems: 1 problem in src\/a\.ts \(1 error\):\nsrc\/a\.ts:3:7: error 2322/);
    assert.match(
      text,
      /\[mcp over ACP problems refused: "\/etc\/passwd" cannot be read: it is outside the workspace folders\.\]/,
    );
    assert.match(
      text,
      /\*\*Asked VS Code\*\*\n- problems in src\/a\.ts: 1 \(1 error\)\n- definition at src\/a\.ts:5:3/,
    );
  });

  it('is closed with the session: its port no longer answers', async () => {
    host = scriptedHost(
      { ...takesHttp, turns: [{ steps: [{ reportMcp: true }] }] },
      { trusted: true, editor: fixtureEditor(ROOT) },
    );
    const chat = await host.connectedChat();
    await chat.composer.send('hi');
    await until('the answer', () => editorUrl(chat) !== undefined);
    const url = editorUrl(chat)!;
    assert.equal((await fetch(url, { method: 'POST' })).status, 401);
    await chat.disconnect();
    await assert.rejects(fetch(url, { method: 'POST' }), /fetch failed/);
  });

  it('is not given to an agent that takes no MCP over HTTP, and the chat says why once', async () => {
    host = scriptedHost({ turns: [{ steps: [{ reportMcp: true }] }] }, { trusted: true, editor: fixtureEditor(ROOT) });
    const chat = await host.connectedChat();
    await chat.composer.send('hi');
    await until('the answer', () => shown(chat).includes('[mcp: '));
    assert.match(shown(chat), /\[mcp: \[\]\]/);
    assert.equal(shown(chat).split('takes no MCP server over HTTP').length, 2);
  });

  it('is not given when the user turned every tool group off, nor on a host that does not serve it', async () => {
    for (const options of [{ editor: fixtureEditor(ROOT), editorGroups: [] }, {}]) {
      host = scriptedHost({ ...takesHttp, turns: [{ steps: [{ reportMcp: true }] }] }, { trusted: true, ...options });
      const chat = await host.connectedChat();
      await chat.composer.send('hi');
      await until('the answer', () => shown(chat).includes('[mcp: '));
      assert.match(shown(chat), /\[mcp: \[\]\]/);
      assert.doesNotMatch(shown(chat), /MCP server over HTTP/);
      await host.dispose();
      host = undefined;
    }
  });
});

describe('The editor server in ACP: Show MCP Servers', () => {
  // The Node host serves both.
  const node = {
    editorEndpoint: async () => ({ url: '', headers: [], dispose: () => undefined }),
    editorScope: () => undefined,
    editorAcp: () => ({ handler: () => undefined, close: async () => undefined }),
  } as never;
  const offered = (editorServer: boolean) => ({ editorServer }) as never;
  const all = new Set(['problems', 'editors', 'symbols', 'navigation', 'changes'] as const);

  it('says whether the next session gets it, and why not', () => {
    const first = (...args: Parameters<typeof editorServerReport>) => editorServerReport(...args)[0];
    assert.match(
      first(node, offered(true), { http: true }, all),
      /offered: the next session gets it on 127\.0\.0\.1\.$/,
    );
    const acp = { http: true, acp: true } as never;
    assert.match(first(node, offered(true), acp, all), /the next session gets it over ACP \(mcp\/message\)\.$/);
    assert.match(
      first(node, offered(true), { http: false }, all),
      /this agent takes no MCP server over HTTP or over ACP/,
    );
    assert.match(
      first(node, offered(true), 'unknown', all),
      /offered to an agent that takes MCP servers over ACP or HTTP/,
    );
    assert.match(first(node, offered(false), { http: true }, all), /needs a trusted workspace with a local folder/);
    assert.match(first(node, offered(true), { http: true }, new Set()), /off \(every vscode-acp\.editorServer/);
    assert.match(first({} as never, offered(false), { http: true }, all), /not here/);
    // The web: no loopback of its own, a bridge that relays it.
    const web = { editorScope: () => undefined } as never;
    assert.match(first(web, offered(true), { http: true }, all), /the bridge serves it next to the agent/);
    assert.match(first(web, offered(false), { http: true }, all), /a bridge that serves it next to the agent/);
  });

  it('lists the tools on and off', () => {
    const tools = editorServerReport(node, offered(true), { http: true }, new Set(['problems', 'changes'] as const))[1];
    assert.equal(
      tools,
      '  Tools: problems, changes (off: selection, open_editors, symbols, definition, references, implementations, hover)',
    );
  });
});
