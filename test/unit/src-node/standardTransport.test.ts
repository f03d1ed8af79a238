/**
 * An agent served elsewhere over ACP's standard remote transport: the chat
 * core (no VS Code) reaches the scripted agent behind the SDK's own server
 * (WebSocket, a real socket on loopback), and behind our bridge, with the
 * SDK's client. Such an agent is offered no file access or terminals; its
 * server going away ends the chat as a lost connection; a URL nobody serves
 * says so. The bridge's extensions are read: the folder it runs the agent in,
 * the agent's exit report, its refusals.
 */
import * as assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { loadScenario } from '../../agent/scenario';
import { serveScenario, type ServedScenario } from '../../agent/standardServe';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startBridge, type RunningBridge } from '../../../src-node/bridge/bridgeServer';
import {
  openStandardTransport,
  shownUrl,
  type StandardTransportOptions,
} from '../../../src/connection/wire/standardTransport';
import { AgentUnreachableError, type ConnectContext } from '../../../src/platform';
import { scriptedHost, shown, until, type ScriptedHost } from '../src/chat/scriptedHost';
import { ORIGIN, agentJs, loopbackBridge, scenarios } from './bridge/bridgeClient';

const MISSING = 'Set "cwd" for it.';
/**
 * Opens `url` as the hosts do, with the `ws` package's WebSocket, from an origin the bridge allows (a browser's
 * socket always says its page's: the bridge refuses one that does not).
 */
const open = (url: string, context: ConnectContext, more: Partial<StandardTransportOptions> = {}) =>
  openStandardTransport(url, FromPage as never, context, { missingCwd: MISSING, ...more });
class FromPage extends WebSocket {
  constructor(url: string, protocols?: string | string[], options?: object) {
    super(url, protocols, { ...options, origin: ORIGIN });
  }
}

const scenario = {
  turns: [
    { match: 'which capabilities', steps: [{ reportCapabilities: true }] },
    { match: '', steps: [{ text: 'Hello over the standard transport.' }] },
  ],
};

/** The scenario served, with a query standing for a token (it must never be shown). */
async function serve(): Promise<ServedScenario> {
  const served = await serveScenario(loadScenario(JSON.stringify(scenario)));
  return { ...served, url: `${served.url}?token=secret-in-query`, httpUrl: `${served.httpUrl}?token=secret-in-query` };
}

describe('an agent served over the standard remote transport (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let server: ServedScenario;
  beforeEach(async () => {
    server = await serve();
  });
  afterEach(async () => {
    await host?.dispose();
    await server.close();
  });

  it('a whole turn through the SDK server and client; it is offered no files or terminals, whatever the host has', async () => {
    host = scriptedHost(
      {},
      {
        fileRead: true,
        trusted: true,
        connect: (context) => open(server.url, context, { cwd: '/remote/ws' }),
      },
    );
    const chat = await host.connectedChat();
    assert.equal(chat.sessionRef?.cwd, '/remote/ws');
    await chat.composer.send('Say hello');
    assert.match(shown(chat), /Hello over the standard transport\./);
    await chat.composer.send('which capabilities');
    const caps = JSON.parse(/\[capabilities: (.*)\]/.exec(shown(chat))?.[1] ?? 'null') as {
      fs: unknown;
      terminal: unknown;
      auth: unknown;
    };
    assert.deepEqual(
      [caps.fs, caps.terminal, caps.auth],
      [{ readTextFile: false, writeTextFile: false }, false, { terminal: false }],
    );
  });

  it('its server going away ends the chat as a lost connection, said with the URL and never its query', async () => {
    host = scriptedHost({}, { connect: (context) => open(server.url, context, { cwd: '/remote/ws' }) });
    const chat = await host.connectedChat();
    await server.close();
    await until('the chat to hear', () => /closed the connection|was lost/.test(shown(chat)), 10_000);
    assert.match(shown(chat), /ws:\/\/127\.0\.0\.1:\d+\/acp/);
    assert.doesNotMatch(shown(chat), /secret-in-query/);
    server = await serve();
  });

  it('over Streamable HTTP too: a whole turn, and the server going away is a lost connection, said without the query', async () => {
    host = scriptedHost({}, { connect: (context) => open(server.httpUrl, context, { cwd: '/remote/http' }) });
    const chat = await host.connectedChat();
    assert.equal(chat.sessionRef?.cwd, '/remote/http');
    await chat.composer.send('Say hello');
    assert.match(shown(chat), /Hello over the standard transport\./);
    await server.close();
    await chat.composer.send('Say hello again');
    await until('the chat to hear', () => /was lost|Reconnecting/.test(shown(chat)), 10_000);
    assert.match(shown(chat), /http:\/\/127\.0\.0\.1:\d+\/acp/);
    assert.doesNotMatch(shown(chat), /secret-in-query/);
    server = await serve();
  });

  it('an HTTP URL nobody serves: the first request says so, worth another try', async () => {
    host = scriptedHost({}, { connect: (context) => open('http://127.0.0.1:9/acp?token=x', context, { cwd: '/w' }) });
    const chat = await host.newChat();
    assert.equal(await chat.connect(), false);
    assert.match(
      shown(chat),
      /Could not connect to Scripted Agent: No ACP agent accepted a connection at http:\/\/127\.0\.0\.1:9\/acp/,
    );
    assert.doesNotMatch(shown(chat), /token=x/);
    const error = chat.thread.entries.find((e) => e.kind === 'notice' && e.text.startsWith('Could not connect'));
    assert.equal(error?.kind === 'notice' && error.action, 'retry');
  });

  it('a server that does not say its folder, and none configured: the chat says to set one', async () => {
    host = scriptedHost({}, { connect: (context) => open(server.url, context) });
    const chat = await host.newChat();
    assert.equal(await chat.connect(), false);
    assert.match(shown(chat), /Could not connect to Scripted Agent: Set "cwd" for it\./);
  });

  it('a URL nobody serves: a clear error, worth another try, before any ACP is spoken', async () => {
    const context = { log: { info: () => undefined }, onProtocolWarning: () => undefined } as never;
    await assert.rejects(open('ws://127.0.0.1:9/acp?token=x', context, { unreachableHint: 'Start one.' }), (error) => {
      assert.ok(error instanceof AgentUnreachableError);
      assert.match(
        error.message,
        /^No ACP agent accepted a connection at ws:\/\/127\.0\.0\.1:9\/acp: .*\. Start one\.$/,
      );
      assert.doesNotMatch(error.message, /token=x/);
      return true;
    });
    assert.equal(shownUrl('wss://agents.example:8443/team/acp?token=t#x'), 'wss://agents.example:8443/team/acp');
  });
});

describe('the bridge through the standard transport (no VS Code)', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let bridge: RunningBridge;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bridge-client-'));
    bridge = await startBridge(
      loopbackBridge(
        [
          {
            id: 'test',
            name: 'Crashy',
            command: process.execPath,
            args: [agentJs, path.join(scenarios, 'crash.json')],
          },
        ],
        { cwd: tmp },
      ),
      () => undefined,
    );
  });
  afterEach(() => host?.dispose());
  after(async () => {
    await bridge.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("works in the folder the bridge says, and tells the agent's end with its own words and stderr", async () => {
    host = scriptedHost({}, { connect: (context) => open(bridge.url, context) });
    const chat = await host.connectedChat();
    assert.equal(chat.sessionRef?.cwd, tmp);
    await chat.composer.send('one');
    await chat.composer.send('two');
    await until('the exit to be told', () => /exited with code 3/.test(shown(chat)), 10_000);
    assert.match(
      shown(chat),
      /The agent stopped: Test Agent exited with code 3\./,
      'named by its own name (agentInfo)',
    );
    assert.match(shown(chat), /boom: simulated crash/);
    assert.doesNotMatch(shown(chat), /was lost|Reconnecting/, 'an exit is not a lost connection');
  });

  it('says why the bridge refused: a wrong token', async () => {
    host = scriptedHost({}, { connect: (context) => open(bridge.url.replace(/token=[^&]+/, 'token=wrong'), context) });
    const chat = await host.newChat();
    assert.equal(await chat.connect(), false);
    assert.match(shown(chat), /Could not connect to Scripted Agent: The bridge refused the token\./);
  });
});
