/**
 * Node host: Disconnect, or another agent picked, while a session's MCP
 * configuration is still being read (the disk made slow by holding the
 * `.vscode/mcp.json` stat): nothing is started, no `session/new` reaches the
 * agent (kept running by another chat), and the chat can connect again afterwards.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as assert from '../shared/assert';
import { acpApi, lastReply, waitFor } from '../shared/chatWaits';
import { scenarioAgent } from './scenarioAgents';
import { chatStatus } from '../../../src/views/chatStatus';

describe('MCP configuration read: a connect given up meanwhile', function () {
  this.timeout(60_000);
  const realFs = Object.getOwnPropertyDescriptor(vscode.workspace, 'fs')!;
  let dir: string;
  let eventsFile: string;
  const events = () =>
    fs.existsSync(eventsFile) ? fs.readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean) : [];
  const restoreFs = () => Object.defineProperty(vscode.workspace, 'fs', realFs);

  /** Holds every stat of a `.vscode/mcp.json` until the returned release is called; `held` resolves at the first. */
  function slowMcpJson(): { held: Promise<void>; release: () => void } {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const real = vscode.workspace.fs;
    // A copy (the object is frozen, so a Proxy may not change what it returns) with a slow stat.
    const copy = Object.fromEntries(
      Object.entries(real).map(([key, value]) => [key, typeof value === 'function' ? value.bind(real) : value]),
    );
    const slow = {
      ...copy,
      stat: async (uri: vscode.Uri) => {
        if (uri.path.endsWith('/.vscode/mcp.json')) {
          reached();
          await gate;
        }
        return real.stat(uri);
      },
    };
    Object.defineProperty(vscode.workspace, 'fs', { configurable: true, enumerable: true, get: () => slow });
    return { held, release };
  }

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-mcprace-'));
    eventsFile = path.join(dir, 'events');
    // Each agent records what it was asked in a file of its own: the race agent's is `eventsFile`.
    const agent = (name: string, file: string) =>
      scenarioAgent(name, { eventsFile: file, turns: [{ match: '', steps: [{ text: 'answered' }] }] });
    const agents = vscode.workspace.getConfiguration('vscode-acp').get<Record<string, unknown>>('agents') ?? {};
    await vscode.workspace.getConfiguration('vscode-acp').update(
      'agents',
      {
        ...agents,
        race: agent('Race Agent', eventsFile),
        other: agent('Other Agent', path.join(dir, 'other-events')),
      },
      vscode.ConfigurationTarget.Global,
    );
    await (await acpApi()).chat.refreshAgents();
  });

  afterEach(restoreFs);

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [what, giveUp] of [
    ['Disconnect', (chat: { disconnect(): Promise<void> }) => void chat.disconnect()],
    ['another agent picked', (chat: { selectAgent(id: string): void }) => chat.selectAgent('other')],
  ] as const) {
    it(`${what} while the MCP configuration is read: no session is started`, async () => {
      fs.rmSync(eventsFile, { force: true });
      const api = await acpApi();
      // Another chat keeps the agent process up: what a session/new sent by mistake would reach.
      const keeper = api.chats.newChat();
      keeper.selectAgent('race');
      assert.equal(await keeper.connect(), true);
      await keeper.composer.send('hello');
      assert.equal(lastReply(keeper), 'answered');
      assert.deepEqual(
        events().map((e) => e.split(' ')[0]),
        ['start', 'session/new'],
      );
      const chat = api.chats.newChat();
      try {
        assert.ok(api.chats.all.includes(keeper), 'the keeper chat is still open');
        chat.selectAgent('race');
        const slow = slowMcpJson();
        const connecting = chat.connect();
        await slow.held;
        giveUp(chat as never);
        slow.release();
        assert.equal(await connecting, false, 'the connect was given up');
        // Time for a session/new that should not be sent to arrive.
        await new Promise((r) => setTimeout(r, 500));
        assert.deepEqual(
          events().map((e) => e.split(' ')[0]),
          ['start', 'session/new'],
          'nothing more reached the agent',
        );
        assert.equal(chat.sessionRef, undefined);
        assert.equal(chatStatus(chat).connection, 'disconnected');

        // Nothing is left half-done: the chat connects and answers afterwards, on the same process.
        restoreFs();
        chat.selectAgent('race');
        assert.equal(await chat.connect(), true);
        await chat.composer.send('hello');
        await waitFor(chat, 'the answer', () => lastReply(chat) === 'answered');
        assert.deepEqual(
          events().map((e) => e.split(' ')[0]),
          ['start', 'session/new', 'session/new'],
        );
      } finally {
        await api.chats.close(chat.id);
        await api.chats.close(keeper.id);
      }
    });
  }
});
