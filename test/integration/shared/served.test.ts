/**
 * Both hosts: an agent served elsewhere over ACP's standard remote transport
 * (the scripted agent behind the SDK's own server, which test/run.mjs starts;
 * its URL in the harness file `standard-url.txt`, with a query standing for a
 * token), configured by URL in vscode-acp.agents: offered as served at its URL
 * (never the query), a whole turn with the SDK's client (over WebSocket, and
 * over Streamable HTTP: `standard-http-url.txt`), no file access or
 * terminals offered to it; a listing of its sessions given up by Refresh is
 * cancelled at the agent (`$/cancel_request`). On the Node host, without `cwd`
 * it works in the workspace folder's path.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { acpApi, lastReply, transcript } from './chatWaits';
import { hostSetup } from './host';
import { reportedMcp } from './mcpReport';

describe('an agent served over the standard remote transport', function () {
  this.timeout(60_000);
  const harnessUrl = async (name: string) =>
    new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, name)))
      .trim();

  before(async () => {
    const url = await harnessUrl('standard-url.txt');
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        served: { name: 'Served Agent', url, cwd: '/served/repo' },
        servedHttp: { name: 'Served over HTTP', url: await harnessUrl('standard-http-url.txt'), cwd: '/served/http' },
        listing: { name: 'Listing Agent', url: await harnessUrl('standard-listing-url.txt'), cwd: '/served/repo' },
        ...(hostSetup.agentId !== 'bridge' ? { servedHere: { name: 'Served Here', url } } : {}),
      },
      vscode.ConfigurationTarget.Global,
    );
    await (await acpApi()).chat.refreshAgents();
  });

  after(async () => {
    await hostSetup.configureAgent();
    await (await acpApi()).chat.refreshAgents();
  });

  it('over Streamable HTTP too: offered at its URL, a whole turn', async () => {
    const api = await acpApi();
    assert.match(
      api.chat.status.agents.find((a) => a.id === 'servedHttp')?.detail ?? '',
      /^Served at http:\/\/127\.0\.0\.1:\d+\/acp$/,
    );
    const chat = api.chats.newChat();
    chat.selectAgent('servedHttp');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      assert.equal(chat.sessionRef?.cwd, '/served/http');
      await chat.composer.send('Say hello');
      assert.match(lastReply(chat), /Hello from the test agent/);
      assert.ok(!transcript(chat).includes('not-shown'), 'the query is never shown');
    } finally {
      await api.chats.close(chat.id);
    }
  });

  it('offered as served at its URL; a whole turn; no files or terminals offered to it', async () => {
    const api = await acpApi();
    const agent = api.chat.status.agents.find((a) => a.id === 'served');
    assert.ok(agent?.available, JSON.stringify(api.chat.status.agents));
    assert.match(agent!.detail ?? '', /^Served at ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const chat = api.chats.newChat();
    chat.selectAgent('served');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      assert.equal(chat.sessionRef?.cwd, '/served/repo');
      await chat.composer.send('Say hello');
      assert.match(lastReply(chat), /Hello from the test agent/);
      await chat.composer.send('which capabilities');
      assert.match(lastReply(chat), /"fs":\{"readTextFile":false,"writeTextFile":false\},"terminal":false/);
      assert.ok(!transcript(chat).includes('not-shown'), 'the query is never shown');
    } finally {
      await api.chats.close(chat.id);
    }
  });

  it('a listing given up by Refresh: the agent is told ($/cancel_request), and the next listing is answered', async () => {
    const api = await acpApi();
    // A chat keeps the agent's connection: the listing after the Refresh goes to the same agent, which asked the first.
    const chat = api.chats.newChat();
    chat.selectAgent('listing');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      const agentNode = (await api.sessionsTree.getChildren()).find(
        (n) => n.kind === 'agent' && n.agentId === 'listing',
      );
      assert.ok(agentNode, 'the agent is in the Sessions tree');
      const first = api.sessionsTree.getChildren(agentNode);
      // The first listing hangs until it is given up; give it time to reach the agent.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      api.sessionsTree.refresh();
      // The tree asked during the Refresh gets the new listing's answer (the chat's session), not the one given up.
      const labels = (await first).map((n) => String(api.sessionsTree.getTreeItem(n).label));
      assert.ok(!labels.some((l) => l.startsWith('Could not list')), JSON.stringify(labels));
      await chat.composer.send('report cancelled');
      assert.equal(lastReply(chat), '[cancelled: ["session/list"]]');
    } finally {
      await api.chats.close(chat.id);
    }
  });

  it("an agent served elsewhere gets no value of this machine's environment in its MCP servers", async function () {
    const secret = hostSetup.mcpSecret;
    if (!secret) this.skip(); // the web worker resolves none for any agent (MCP servers suite)
    const config = vscode.workspace.getConfiguration('vscode-acp');
    await config.update(
      'mcpServers',
      [
        { name: 'plain', command: '/opt/plain' },
        { name: 'with-secret', command: '/opt/secret', env: [{ name: 'TOKEN', value: '${env:ACP_TEST_MCP_SECRET}' }] },
      ],
      vscode.ConfigurationTarget.Global,
    );
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('served');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      await chat.composer.send('report mcp');
      assert.deepEqual(
        reportedMcp(lastReply(chat)).map((s) => s.name),
        ['plain'],
      );
      assert.ok(!JSON.stringify(chat.thread).includes(secret!), 'the secret is nowhere in the chat');
      const notice = chat.thread.entries.find((e) => e.kind === 'notice' && e.text.includes('MCP'));
      assert.match(
        notice?.kind === 'notice' ? notice.text : '',
        /\[MCP_ENV_UNSET\] user:vscode-acp\.mcpServers\[1\]\.env\[0\]\.value names an environment variable: this machine's values are not given to an agent served elsewhere/,
        'the chat says which server was left out',
      );
    } finally {
      await config.update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
      await api.chats.close(chat.id);
    }
  });

  it("on the Node host, an agent served without a cwd works in the workspace folder's path", async function () {
    if (hostSetup.agentId === 'bridge') this.skip();
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('servedHere');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      assert.equal(chat.sessionRef?.cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
