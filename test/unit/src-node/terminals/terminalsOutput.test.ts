/**
 * Terminal output: stdout and stderr in arrival order, the byte limit cut on
 * a UTF-8 character boundary, live events. Real processes (node -e) write
 * the exact bytes; the buffer rules are also checked directly.
 */
import * as assert from 'node:assert/strict';
import { TerminalHost, prepareLaunch } from '../../../../src-node/terminals';
import { OutputBuffer, Utf8Splitter } from '../../../../src-node/terminals/outputBuffer';
import { makeTerminalSandbox, type TerminalSandbox } from './terminalsSandbox.test';

describe('terminals: output', () => {
  let s: TerminalSandbox;
  let host: TerminalHost;
  beforeEach(() => {
    s = makeTerminalSandbox();
    host = new TerminalHost({ killGraceMs: 200 });
  });
  afterEach(async () => {
    await host.disposeAll();
    s.cleanup();
  });

  /** Runs `node -e script` to the end and returns its terminal output. */
  async function run(script: string, outputByteLimit?: number) {
    const launch = await prepareLaunch(
      { command: process.execPath, args: ['-e', script], outputByteLimit },
      { root: s.root, env: s.env },
    );
    const id = await host.create(launch);
    await host.waitForExit(id);
    return { id, ...host.output(id) };
  }

  it('captures stdout and stderr interleaved in arrival order', async () => {
    const script = `const w = (s, t) => s.write(t); const steps = [[process.stdout, 'out1 '], [process.stderr, 'err1 '], [process.stdout, 'out2 '], [process.stderr, 'err2']];
      (function next(i) { if (i < steps.length) { w(...steps[i]); setTimeout(() => next(i + 1), 60); } })(0);`;
    const out = await run(script);
    assert.equal(out.output, 'out1 err1 out2 err2');
    assert.equal(out.truncated, false);
    assert.deepEqual(out.exitStatus, { exitCode: 0, signal: null });
  });

  it('keeps the newest bytes and cuts on a character boundary (3-byte €)', async () => {
    // "x€€€€" is 13 bytes; the newest 10 start inside the first €, so 9 bytes remain.
    const out = await run(`process.stdout.write('x€€€€')`, 10);
    assert.equal(out.output, '€€€');
    assert.equal(out.truncated, true);
  });

  it('cuts on a character boundary for 4-byte characters, and at a limit of one byte', async () => {
    assert.equal((await run(`process.stdout.write('ab😀😀')`, 6)).output, '😀');
    const tiny = await run(`process.stdout.write('é')`, 1);
    assert.deepEqual([tiny.output, tiny.truncated], ['', true]);
    assert.deepEqual([(await run(`process.stdout.write('abc')`, 0)).output], ['']);
  });

  it('does not let the other stream split a character that arrives in two reads', async () => {
    // The first byte of € on stdout, then "E" on stderr, then the rest of €.
    const script = `process.stdout.write(Buffer.from([0xe2])); setTimeout(() => { process.stderr.write('E');
      setTimeout(() => process.stdout.write(Buffer.from([0x82, 0xac, 0x21])), 80); }, 80);`;
    assert.equal((await run(script)).output, 'E€!');
  });

  it('keeps an incomplete character at the very end of a stream', async () => {
    assert.equal((await run(`process.stdout.write(Buffer.from([0x41, 0xe2]))`)).output, 'A\uFFFD');
  });

  it('keeps long output within the limit, newest last', async () => {
    const out = await run(`for (let i = 0; i < 20000; i++) process.stdout.write('line ' + i + ' ü\\n')`, 1000);
    assert.ok(Buffer.byteLength(out.output) <= 1000);
    assert.ok(Buffer.byteLength(out.output) >= 997);
    assert.ok(out.output.endsWith('line 19999 ü\n'));
    assert.ok(!out.output.includes('\uFFFD'));
  });

  it('reports the exit once the output pipes close, so output still in flight is included', async () => {
    host = new TerminalHost({ exitDrainMs: 3_000 });
    // The shell exits at once; its background child still writes to the same pipe.
    const launch = await prepareLaunch(
      { command: '/bin/sh', args: ['-c', '(sleep 0.2; echo late) & exit 0'] },
      { root: s.root, env: s.env },
    );
    const id = await host.create(launch);
    assert.deepEqual(await host.waitForExit(id), { exitCode: 0, signal: null });
    assert.equal(host.output(id).output, 'late\n');
  });

  it('sends the same text live through onOutput, and the exit through onExit once', async () => {
    const chunks: string[] = [];
    const exits: unknown[] = [];
    host.onOutput((_id, chunk) => chunks.push(chunk));
    host.onExit((id, status) => exits.push([id, status]));
    const out = await run(`process.stdout.write('a€'); process.stderr.write('b'); process.exitCode = 4`);
    assert.equal(chunks.join(''), out.output);
    assert.deepEqual(exits, [[out.id, { exitCode: 4, signal: null }]]);
  });

  it('keeps going when a listener throws', async () => {
    const errors: unknown[] = [];
    host = new TerminalHost({ onListenerError: (e) => errors.push(e) });
    host.onOutput(() => {
      throw new Error('listener bug');
    });
    const out = await run(`console.log('still here')`);
    assert.equal(out.output, 'still here\n');
    assert.ok(errors.length >= 1);
  });
});

describe('terminals: output buffer rules', () => {
  it('drops whole leading characters only, and reports truncation', () => {
    const buffer = new OutputBuffer(5);
    buffer.append(Buffer.from('aé'));
    assert.deepEqual(buffer.snapshot(), { output: 'aé', truncated: false });
    buffer.append(Buffer.from('éé'));
    assert.deepEqual(buffer.snapshot(), { output: 'éé', truncated: true });
  });

  it('keeps output that starts with stray continuation bytes when nothing was cut', () => {
    const buffer = new OutputBuffer(10);
    buffer.append(Buffer.from([0x80, 0x41]));
    assert.deepEqual(buffer.snapshot(), { output: '\uFFFDA', truncated: false });
  });

  it('keeps the decoded text of invalid bytes within the limit too', () => {
    const buffer = new OutputBuffer(4);
    buffer.append(Buffer.from([0xff, 0xff, 0xff, 0x41]));
    const { output } = buffer.snapshot();
    assert.ok(Buffer.byteLength(output) <= 4, output);
    assert.ok(output.endsWith('A'));
  });

  it('holds back exactly the lead bytes that start a character still incomplete, by their range', () => {
    // [lead byte, bytes its character has]: 0 for a byte that starts no character (passed on at once, as is).
    const leads: Array<[number, number]> = [
      [0x41, 1],
      [0x7f, 1],
      [0xc0, 0],
      [0xc1, 0],
      [0xc2, 2],
      [0xdf, 2],
      [0xe0, 3],
      [0xef, 3],
      [0xf0, 4],
      [0xf4, 4],
      [0xf5, 0],
      [0xff, 0],
    ];
    for (const [lead, length] of leads) {
      // The lead byte and every count of continuation bytes short of a whole character: held back, after the text before it.
      for (let have = 1; have < length; have++) {
        const splitter = new Utf8Splitter();
        const partial = [lead, ...Array(have - 1).fill(0x80)];
        assert.deepEqual(
          [...splitter.push(Buffer.from([0x61, ...partial]))],
          [0x61],
          `0x${lead.toString(16)} with ${have} of ${length} bytes`,
        );
        assert.deepEqual([...splitter.end()], partial);
        // And alone: a read that is nothing but the incomplete character.
        const alone = new Utf8Splitter();
        assert.equal(
          alone.push(Buffer.from(partial)).length,
          0,
          `0x${lead.toString(16)} with ${have} of ${length} bytes, alone`,
        );
      }
      // A whole character (or a byte that starts none) goes at once.
      const whole = [lead, ...Array(Math.max(length - 1, 0)).fill(0x80)];
      const splitter = new Utf8Splitter();
      assert.deepEqual(
        [...splitter.push(Buffer.from([0x61, ...whole]))],
        [0x61, ...whole],
        `0x${lead.toString(16)} whole`,
      );
      assert.equal(splitter.end().length, 0);
    }
  });

  it('passes on stray continuation bytes at the end of a read (no lead byte within 4 bytes back)', () => {
    const splitter = new Utf8Splitter();
    const stray = [0x61, 0x80, 0x80, 0x80, 0x80];
    assert.deepEqual([...splitter.push(Buffer.from(stray))], stray);
    assert.deepEqual([...splitter.push(Buffer.from([0xbf]))], [0xbf]);
    assert.equal(splitter.end().length, 0);
  });

  it('after a cut, skips at most three continuation bytes to the next character', () => {
    const buffer = new OutputBuffer(5);
    // A 4-byte lead followed by four continuation bytes (invalid: one too many) and "B"; the cut leaves 80 80 80 80 42.
    buffer.append(Buffer.from([0xf0, 0x80, 0x80, 0x80, 0x80, 0x42]));
    assert.deepEqual(buffer.snapshot(), { output: '\uFFFDB', truncated: true });
  });

  it('cuts at exactly the limit: output as long as the limit is whole, one byte more drops the first', () => {
    const buffer = new OutputBuffer(4);
    buffer.append(Buffer.from('ab'));
    buffer.append(Buffer.from('cd'));
    assert.deepEqual(buffer.snapshot(), { output: 'abcd', truncated: false });
    buffer.append(Buffer.from(''));
    assert.deepEqual(buffer.snapshot(), { output: 'abcd', truncated: false }, 'an empty read changes nothing');
    buffer.append(Buffer.from('e'));
    assert.deepEqual(buffer.snapshot(), { output: 'bcde', truncated: true });
    buffer.append(Buffer.from('fghi'));
    assert.deepEqual(
      buffer.snapshot(),
      { output: 'fghi', truncated: true },
      'a read as long as the limit replaces it all',
    );
  });

  it('never holds more than its limit, whatever the sizes of the reads (a read shorter than what must go is dropped whole)', () => {
    const buffer = new OutputBuffer(10);
    let all = '';
    for (const size of [3, 9, 1, 4, 12, 2, 2, 7, 30, 1, 5]) {
      const piece = String.fromCharCode(0x61 + (all.length % 26)).repeat(size);
      all += piece;
      buffer.append(Buffer.from(piece));
      assert.equal(
        buffer.heldBytes,
        Math.min(all.length, 10),
        `holds ${buffer.heldBytes} bytes after a read of ${size}`,
      );
      assert.equal(buffer.snapshot().output, all.slice(-10));
    }
  });

  it('keeps the newest bytes in order across many tiny reads (past the point where pieces are joined)', () => {
    const buffer = new OutputBuffer(1000);
    let all = '';
    for (let i = 0; i < 700; i++) {
      const piece = String.fromCharCode(0x61 + (i % 26));
      all += piece;
      buffer.append(Buffer.from(piece));
    }
    assert.deepEqual(buffer.snapshot(), { output: all, truncated: false });
    for (let i = 0; i < 700; i++) {
      all += String(i % 10);
      buffer.append(Buffer.from(String(i % 10)));
    }
    assert.deepEqual(buffer.snapshot(), { output: all.slice(-1000), truncated: true });
  });

  it('holds back an incomplete character until its stream completes it', () => {
    const splitter = new Utf8Splitter();
    const euro = Buffer.from('€');
    assert.equal(splitter.push(euro.subarray(0, 1)).length, 0);
    assert.equal(splitter.push(euro.subarray(1, 2)).length, 0);
    assert.equal(splitter.push(Buffer.concat([euro.subarray(2), Buffer.from('x')])).toString(), '€x');
    assert.equal(splitter.push(Buffer.from([0xf0, 0x9f])).length, 0);
    assert.deepEqual([...splitter.end()], [0xf0, 0x9f]);
  });
});
