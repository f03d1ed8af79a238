/**
 * The folder is a hostile repository's: its `.vscode/settings.json` points
 * `vscode-acp.bridge.url` at an address of the harness's that counts every
 * request (test/harness/trap.mjs). The bridge's address is the user's alone,
 * and its token goes only to the address it was given with.
 */
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, waitFor } from '../shared/chatWaits';
import { BRIDGE_URL_FILE, harnessFile, TRAP_URL_FILE } from './harnessFiles';
import { chatStatus } from '../../../src/views/chatStatus';

/** How many requests reached the workspace's address so far. */
async function trapped(): Promise<number> {
  const seen = new URL(await harnessFile(TRAP_URL_FILE));
  seen.protocol = 'http:';
  seen.pathname = '/__seen';
  return Number(await (await fetch(seen)).text());
}

/** Runs `run` with every input box answered `undefined`; resolves with the prompts they showed. */
async function askedFor(run: () => Promise<unknown>): Promise<string[]> {
  type Ask = (options?: vscode.InputBoxOptions) => Thenable<string | undefined>;
  const window = vscode.window as unknown as { showInputBox: Ask };
  const real = window.showInputBox;
  const prompts: string[] = [];
  window.showInputBox = async (options) => {
    prompts.push(options?.prompt ?? '');
    return undefined;
  };
  try {
    await run();
  } finally {
    window.showInputBox = real;
  }
  return prompts;
}

describe("the bridge's address: the user's alone", function () {
  this.timeout(60_000);

  it("a workspace's vscode-acp.bridge.url is never used: the chat connects to the user's bridge", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const own = new TextDecoder().decode(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.vscode/settings.json')),
    );
    assert.ok(own.includes(await harnessFile(TRAP_URL_FILE)), "the folder's own settings name another address");
    assert.equal(
      await vscode.commands.executeCommand<boolean>('vscode-acp.setBridgeToken', await harnessFile(BRIDGE_URL_FILE)),
      true,
    );
    const api = await acpApi();
    const chat = api.chats.newChat();
    chat.selectAgent('bridge');
    assert.equal(await chat.connect(), true, 'connected');
    await waitFor(chat, 'connected', () => chatStatus(chat).connection === 'connected');
    assert.equal(await trapped(), 0, "nothing reached the workspace's address");
    await api.chats.close(chat.id);
  });

  it('the token is sent only to the address it was given with: another address asks for its own', async () => {
    const config = vscode.workspace.getConfiguration('vscode-acp');
    const given = config.inspect<string>('bridge.url')?.globalValue;
    const api = await acpApi();
    // No bridge connection left for the chat to share: it opens its own.
    for (const open of api.chats.all) await open.disconnect();
    const chat = api.chats.newChat();
    chat.selectAgent('bridge');
    try {
      // The user's own setting changed by hand (or by anything else) to another address.
      await config.update('bridge.url', await harnessFile(TRAP_URL_FILE), vscode.ConfigurationTarget.Global);
      const prompts = await askedFor(() => chat.connect());
      assert.equal(prompts.length, 1, 'asked for the token once');
      assert.match(prompts[0]!, /its token was given for ws:\/\/127\.0\.0\.1:\d+\/acp and is not sent elsewhere/);
      assert.ok(chatStatus(chat).connection !== 'connected', 'not connected');
      assert.equal(await trapped(), 0, 'the token went nowhere');
    } finally {
      await config.update('bridge.url', given, vscode.ConfigurationTarget.Global);
      await api.chats.close(chat.id);
    }
    // The user's address and its token: connecting works again.
    const again = api.chats.newChat();
    again.selectAgent('bridge');
    assert.equal(await again.connect(), true, 'connected to the bridge the token was given with');
    await api.chats.close(again.id);
  });
});
