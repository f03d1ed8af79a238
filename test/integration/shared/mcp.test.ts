/**
 * Both hosts: the MCP servers a session gets, from user settings, workspace
 * settings and the folder's `.vscode/mcp.json`, as the test agent reports
 * them (`report mcp`: values as digests). The test agent takes HTTP but not
 * SSE servers. The Node host resolves `${env:...}` from its environment;
 * the web worker has none, so such a server is left out. Commands are
 * checked for the agent's OS: the bridge's hello tells the web worker.
 */
import * as vscode from 'vscode';
import * as assert from './assert';
import { lastReply, waitFor } from './chatWaits';
import { hostSetup, newChatWithTestAgent } from './host';
import { digest, reportedMcp } from './mcpReport';
import { chatStatus } from '../../../src/views/chatStatus';

const config = () => vscode.workspace.getConfiguration('vscode-acp');

describe('MCP servers', function () {
  this.timeout(60_000);
  const folder = () => vscode.workspace.workspaceFolders![0].uri;
  const mcpJson = () => vscode.Uri.joinPath(folder(), '.vscode', 'mcp.json');

  before(async () => {
    await config().update(
      'mcpServers',
      [
        { name: 'Docs', command: '/usr/bin/user-docs' },
        { name: 'user-only', command: '/opt/user-only', args: ['--stdio'] },
        { type: 'sse', name: 'events', url: 'https://events.example.com/sse' },
        { name: 'with-secret', command: '/opt/secret', env: [{ name: 'TOKEN', value: '${env:ACP_TEST_MCP_SECRET}' }] },
        // A Windows program: the agent runs on Linux (here, or on the bridge machine, whose hello says so).
        { name: 'win-tool', command: 'C:\\tools\\mcp.exe' },
      ],
      vscode.ConfigurationTarget.Global,
    );
    await config().update(
      'mcpServers',
      [{ name: 'ws-only', command: '/opt/ws-only' }],
      vscode.ConfigurationTarget.Workspace,
    );
    await vscode.workspace.fs.writeFile(
      mcpJson(),
      new TextEncoder().encode(`{
      // VS Code's own shape, with a comment and trailing commas
      "servers": {
        "docs": { "type": "stdio", "command": "/opt/project-docs", "args": ["serve"] },
        "remote": { "type": "http", "url": "https://mcp.example.com/v1", "headers": { "X-Team": "core" } },
        "relative": { "command": "node", "args": ["server.js"] },
      },
    }`),
    );
  });

  after(async () => {
    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('mcpServers', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.delete(mcpJson());
  });

  it('sources in precedence order, names ignoring case, HTTP only as the agent takes it; what is left out is said', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('report mcp');
    const servers = reportedMcp(lastReply(chat));
    const secret = hostSetup.mcpSecret;
    assert.deepEqual(
      servers.map((s) => s.name),
      [
        'user-only',
        ...(secret ? ['with-secret'] : []),
        'ws-only',
        'docs',
        'remote',
        // The extension's own, last (a trusted workspace, an agent that takes HTTP servers; on the web, the bridge's).
        ...(hostSetup.editorServer ? ['vscode-editor'] : []),
      ],
    );
    assert.equal(
      servers.find((s) => s.name === 'docs')?.command,
      '/opt/project-docs',
      '.vscode/mcp.json replaced the user\'s "Docs"',
    );
    assert.deepEqual(servers.find((s) => s.name === 'remote')?.headers, [`X-Team=${await digest('core')}`]);
    if (secret) assert.deepEqual(servers.find((s) => s.name === 'with-secret')?.env, [`TOKEN=${await digest(secret)}`]);
    const notice = chat.thread.entries.find((e) => e.kind === 'notice' && e.text.includes('MCP'));
    const text = notice?.kind === 'notice' ? notice.text : '';
    assert.match(text, /\[MCP_AGENT_UNSUPPORTED\] user:vscode-acp\.mcpServers\[2\]\.type is SSE/);
    assert.match(text, /\[MCP_CONFIG_UNSAFE\] \.vscode\/mcp\.json\.servers\[2\]\.command should be an absolute path/);
    if (!secret) assert.match(text, /\[MCP_ENV_UNSET\] user:vscode-acp\.mcpServers\[3\]\.env\[0\]\.value/);
    assert.match(text, /\[MCP_CONFIG_UNSAFE\] user:vscode-acp\.mcpServers\[4\]\.command/);
    await api.chats.close(chat.id);
  });

  it('a session continued after a reconnect gets the servers as they are then', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('report mcp');
    const sessionId = chat.sessionRef!.sessionId;
    await chat.disconnect();
    await config().update(
      'mcpServers',
      [{ name: 'ws-later', command: '/opt/ws-later' }],
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      await chat.composer.send('report mcp');
      assert.equal(chat.sessionRef!.sessionId, sessionId, 'the same session, resumed');
      const names = reportedMcp(lastReply(chat)).map((s) => s.name);
      assert.ok(names.includes('ws-later') && !names.includes('ws-only'), names.join(', '));
    } finally {
      await config().update(
        'mcpServers',
        [{ name: 'ws-only', command: '/opt/ws-only' }],
        vscode.ConfigurationTarget.Workspace,
      );
      await api.chats.close(chat.id);
    }
  });

  it('a resolved secret the agent writes to stderr (in pieces) or sends back in an error is redacted in the chat', async function () {
    const secret = hostSetup.mcpSecret;
    if (!secret) this.skip(); // nothing resolves ${env:...} in the web worker: the first test checks it is left out
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('leak mcp');
    const shown = JSON.stringify(chat.thread);
    assert.ok(
      !shown.includes(secret!) && !shown.includes(JSON.stringify(secret).slice(1, -1)),
      'the secret is not in the transcript',
    );
    assert.match(shown, /failed with \[redacted\], core/);
    await api.chats.close(chat.id);
  });

  it('a resolved secret the agent echoes (a message in two pieces, a thought, the title, a tool call, a plan, a notice, a permission request) is redacted in all of them', async function () {
    const secret = hostSetup.mcpSecret;
    if (!secret) this.skip();
    const { api, chat } = await newChatWithTestAgent();
    let ended = false;
    const turn = chat.composer.send('echo mcp').finally(() => (ended = true));
    // One permission request per MCP value: each as the view is given it, then answered.
    const prompts: string[] = [];
    while (!ended) {
      const prompt = chatStatus(chat).permissions[0];
      if (prompt) {
        prompts.push(JSON.stringify(prompt));
        chat.permissions.answer(prompt.requestId, 'allow_once');
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await turn;
    const kept = JSON.stringify(chat.thread);
    for (const [what, text] of [
      ['the transcript', kept],
      ['the permission prompts', prompts.join('\n')],
      ['the title', chat.title ?? ''],
    ] as const) {
      assert.ok(
        !text.includes(secret!) && !text.includes(JSON.stringify(secret).slice(1, -1)),
        `the secret is not in ${what}`,
      );
    }
    // Its last MCP value is the editor server's token (a secret) where it has one, else a header that is none.
    const lastTitle = hostSetup.editorServer ? 'Session about [redacted]' : 'Session about core';
    assert.equal(chat.title, lastTitle, 'the last title the agent set');
    for (const shown of [
      'token: [redacted] (that was it)',
      'thinking about [redacted]',
      'Use [redacted]',
      'output [redacted]',
      'Plan with [redacted]',
      'Notice of [redacted]',
    ]) {
      assert.ok(kept.includes(shown), `the transcript shows ${shown}`);
    }
    assert.ok(
      prompts.some((p) => p.includes('Send [redacted]') && p.includes('Allow [redacted]')),
      'the permission prompt shows it redacted',
    );
    const values = hostSetup.editorServer ? 3 : 2;
    assert.ok(kept.includes(`[echoed ${values} values]`), 'the turn ended as the agent meant it to');
    // What the history saved: the index (with the title) and the transcript.
    const sessionId = chat.sessionRef!.sessionId;
    for (
      let tries = 0;
      !(await api.sessions.list()).some((s) => s.sessionId === sessionId && s.title === lastTitle);
      tries++
    ) {
      assert.ok(tries < 100, 'the chat is saved in the history, titled');
      await new Promise((r) => setTimeout(r, 50));
    }
    const location = api.sessions.location!;
    for (const [name, type] of await vscode.workspace.fs.readDirectory(location)) {
      if (type !== vscode.FileType.File) continue;
      // A save's temporary file may be renamed away meanwhile: what it held is in the file it became.
      const bytes = await Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(location, name))).catch(
        () => new Uint8Array(),
      );
      const text = new TextDecoder().decode(bytes);
      assert.ok(
        !text.includes(secret!) && !text.includes(JSON.stringify(secret).slice(1, -1)),
        `the secret is not in the saved ${name}`,
      );
    }
    await api.chats.close(chat.id);
  });

  it('ACP: Show MCP Servers lists what the next session sends and why the rest is left out, without values', async () => {
    const { api, chat } = await newChatWithTestAgent();
    await chat.composer.send('hello');
    await vscode.commands.executeCommand('vscode-acp.showMcpServers');
    await waitFor(
      chat,
      'the report is shown',
      () => vscode.window.activeTextEditor?.document.uri.scheme === 'vscode-acp-mcp',
    );
    const report = vscode.window.activeTextEditor!.document.getText();
    assert.match(report, /Agent: Test Agent 1\.2\.3 \(takes HTTP servers: yes, SSE servers: no\)/);
    assert.match(report, /docs: stdio from \.vscode\/mcp\.json: \/opt\/project-docs, 1 argument/);
    assert.match(report, /remote: HTTP from \.vscode\/mcp\.json: https:\/\/mcp\.example\.com\/v1; headers X-Team=•••/);
    assert.match(report, /Docs from user settings \(vscode-acp\.mcpServers\) \(user:vscode-acp\.mcpServers\[0\]\)/);
    assert.match(report, /\[MCP_CONFIG_UNSAFE\] \.vscode\/mcp\.json\.servers\[2\]\.command/);
    assert.ok(!report.includes('core'), 'header values are not shown');
    assert.match(
      report,
      hostSetup.editorServer
        ? /The editor server \(vscode-editor, the extension's own\): offered: (?:the next session gets it on 127\.0\.0\.1|the bridge serves it next to the agent, and asks VS Code each call)\.\n {2}Tools: problems, selection, open_editors, symbols, definition, references, implementations, hover, changes\n/
        : /The editor server \(vscode-editor, the extension's own\): not offered/,
    );
    if (hostSetup.mcpSecret) assert.ok(!report.includes(hostSetup.mcpSecret), 'resolved values are not shown');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await api.chats.close(chat.id);
  });
});
