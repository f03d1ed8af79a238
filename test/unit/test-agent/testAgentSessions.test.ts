/**
 * The scripted test agent's session listing (for the sessions tests of the
 * extension): pages newest first, a cursor that loops when asked to, hostile
 * entries listed as given, delete, and the capability gates. Over its real
 * stdio with the SDK's client side.
 */
import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';

const agentJs = path.resolve(__dirname, 'agent.js');

async function start(
  scenario: object,
): Promise<{ agent: acp.ClientConnection['agent']; child: ChildProcess; cwd: string }> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-agent-list-'));
  const child = spawn(process.execPath, [agentJs, JSON.stringify(scenario), '--sessions', cwd], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const connection = acp
    .client({ name: 'list-test' })
    .onNotification('session/update', () => undefined)
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
      ),
    );
  await connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  return { agent: connection.agent, child, cwd };
}

describe('the test agent lists sessions', function () {
  this.timeout(20_000);
  let running: ChildProcess | undefined;
  afterEach(() => running?.kill());

  it('newest first, in pages, with titles from the first prompt; deletes; gated by its capabilities', async () => {
    const { agent, child, cwd } = await start({
      agentCapabilities: { sessionCapabilities: { list: {}, delete: {} } },
      listPageSize: 2,
      turns: [{ match: '', steps: [{ text: 'ok' }] }],
    });
    running = child;
    const ids: string[] = [];
    for (const text of ['first', 'second', 'third']) {
      const { sessionId } = await agent.request('session/new', { cwd, mcpServers: [] });
      await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
      ids.push(sessionId);
      await new Promise((r) => setTimeout(r, 5));
    }
    const page1 = await agent.request('session/list', { cwd });
    assert.deepEqual(
      page1.sessions.map((s) => s.title),
      ['third', 'second'],
    );
    assert.equal(page1.nextCursor, '2');
    const page2 = await agent.request('session/list', { cwd, cursor: page1.nextCursor });
    assert.deepEqual(
      page2.sessions.map((s) => s.sessionId),
      [ids[0]],
    );
    assert.equal(page2.nextCursor, undefined);
    await agent.request('session/delete', { sessionId: ids[1]! });
    assert.deepEqual(
      (await agent.request('session/list', { cwd })).sessions.map((s) => s.title),
      ['third', 'first'],
    );
    // The SDK answers a delete of an unknown session as done (its -32002 becomes {}): deleting is idempotent.
    assert.deepEqual(await agent.request('session/delete', { sessionId: 'nope' }), {});
  });

  it('a cursor loop and hostile entries, when the scenario says so; no list without the capability', async () => {
    const hostile = [
      { sessionId: 'dup', cwd: '/x', title: '<b>x</b>'.repeat(1000) },
      { sessionId: 'dup', cwd: '/x' },
    ];
    const { agent, child, cwd } = await start({
      agentCapabilities: { sessionCapabilities: { list: {} } },
      listCursorLoop: true,
      listedSessions: hostile,
    });
    running = child;
    const page = await agent.request('session/list', { cursor: '0' });
    assert.equal(page.nextCursor, '0', 'the same cursor again');
    assert.deepEqual(
      page.sessions.map((s) => s.sessionId),
      ['dup', 'dup'],
    );
    child.kill();
    const plain = await start({});
    running = plain.child;
    await assert.rejects(plain.agent.request('session/list', { cwd }), /Method not found/i);
  });
});
