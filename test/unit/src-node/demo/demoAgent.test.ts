/** The Demo Agent, driven by the SDK's own client over an in-memory stream pair, as the extension drives it. */
import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { createDemoAgent, DEMO_AGENT_INFO } from '../../../../src-node/demo/demoAgent';

interface Client {
  readonly agent: acp.ClientConnection['agent'];
  readonly updates: acp.SessionUpdate[];
  readonly permissions: acp.RequestPermissionRequest[];
  readonly reads: acp.ReadTextFileRequest[];
  sessionId: string;
}

/** A client that answers permission requests with `permit` and reads files from `files`; connected and with a session. */
async function connect(
  options: { permit?: string; files?: Record<string, string>; fs?: boolean } = {},
): Promise<Client> {
  const toAgent = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const toClient = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  createDemoAgent({ chunkMs: 0, slowChunkMs: 20 }).connect({ readable: toAgent.readable, writable: toClient.writable });
  const updates: acp.SessionUpdate[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const reads: acp.ReadTextFileRequest[] = [];
  const connection = acp
    .client({ name: 'test' })
    .onNotification('session/update', ({ params }) => void updates.push(params.update))
    .onRequest('session/request_permission', ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: 'selected', optionId: options.permit ?? 'reject' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      reads.push(params);
      const content = options.files?.[params.path];
      if (content === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content };
    })
    .connect({ readable: toClient.readable, writable: toAgent.writable });
  const init = await connection.agent.request('initialize', {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: options.fs ?? true } },
  });
  assert.deepEqual(init.agentInfo, DEMO_AGENT_INFO);
  const { sessionId } = await connection.agent.request('session/new', { cwd: '/work/folder', mcpServers: [] });
  return { agent: connection.agent, updates, permissions, reads, sessionId };
}

const prompt = (client: Client, text: string) =>
  client.agent.request('session/prompt', { sessionId: client.sessionId, prompt: [{ type: 'text', text }] });

const said = (client: Client, kind: 'agent_message_chunk' | 'agent_thought_chunk') =>
  client.updates
    .filter((u) => u.sessionUpdate === kind)
    .map((u) => (u as { content: acp.ContentBlock }).content)
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join('');

describe('the Demo Agent', () => {
  it('offers its slash commands once a session is open', async () => {
    const client = await connect();
    for (let i = 0; i < 50 && client.updates.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    const commands = client.updates.find((u) => u.sessionUpdate === 'available_commands_update');
    assert.deepEqual(commands && 'availableCommands' in commands ? commands.availableCommands.map((c) => c.name) : [], [
      'slow',
      'read',
    ]);
  });

  it('answers any prompt with a thought and a streamed Markdown reply that says how to try it', async () => {
    const client = await connect();
    const { stopReason } = await prompt(client, 'Hello?');
    assert.equal(stopReason, 'end_turn');
    assert.match(said(client, 'agent_thought_chunk'), /scripted Demo Agent/);
    const reply = said(client, 'agent_message_chunk');
    assert.match(reply, /^Hello! I am the \*\*Demo Agent\*\*/);
    assert.match(reply, /`\/read README\.md`[\s\S]*`\/slow`[\s\S]*`vscode-acp\.agents`/);
    assert.ok(
      client.updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').length > 20,
      'streamed in pieces',
    );
  });

  it('/slow streams until cancelled, then ends the turn as cancelled at once', async () => {
    const client = await connect();
    const turn = prompt(client, '/slow');
    while (!said(client, 'agent_message_chunk')) await new Promise((r) => setTimeout(r, 5));
    const cancelledAt = Date.now();
    await client.agent.notify('session/cancel', { sessionId: client.sessionId });
    assert.equal((await turn).stopReason, 'cancelled');
    assert.ok(Date.now() - cancelledAt < 500, 'it stops at once, not at the end of its answer');
    assert.ok(said(client, 'agent_message_chunk').length < 200 * 20, 'it did not stream the rest');
  });

  it('/read asks first; allowed, the client reads the file in the session folder and the card shows it', async () => {
    const client = await connect({ permit: 'allow', files: { '/work/folder/notes/a.md': '# Notes\nline 2\n' } });
    assert.equal((await prompt(client, '/read notes/a.md')).stopReason, 'end_turn');
    assert.equal(client.permissions.length, 1);
    assert.deepEqual(client.permissions[0]!.toolCall.locations, [{ path: '/work/folder/notes/a.md' }]);
    assert.deepEqual(
      client.reads.map((r) => [r.path, r.line, r.limit]),
      [['/work/folder/notes/a.md', 1, 12]],
    );
    const done = client.updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed');
    assert.deepEqual(done && 'content' in done ? done.content : undefined, [
      { type: 'content', content: { type: 'text', text: '# Notes\nline 2\n' } },
    ]);
  });

  it('/read refused reads nothing; a file the client cannot give is a failed card that says why', async () => {
    const refused = await connect({ permit: 'reject', files: { '/work/folder/README.md': 'x' } });
    await prompt(refused, '/read');
    assert.equal(refused.permissions[0]!.toolCall.title, 'Read README.md', 'README.md when no path is given');
    assert.deepEqual(refused.reads, [], 'nothing read');
    assert.match(said(refused, 'agent_message_chunk'), /did not read it/);

    const missing = await connect({ permit: 'allow', files: {} });
    await prompt(missing, '/read gone.txt');
    assert.ok(missing.updates.some((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed'));
    assert.match(said(missing, 'agent_message_chunk'), /could not read `gone\.txt`/);
  });

  it('a client that does not let agents read files gets no read request, and is told so', async () => {
    const client = await connect({ fs: false, permit: 'allow', files: { '/work/folder/README.md': 'x' } });
    await prompt(client, '/read');
    assert.deepEqual([client.permissions, client.reads], [[], []]);
    assert.match(said(client, 'agent_message_chunk'), /did not offer to read files/);
  });
});
