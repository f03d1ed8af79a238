/**
 * The editor server with a real agent (after agent.test.ts, same host): the extension gives the session its own MCP
 * server, vscode-editor (over HTTP on 127.0.0.1), with nothing configured by the user; the agent's fake model, asked to
 * check the types in typed.ts, calls its `problems` and then its `definition` through the agent's own MCP client
 * (test/real-agents/editorScript.mjs), VS Code's own TypeScript answering, then fixes the error with the agent's edit
 * tool and says what it learned. The reply must quote both answers (they reached the model), the chat must list both
 * calls under the answer (the definition opening greeter.ts), the file must be fixed on disk and its error gone.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { askAndCheckFix, diagnosticsOf } from '../shared/editorFix';
import { fakeLog, realAgentConfig } from './config';
import { connectedRealChat } from './realChat';

const config = realAgentConfig();

/** The settings a user could give the editor server or MCP servers: none may be set for this test. */
const USER_KEYS = [
  'mcpServers',
  'editorServer.problems',
  'editorServer.editors',
  'editorServer.symbols',
  'editorServer.navigation',
  'editorServer.changes',
];

describe(`${config.agent.name}: the editor server (real agent, fake model, VS Code's TypeScript)`, function () {
  this.timeout(240_000);

  it("its model asks VS Code for problems and a definition through the agent's MCP client, learns both and fixes the error", async function () {
    const e = config.scenario.editor;
    if (!e) return this.skip();
    if (e.skip) {
      console.log(`    SKIPPED for ${config.agent.name}: ${e.skip}`);
      return this.skip();
    }
    const settings = vscode.workspace.getConfiguration('vscode-acp');
    for (const key of USER_KEYS) {
      const set = settings.inspect(key);
      assert.ok(
        set?.globalValue === undefined && set?.workspaceValue === undefined,
        `vscode-acp.${key} is set: ${JSON.stringify(set)}`,
      );
    }
    fs.writeFileSync(e.greeter.file, e.greeter.content);
    fs.writeFileSync(e.typed.file, e.typed.content);
    // As the user has it: the file open in an editor (TypeScript checks only those), its error reported.
    const typed = vscode.Uri.file(e.typed.file);
    await vscode.window.showTextDocument(typed, { preview: false });
    await diagnosticsOf(typed, 'TS2322 on typed.ts', (codes) => codes.includes('2322'));
    const { api, chat } = await connectedRealChat(config);
    try {
      const logBefore = (await fakeLog(config)).length;
      const { definition } = await askAndCheckFix(chat, config.agentId, e.marker);
      const requests = (await fakeLog(config)).slice(logBefore);
      console.log(`    EDITOR ${config.agentId}: ${requests.map((r) => r.answered).join(' -> ')}`);
      // The definition opens greeter.ts on disk.
      assert.equal(definition.path, e.greeter.file);
      assert.equal(fs.readFileSync(definition.path!, 'utf8'), e.greeter.content, 'the place is greeter.ts on disk');
      // The fix: on disk, and TypeScript no longer reports the error.
      assert.equal(fs.readFileSync(e.typed.file, 'utf8'), e.typed.fixed);
      await diagnosticsOf(typed, 'typed.ts without TS2322', (codes) => !codes.includes('2322'));
    } finally {
      await api.chats.close(chat.id);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const file of [e.greeter.file, e.typed.file]) fs.rmSync(file, { force: true });
    }
  });
});
