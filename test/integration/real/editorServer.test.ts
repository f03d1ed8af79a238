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
import type { Entry } from '../../../src/shared/thread/thread';
import * as assert from '../shared/assert';
import { transcript, waitFor } from '../shared/chatWaits';
import { fakeLog, realAgentConfig } from './config';
import { connectedRealChat } from './realChat';
import { chatStatus } from '../../../src/views/chatStatus';

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

/** Resolves when `uri`'s diagnostics satisfy `check` (TypeScript reports on open files, in its own time). */
async function diagnosticsOf(uri: vscode.Uri, what: string, check: (codes: string[]) => boolean): Promise<void> {
  const deadline = Date.now() + 90_000;
  const codes = () =>
    vscode.languages.getDiagnostics(uri).map((d) => String(typeof d.code === 'object' ? d.code.value : d.code));
  while (!check(codes())) {
    if (Date.now() > deadline) throw new Error(`TypeScript did not report ${what} in 90 s: ${codes().join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

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
      // Whatever the agent asks (an MCP tool, the edit) is allowed; what it asked is printed.
      const answered = new Map<string, string>();
      const watch = chat.onDidChange(() => {
        for (const p of chatStatus(chat).permissions) {
          if (answered.has(p.requestId)) continue;
          answered.set(p.requestId, p.tool.title);
          chat.permissions.answer(p.requestId, 'allow_once');
        }
      });
      const before = chat.thread.entries.length;
      const logBefore = (await fakeLog(config)).length;
      try {
        await chat.composer.send(e.marker);
        await waitFor(chat, 'the end of the turn', () => chat.thread.turn === 'idle', 180_000);
      } finally {
        watch.dispose();
      }
      const entries: readonly Entry[] = chat.thread.entries.slice(before);
      const shown = transcript(chat).slice(-4000);
      const requests = (await fakeLog(config)).slice(logBefore);
      console.log(`    EDITOR ${config.agentId}: ${requests.map((r) => r.answered).join(' -> ')}`);
      console.log(`    EDITOR ${config.agentId} asked: ${[...answered.values()].join(' | ') || 'nothing'}`);
      const calls = entries.flatMap((x) => (x.kind === 'tool' ? [x.title] : []));
      console.log(`    EDITOR ${config.agentId} tool calls: ${calls.join(' | ')}`);
      // The model got both answers: its reply quotes them (editorScript.mjs's learned()), and it fixed the file.
      const answers = entries.flatMap((x, i) => (x.kind === 'assistant' ? [{ i, text: x.text }] : []));
      const reply = answers.at(-1);
      assert.ok(reply, `an answer: ${shown}`);
      assert.match(reply.text, /typed\.ts has error 2322;/, shown);
      assert.match(reply.text, /Greeter is defined at greeter\.ts:1:14\./, shown);
      assert.match(reply.text, /I fixed typed\.ts\.$/, shown);
      // Under the answer, the two calls as VS Code answered them; the definition opens greeter.ts on disk.
      const at = entries.findIndex((x) => x.kind === 'editorCalls');
      const listed = entries[at];
      assert.ok(listed?.kind === 'editorCalls', `an editorCalls entry: ${shown}`);
      assert.ok(at > reply.i, `after the answer: ${entries.map((x) => x.kind).join(', ')}`);
      assert.deepEqual(
        listed.calls.map((c) => c.tool),
        ['problems', 'definition'],
        JSON.stringify(listed.calls),
      );
      const [problems, definition] = listed.calls;
      assert.match(problems!.about, /^problems in typed\.ts: 1 \(1 error\)$/, JSON.stringify(problems));
      assert.match(definition!.about, /^definition at typed\.ts:2:27: greeter\.ts:1:14$/, JSON.stringify(definition));
      assert.equal(definition!.path, e.greeter.file);
      assert.equal(definition!.line, 1);
      assert.equal(fs.readFileSync(definition!.path!, 'utf8'), e.greeter.content, 'the place is greeter.ts on disk');
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
