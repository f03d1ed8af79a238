/** The bridge's close reasons: one line, at most 123 bytes of UTF-8, cut between characters. */
import * as assert from 'node:assert/strict';
import { closeReason, cutUtf8, MAX_CLOSE_REASON_BYTES } from '../../../../src-node/bridge/closeReason';

const bytes = (text: string) => Buffer.byteLength(text);
/** Whether `text` has a surrogate that is not half of a pair (a cut inside a character). */
const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

describe('bridge close reasons', () => {
  it('fit in the 123 bytes a WebSocket close reason may hold, on one line', () => {
    assert.equal(closeReason('  Agent\n exited\t\twith   code 1 \r\n'), 'Agent exited with code 1');
    const exact = 'a'.repeat(123);
    assert.equal(closeReason(exact), exact);
    const long = closeReason(`Agent exited with code 1: ${'x'.repeat(200)}`);
    assert.equal(bytes(long), 123);
    assert.ok(long.startsWith('Agent exited with code 1: xxx') && long.endsWith('…'), long);
    const wide = closeReason('€'.repeat(100));
    assert.ok(bytes(wide) <= 123 && /^€+…$/.test(wide), wide);
  });

  it('keep no control character and no lone surrogate', () => {
    assert.equal(closeReason('a\u0000b\u001b[31mc\u007fd\u2028e'), 'a b [31mc d e');
    assert.equal(closeReason('x\ud800y\udc00z'), 'x\ufffdy\ufffdz');
    assert.equal(closeReason('pair \ud83d\ude00 kept'), 'pair \ud83d\ude00 kept');
  });

  it('are cut between characters of every width, at every length around the limit', () => {
    for (const char of ['a', 'é', '€', '中', '😀', '\u{10ffff}']) {
      for (let count = 0; count <= 130; count++) {
        for (const prefix of ['', 'x', 'xy', 'xyz']) {
          const text = prefix + char.repeat(count);
          const reason = closeReason(text);
          const at = `${JSON.stringify(prefix)} + ${count} × ${char}`;
          assert.ok(bytes(reason) <= MAX_CLOSE_REASON_BYTES, `${at}: ${bytes(reason)} bytes`);
          assert.ok(!hasLoneSurrogate(reason), `${at}: a character was cut in two`);
          if (bytes(text) <= MAX_CLOSE_REASON_BYTES) assert.equal(reason, text, at);
          else assert.ok(reason.endsWith('…') && text.startsWith(reason.slice(0, -1)), at);
          // Nothing that would have fit was dropped: one more character would not fit with the "…".
          if (reason !== text) assert.ok(bytes(reason) + bytes(char) > MAX_CLOSE_REASON_BYTES, at);
        }
      }
    }
  });

  it('read only the start of a long text', () => {
    const huge = '😀'.repeat(1 << 20);
    const started = performance.now();
    for (let i = 0; i < 100; i++) assert.ok(bytes(cutUtf8(huge, 123)) <= 123);
    assert.ok(performance.now() - started < 500, 'cutting a long text reads all of it');
  });
});
