/**
 * An agent served elsewhere over ACP's standard remote transport: the chat
 * core (no VS Code) reaches the scripted agent behind the SDK's own server
 * (WebSocket, a real socket on loopback) with the SDK's client. Such an agent
 * is offered no file access or terminals; its server going away ends the chat
 * as a lost connection; a URL nobody serves says so.
 */
import * as assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { loadScenario } from '../../agent/scenario';
import { serveScenario, type ServedScenario } from '../../agent/standardServe';
import { openStandardTransport, shownUrl } from '../../../src/connection/standardTransport';
import { scriptedHost, shown, until, type ScriptedHost } from '../src/chat/scriptedHost';

const scenario = {
  turns: [
    { match: 'which capabilities', steps: [{ reportCapabilities: true }] },
    { match: '', steps: [{ text: 'Hello over the standard transport.' }] },
  ],
};

/** The scenario served, with a query standing for a token (it must never be shown). */
async function serve(): Promise<ServedScenario> {
  const served = await serveScenario(loadScenario(JSON.stringify(scenario)));
  return { ...served, url: `${served.url}?token=secret-in-query` };
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
        connect: () => openStandardTransport(server.url, '/remote/ws', WebSocket as never),
      },
    );
    const chat = await host.connectedChat();
    assert.equal(chat.session?.cwd, '/remote/ws');
    await chat.send('Say hello');
    assert.match(shown(chat), /Hello over the standard transport\./);
    await chat.send('which capabilities');
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
    host = scriptedHost({}, { connect: () => openStandardTransport(server.url, '/remote/ws', WebSocket as never) });
    const chat = await host.connectedChat();
    await server.close();
    await until('the chat to hear', () => /closed the connection|was lost/.test(shown(chat)), 10_000);
    assert.match(shown(chat), /ws:\/\/127\.0\.0\.1:\d+\/acp/);
    assert.doesNotMatch(shown(chat), /secret-in-query/);
    server = await serve();
  });

  it('a URL nobody serves: a clear error, before any ACP is spoken', async () => {
    await assert.rejects(
      openStandardTransport('ws://127.0.0.1:9/acp?token=x', '/w', WebSocket as never),
      (error: Error) => {
        assert.match(error.message, /^No ACP agent accepted a connection at ws:\/\/127\.0\.0\.1:9\/acp: /);
        assert.doesNotMatch(error.message, /token=x/);
        return true;
      },
    );
    assert.equal(shownUrl('wss://agents.example:8443/team/acp?token=t#x'), 'wss://agents.example:8443/team/acp');
  });
});
