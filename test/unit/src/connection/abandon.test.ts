/**
 * Requests the extension gives up (no VS Code, the scripted agent over the
 * SDK): the agent is told with `$/cancel_request`, and nothing is sent in
 * their place: a listing given up (Refresh), a session open the user
 * cancelled, a sign-in they gave up.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentListing } from '../../../../src/history/sessionListing';
import { scriptedHost, shown, until, type ScriptedHost } from '../chat/scriptedHost';

const turns = [{ match: 'report cancelled', steps: [{ reportCancelled: true }] }];

describe('requests given up: $/cancel_request', function () {
  this.timeout(20_000);
  let host: ScriptedHost;
  let dir: string;
  let events: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-abandon-'));
    events = path.join(dir, 'events');
  });
  afterEach(async () => {
    await host.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const said = () => (fs.existsSync(events) ? fs.readFileSync(events, 'utf8').trim().split('\n') : []);

  it('a listing given up: the agent is told, the listing says why, and the next one is answered', async () => {
    host = scriptedHost({
      agentCapabilities: { sessionCapabilities: { list: {} } },
      hang: { 'session/list': 1 },
      turns,
    });
    const chat = await host.connectedChat();
    const connection = chat.liveConnection!;
    const listing = new AgentListing();
    const listed = listing.list(connection, false, false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    listing.abandon();
    await listed;
    assert.deepEqual(listing.state, { kind: 'error', message: 'the listing was given up' });
    await chat.composer.send('report cancelled');
    assert.match(shown(chat), /\[cancelled: \["session\/list"\]\]/);
    const again = new AgentListing();
    await again.list(connection, false, false);
    assert.equal(again.state.kind, 'listed');
  });

  it('a session open the user cancels: the agent is told, and no other session is asked for instead', async () => {
    // The second session/new hangs: the first chat keeps the process, so only $/cancel_request can end the wait.
    host = scriptedHost({ hang: { 'session/new': 2 }, eventsFile: events, turns });
    const first = await host.connectedChat();
    await first.composer.send('report cancelled');
    const chat = await host.newChat();
    const connecting = chat.connect();
    await until('the agent to get session/new', () => said().filter((l) => l === 'session/new').length === 2);
    await chat.disconnect();
    assert.equal(await connecting, false);
    await first.composer.send('report cancelled');
    assert.match(shown(first), /\[cancelled: \[\]\][\s\S]*\[cancelled: \["session\/new"\]\]/);
    assert.deepEqual(
      said().filter((line) => !line.startsWith('start ')),
      ['session/new', 'session/new', 'hanging session/new', 'cancelled session/new'],
      'no other session asked for instead',
    );
  });

  it('a sign-in given up (Cancel on its notification): the agent is told, and the chat says it was cancelled', async () => {
    host = scriptedHost(
      {
        requireAuth: true,
        authMethods: [{ id: 'browser-login', name: 'Log in with a browser' }],
        hang: { authenticate: 1 },
        eventsFile: events,
        turns,
      },
      { pickFirst: true },
    );
    const chat = await host.newChat();
    const connecting = chat.connect();
    await until('the sign-in notification', () => host.progress.length === 1);
    assert.equal(host.progress[0], 'Signing in to Test Agent 1.0.0…');
    host.cancelProgress();
    assert.equal(await connecting, false);
    assert.match(shown(chat), /Signing in to Test Agent 1\.0\.0 was cancelled\./);
    await until('the agent to be told', () => said().includes('cancelled authenticate'));
  });
});
