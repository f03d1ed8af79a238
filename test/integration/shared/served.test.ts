/**
 * Both hosts: an agent served elsewhere over ACP's standard remote transport
 * (the scripted agent behind the SDK's own server, which test/run.mjs starts;
 * its URL in the harness file `standard-url.txt`, with a query standing for a
 * token), configured by URL in vscode-acp.agents: offered as served at its URL
 * (never the query), a whole turn with the SDK's client, no file access or
 * terminals offered to it. On the Node host, without `cwd` it works in the
 * workspace folder's path.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { acpApi, lastReply, transcript } from './chatWaits';
import { hostSetup } from './host';

suite('an agent served over the standard remote transport', function () {
  this.timeout(60_000);
  let url: string;

  suiteSetup(async () => {
    const folder = vscode.workspace.workspaceFolders![0]!;
    url = new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, 'standard-url.txt')))
      .trim();
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        served: { name: 'Served Agent', url, cwd: '/served/repo' },
        ...(hostSetup.agentId !== 'bridge' ? { servedHere: { name: 'Served Here', url } } : {}),
      },
      vscode.ConfigurationTarget.Global,
    );
    await (await acpApi()).chat.refreshAgents();
  });

  suiteTeardown(async () => {
    await hostSetup.configureAgent();
    await (await acpApi()).chat.refreshAgents();
  });

  test('offered as served at its URL; a whole turn; no files or terminals offered to it', async () => {
    const api = await acpApi();
    const agent = api.chat.status.agents.find((a) => a.id === 'served');
    assert.ok(agent?.available, JSON.stringify(api.chat.status.agents));
    assert.match(agent!.detail ?? '', /^Served at ws:\/\/127\.0\.0\.1:\d+\/acp$/);
    const chat = api.chats.newChat();
    chat.selectAgent('served');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      assert.equal(chat.session?.cwd, '/served/repo');
      await chat.send('Say hello');
      assert.match(lastReply(chat), /Hello from the test agent/);
      await chat.send('which capabilities');
      assert.match(lastReply(chat), /"fs":\{"readTextFile":false,"writeTextFile":false\},"terminal":false/);
      assert.ok(!transcript(chat).includes('not-shown'), 'the query is never shown');
    } finally {
      await api.chats.close(chat.id);
    }
  });

  test("on the Node host, an agent served without a cwd works in the workspace folder's path", async function () {
    if (hostSetup.agentId === 'bridge') this.skip();
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('servedHere');
    try {
      assert.equal(await chat.connect(), true, transcript(chat));
      assert.equal(chat.session?.cwd, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
    } finally {
      await api.chats.close(chat.id);
    }
  });
});
