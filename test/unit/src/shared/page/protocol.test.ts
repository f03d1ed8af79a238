import * as assert from 'node:assert/strict';
import { hostMessageSchema } from '../../../../../src/shared/page/protocol';
import { webviewMessageSchema } from '../../../../../src/shared/page/pageMessages';
import { parseBridgeExit, readBridgeAnnouncement } from '../../../../../src/shared/bridgeProtocol';

describe('webview protocol', () => {
  it('accepts the messages the webview sends', () => {
    for (const m of [
      { type: 'ready' },
      { type: 'prompt', text: 'hi' },
      { type: 'selectAgent', agentId: 'x' },
      { type: 'cancel' },
    ]) {
      assert.ok(webviewMessageSchema.safeParse(m).success, JSON.stringify(m));
    }
  });

  it('rejects malformed messages instead of acting on them', () => {
    for (const m of [
      null,
      'prompt',
      {},
      { type: 'prompt' },
      { type: 'prompt', text: 'x'.repeat(1_000_001) },
      { type: 'attachData', name: 'a.png', base64: 'A'.repeat(8 * 1024 * 1024) },
      { type: 'prompt', text: 5 },
      { type: 'runShell', command: 'rm -rf /' },
    ]) {
      assert.equal(webviewMessageSchema.safeParse(m).success, false, JSON.stringify(m));
    }
  });

  it('rejects host patches with bad indexes; a bad entry becomes an error notice in its place', () => {
    assert.equal(
      hostMessageSchema.safeParse({
        type: 'entries',
        length: 1,
        ops: [{ op: 'set', index: -1, entry: { kind: 'user', id: 'a', text: 'x' } }],
      }).success,
      false,
    );
    const parsed = hostMessageSchema.parse({
      type: 'entries',
      length: 1,
      ops: [{ op: 'set', index: 0, entry: { kind: 'script', id: 'a' } }],
    });
    const op = parsed.type === 'entries' ? parsed.ops[0] : undefined;
    assert.deepEqual(op?.op === 'set' ? { kind: op.entry.kind, id: op.entry.id } : undefined, {
      kind: 'notice',
      id: 'a',
    });
    assert.equal(
      hostMessageSchema.safeParse({ type: 'entries', length: 1, ops: [{ op: 'append', index: 0, text: 'x' }] }).success,
      true,
    );
  });
});

describe("the bridge's extensions", () => {
  const result = (announcement: unknown) => ({ protocolVersion: 1, _meta: { vscodeAcpBridge: announcement } });

  it("reads its announcement from an initialize result's _meta, and nothing else", () => {
    assert.deepEqual(readBridgeAnnouncement(result({ cwd: '/w', agent: { id: 'a', name: 'A' } })), {
      cwd: '/w',
      agent: { id: 'a', name: 'A' },
    });
    for (const other of [
      undefined,
      null,
      { protocolVersion: 1 },
      { _meta: null },
      result({ cwd: 5, agent: { id: 'a', name: 'A' } }),
      result({ cwd: '', agent: { id: 'a', name: 'A' } }),
      result({ cwd: '/w' }),
      result('x'),
    ]) {
      assert.equal(readBridgeAnnouncement(other), undefined, JSON.stringify(other));
    }
  });

  it("takes the bridge machine's OS when it is one it knows, and leaves anything else out", () => {
    const os = (value: unknown) =>
      readBridgeAnnouncement(result({ cwd: '/w', agent: { id: 'a', name: 'A' }, os: value }));
    assert.equal(os('windows')?.os, 'windows');
    assert.equal(os('posix')?.os, 'posix');
    for (const other of ['Windows', 'darwin', '', 1, null, { toString: 'windows' }]) {
      const parsed = os(other);
      assert.ok(parsed && !('os' in parsed), JSON.stringify(other));
    }
  });

  it('bounds what an exit report carries', () => {
    assert.deepEqual(parseBridgeExit({ code: 3, signal: null, stderrTail: 'boom' }), {
      code: 3,
      signal: null,
      stderrTail: 'boom',
    });
    assert.deepEqual(parseBridgeExit({ code: 1.5, signal: 'x'.repeat(100), stderrTail: 7 }), {
      code: null,
      signal: 'x'.repeat(32),
    });
    assert.equal(parseBridgeExit('x')?.stderrTail, undefined);
    assert.equal(parseBridgeExit(null), undefined);
    assert.equal(parseBridgeExit({ stderrTail: 'y'.repeat(5_000) })?.stderrTail?.length, 2_000);
  });
});
