import * as assert from 'node:assert/strict';
import { hostMessageSchema } from '../../../../src/shared/protocol';
import { webviewMessageSchema } from '../../../../src/shared/pageMessages';
import { parseBridgeHello } from '../../../../src/shared/bridgeProtocol';

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

describe('bridge hello', () => {
  it('parses the hello frame and nothing else', () => {
    assert.deepEqual(parseBridgeHello('{"vscodeAcpBridge":1,"cwd":"/w","agent":{"id":"a","name":"A"}}'), {
      vscodeAcpBridge: 1,
      cwd: '/w',
      agent: { id: 'a', name: 'A' },
    });
    assert.equal(parseBridgeHello('{"jsonrpc":"2.0","id":1,"result":{}}'), undefined);
    assert.equal(parseBridgeHello('not json'), undefined);
    assert.equal(parseBridgeHello('{"vscodeAcpBridge":1,"cwd":5,"agent":{"id":"a","name":"A"}}'), undefined);
  });

  it("takes the bridge machine's OS when it is one it knows, and leaves anything else out", () => {
    const hello = (os: unknown) =>
      parseBridgeHello(JSON.stringify({ vscodeAcpBridge: 1, cwd: '/w', agent: { id: 'a', name: 'A' }, os }));
    assert.equal(hello('windows')?.os, 'windows');
    assert.equal(hello('posix')?.os, 'posix');
    for (const other of ['Windows', 'darwin', '', 1, null, { toString: 'windows' }]) {
      const parsed = hello(other);
      assert.ok(parsed && !('os' in parsed), JSON.stringify(other));
    }
  });
});
