/**
 * Node host: the editor server with VS Code's real answers. The scripted agent, taking MCP over HTTP as every agent we
 * test does, calls its tools on a TypeScript file with a type error through the loopback endpoint the session was
 * given: the problems come from VS Code's own TypeScript extension, the definition from its provider.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { lastReply, transcript, waitFor } from '../shared/chatWaits';
import { newChatWithTestAgent } from '../shared/host';
import { reportedBlocks } from '../shared/attachmentFixtures';
import { chatStatus } from '../../../src/views/chatStatus';
import { chatWithAgents, scenarioAgent } from './scenarioAgents';

describe('The editor server (Node host, VS Code answering)', function () {
  this.timeout(120_000);
  const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const dir = path.join(folder, 'editor-fixture');

  before(() => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'greeter.ts'),
      "export class Greeter {\n  greet(): string {\n    return 'hi';\n  }\n}\n",
    );
    // Line 2: a string given to a number (TS2322); `Greeter` starts at column 27.
    const use =
      "import { Greeter } from './greeter';\nconst count: number = new Greeter().greet();\nexport { count };\n";
    fs.writeFileSync(path.join(dir, 'use.ts'), use);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("gives an agent that takes MCP over HTTP VS Code's problems and definitions, and nothing outside the folder", async () => {
    const agent = scenarioAgent('Editor Agent', {
      agentCapabilities: { mcpCapabilities: { http: true } },
      turns: [
        {
          match: 'check',
          steps: [
            { mcpCall: { tool: 'problems', arguments: { path: 'editor-fixture/use.ts' } } },
            { mcpCall: { tool: 'definition', arguments: { path: 'editor-fixture/use.ts', line: 2, character: 27 } } },
            { mcpCall: { tool: 'symbols', arguments: { path: `${dir}/greeter.ts` } } },
            { mcpCall: { tool: 'problems', arguments: { path: 'editor-fixture/greeter.ts' } } },
            { mcpCall: { tool: 'problems', arguments: { path: '/etc/passwd' } } },
            { mcpCall: { tool: 'definition', arguments: { path: 'editor-fixture/use.ts', line: 99, character: 1 } } },
            { text: 'checked' },
          ],
        },
      ],
    });
    // As the user has it: the file open in an editor (TypeScript checks only those), its error reported.
    const use = vscode.Uri.file(path.join(dir, 'use.ts'));
    await vscode.window.showTextDocument(use, { preview: false });
    const deadline = Date.now() + 90_000;
    while (!vscode.languages.getDiagnostics(use).some((d) => String(d.code) === '2322')) {
      if (Date.now() > deadline) throw new Error('TypeScript reported no error on use.ts in 90 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const chat = await chatWithAgents({ editor: agent }, 'editor');
    await chat.composer.send('check');
    await waitFor(chat, 'the calls', () => transcript(chat).includes('checked'), 90_000);
    const text = transcript(chat);
    assert.match(
      text,
      /\[mcp problems: 1 problem in editor-fixture\/use\.ts \(1 error\):\neditor-fixture\/use\.ts:2:7: error 2322: Type 'string' is not assignable to type 'number'\. \(ts\)\]/,
    );
    assert.match(text, /\[mcp definition: editor-fixture\/greeter\.ts:1:14\]/);
    assert.match(
      text,
      /\[mcp symbols: Greeter \(class\): editor-fixture\/greeter\.ts:1:14\n {2}greet \(method\): editor-fixture\/greeter\.ts:2:3\]/,
    );
    assert.match(
      text,
      /\[mcp problems refused: "\/etc\/passwd" cannot be read: it is outside the workspace folders\.\]/,
    );
    assert.match(text, /\[mcp definition refused: Line 99 is past the end of editor-fixture\/use\.ts \(4 lines\)\.\]/);
    // Under the answer, what the agent asked, each call opening its place (the definition: where it is).
    await waitFor(chat, 'the turn to end', () => chat.thread.turn === 'idle');
    assert.match(
      transcript(chat),
      /checked\n\n\*\*Asked VS Code\*\*\n- problems in editor-fixture\/use\.ts: 1 \(1 error\)\n- definition at editor-fixture\/use\.ts:2:27: editor-fixture\/greeter\.ts:1:14\n- outline of editor-fixture\/greeter\.ts: 2 symbols\n- problems in editor-fixture\/greeter\.ts: [^\n]+\n- problems: not answered\n- definition: not answered\n/,
    );
    const listed = chat.thread.entries.find((e) => e.kind === 'editorCalls');
    assert.ok(listed?.kind === 'editorCalls');
    assert.deepEqual(listed.calls[1], {
      tool: 'definition',
      about: 'definition at editor-fixture/use.ts:2:27: editor-fixture/greeter.ts:1:14',
      path: path.join(dir, 'greeter.ts'),
      line: 1,
    });
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('1,000 calls at once: each answered or refused with 429, the extension host answering meanwhile, 50 listed', async () => {
    const agent = scenarioAgent('Flooding Agent', {
      agentCapabilities: { mcpCapabilities: { http: true } },
      turns: [
        {
          match: 'flood',
          steps: [
            {
              mcpCall: {
                tool: 'references',
                arguments: { path: 'editor-fixture/use.ts', line: 2, character: 27 },
                times: 1000,
              },
            },
            { text: 'flooded' },
          ],
        },
      ],
    });
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(dir, 'use.ts')), { preview: false });
    const chat = await chatWithAgents({ flood: agent }, 'flood');
    // The extension host's event loop while the calls come: how late a 10 ms timer fires (printed, not judged here:
    // the bench judges time), and the workbench answering it meanwhile.
    let late = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      late = Math.max(late, now - last - 10);
      last = now;
    }, 10);
    try {
      const sent = chat.composer.send('flood');
      // Round trips to the workbench while the calls come (they come within a second or two).
      const answered = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          await new Promise((r) => setTimeout(r, i * 100));
          return (await vscode.commands.getCommands(true)).includes('vscode-acp.connect');
        }),
      );
      assert.deepEqual(answered, [true, true, true, true, true]);
      await sent;
      await waitFor(chat, 'the flood to end', () => chat.thread.turn === 'idle', 120_000);
    } finally {
      clearInterval(timer);
    }
    console.log(`    the extension host's 10 ms timer was at most ${Math.round(late)} ms late during 1,000 calls`);
    const counted = /\[mcp references x1000: (\d+) answered, (\d+) refused, (\d+) HTTP 429, (\d+) failed\]/.exec(
      transcript(chat),
    );
    assert.ok(counted, transcript(chat).slice(-500));
    const [answered, refused, busy, failed] = counted.slice(1).map(Number) as [number, number, number, number];
    assert.equal(failed, 0, 'every call came back as an answer or a 429');
    assert.equal(refused, 0);
    assert.ok(answered >= 16, `${answered} answered`);
    // The ones that reached VS Code: listed up to 50 under the answer, the rest counted.
    const listed = [...chat.thread.entries].reverse().find((e) => e.kind === 'editorCalls');
    assert.ok(listed?.kind === 'editorCalls');
    assert.equal(listed.calls.length, Math.min(50, answered));
    assert.equal(listed.calls.length + (listed.more ?? 0), answered, `${busy} refused as busy`);
    assert.match(listed.calls[0]!.about, /^references at editor-fixture\/use\.ts:2:27: \d+$/);
    await vscode.commands.executeCommand('vscode-acp.disconnect');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

describe('ACP: Add Terminal Selection to Chat (Node host)', function () {
  this.timeout(30_000);

  it("attaches the active terminal's selected text, and leaves the clipboard's text as it was", async () => {
    const { api, chat } = await newChatWithTestAgent();
    const opened = new vscode.EventEmitter<void>();
    const write = new vscode.EventEmitter<string>();
    const terminal = vscode.window.createTerminal({
      name: 'build  output',
      pty: { onDidWrite: write.event, open: () => opened.fire(), close: () => undefined },
    });
    try {
      terminal.show();
      await new Promise<void>((resolve) => opened.event(() => resolve()));
      write.fire('npm ERR! missing script: build\r\nnpm ERR! see the log\r\n');
      await vscode.env.clipboard.writeText('what the user copied');
      // Nothing selected yet: said, nothing attached.
      await vscode.commands.executeCommand('workbench.action.terminal.clearSelection');
      await vscode.commands.executeCommand('vscode-acp.addTerminalSelection');
      assert.deepEqual(chatStatus(chat).attachments, []);
      const deadline = Date.now() + 10_000;
      while (chatStatus(chat).attachments.length === 0 && Date.now() < deadline) {
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('vscode-acp.addTerminalSelection');
        await new Promise((r) => setTimeout(r, 200));
      }
      assert.deepEqual(
        chatStatus(chat).attachments.map((a) => `${a.label} ${a.icon}`),
        ['build output (2 lines) terminal'],
      );
      assert.equal(await vscode.env.clipboard.readText(), 'what the user copied');
      await waitFor(chat, 'read', () => chatStatus(chat).attachments.every((a) => a.state === 'ready'));
      await chat.composer.send('report prompt');
      const [, sent] = reportedBlocks(lastReply(chat)) as { uri?: string; text?: string }[];
      assert.equal(sent?.uri, 'terminal:selection');
      assert.match(sent?.text ?? '', /^npm ERR! missing script: build\s*\nnpm ERR! see the log/);
    } finally {
      terminal.dispose();
      await api.chats.close(chat.id);
    }
  });
});
