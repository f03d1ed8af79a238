import * as assert from 'node:assert/strict';
import { clientCapabilities, forRemoteAgent, hostCapabilities, type HostFacts } from '../../../src/capabilities';

const linuxDesktop: HostFacts = {
  kind: 'node',
  remoteName: undefined,
  trusted: true,
  localFolder: true,
  descriptorWalk: true,
  terminalsReady: true,
};

describe('capabilities per host', () => {
  it('desktop Linux with a trusted local folder offers files, terminals, terminal sign-in (both forms) and elicitation', () => {
    assert.deepEqual(clientCapabilities(hostCapabilities(linuxDesktop)), {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
      // plan: plan operations, in the unstable schema (the SDK's stable client sends it as given).
      session: { notices: {}, compaction: {}, configOptions: { boolean: {} }, plan: {} },
      _meta: { terminal_output: true, 'subagent-transcript': true, 'terminal-auth': true },
    });
  });

  it('elicitation (forms and URLs, shown in the chat) on every host, trusted or not', () => {
    for (const facts of [
      linuxDesktop,
      { ...linuxDesktop, kind: 'web' as const },
      { ...linuxDesktop, trusted: false },
    ]) {
      assert.deepEqual(clientCapabilities(hostCapabilities(facts)).elicitation, { form: {}, url: {} });
    }
  });

  it("terminal sign-in runs the agent's own program: offered on Node hosts even when the workspace is not trusted, never in the web worker", () => {
    assert.deepEqual(clientCapabilities(hostCapabilities({ ...linuxDesktop, trusted: false })).auth, {
      terminal: true,
    });
    const web = clientCapabilities(hostCapabilities({ ...linuxDesktop, kind: 'web' }));
    assert.deepEqual(
      [web.auth, web._meta],
      [{ terminal: false }, { terminal_output: true, 'subagent-transcript': true }],
    );
  });

  it('no descriptor walk (macOS, Windows): reads yes, writes no, no checkpoints (files are put back only through the walk)', () => {
    const caps = hostCapabilities({ ...linuxDesktop, descriptorWalk: false });
    assert.equal(caps.fileRead, true);
    assert.equal(caps.fileWrite, false);
    assert.equal(caps.checkpoints, false);
  });

  it('checkpoints (the Changes bar) exactly where writes are: Linux, trusted, a local folder', () => {
    assert.equal(hostCapabilities(linuxDesktop).checkpoints, true);
    for (const facts of [
      { ...linuxDesktop, trusted: false },
      { ...linuxDesktop, localFolder: false },
      { ...linuxDesktop, kind: 'web' as const },
    ]) {
      assert.equal(hostCapabilities(facts).checkpoints, false, JSON.stringify(facts));
    }
  });

  it('remote hosts get what their machine can do', () => {
    assert.deepEqual(hostCapabilities({ ...linuxDesktop, remoteName: 'ssh-remote' }), hostCapabilities(linuxDesktop));
  });

  it('an untrusted workspace or no local folder offers nothing', () => {
    for (const facts of [
      { ...linuxDesktop, trusted: false },
      { ...linuxDesktop, localFolder: false },
    ]) {
      assert.deepEqual(clientCapabilities(hostCapabilities(facts)).fs, { readTextFile: false, writeTextFile: false });
      assert.equal(clientCapabilities(hostCapabilities(facts)).terminal, false);
      assert.equal(hostCapabilities(facts).editorServer, false, 'nor the editor server');
    }
  });

  /** What a host that serves nothing of its own offers: only the chat's questions. */
  const nothingLocal = {
    fileRead: false,
    fileWrite: false,
    terminals: false,
    signInTerminal: false,
    checkpoints: false,
    elicitation: true,
    localEnv: false,
    editorServer: false,
  };

  it('the web worker offers no files and no terminals, even if it claimed a local folder; the editor server if trusted', () => {
    // The editor server on the web: served by a bridge that relays it (agentConnection), answered about this workspace.
    assert.deepEqual(hostCapabilities({ ...linuxDesktop, kind: 'web' }), {
      kind: 'web',
      ...nothingLocal,
      editorServer: true,
    });
    assert.equal(hostCapabilities({ ...linuxDesktop, kind: 'web', trusted: false }).editorServer, false);
  });

  it("an agent served elsewhere is offered none of the host's files, terminals or environment values", () => {
    assert.deepEqual(forRemoteAgent(hostCapabilities(linuxDesktop)), { kind: 'node', ...nothingLocal });
    assert.equal(hostCapabilities(linuxDesktop).localEnv, true, 'an agent the Node host starts gets them');
    assert.equal(hostCapabilities(linuxDesktop).editorServer, true, 'and the editor server on its loopback');
  });

  it('the editor server goes to an agent served elsewhere only through a relaying bridge, to a trusted web host', () => {
    const web = hostCapabilities({ ...linuxDesktop, kind: 'web' });
    assert.equal(forRemoteAgent(web).editorServer, false, 'a bridge that does not relay');
    assert.equal(forRemoteAgent(web, true).editorServer, true);
    assert.equal(
      forRemoteAgent(hostCapabilities({ ...linuxDesktop, kind: 'web', trusted: false }), true).editorServer,
      false,
    );
    assert.equal(forRemoteAgent(hostCapabilities(linuxDesktop), true).editorServer, false, "the Node host's loopback");
  });
});
