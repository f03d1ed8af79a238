/**
 * What the bridge fuzz test sends: WebSocket upgrade requests drawn from a
 * seeded random source, as raw bytes (a WebSocket client would refuse to send
 * most of them). Their query parameters, headers and paths have the lengths
 * around a close reason's 123 bytes and past Node's 16 KiB of head, and the
 * shapes that trip decoders: multi-byte and astral UTF-8, percent-encoded
 * surrogates, NUL, CR/LF, broken percent-encoding, repeats.
 */
import { Random } from '../../../agent/fuzz/random';

export interface FuzzCase {
  readonly request: Buffer;
  /** The request in short, for a failure's message. */
  readonly summary: string;
  /** Whether the bridge may accept it: the first token parameter, as a URL parser reads the target, is the token. */
  readonly rightToken: boolean;
  /** Whether its head is over Node's 16 KiB (the answer is 431, or 400 for a fault before that). */
  readonly oversized: boolean;
  /** The client resets the connection right after the request. */
  readonly reset: boolean;
}

/** Characters counted: around the 123 bytes of a close reason, around where `no agent "…" here` reaches them. */
const LENGTHS = [0, 1, 2, 44, 45, 46, 60, 61, 62, 63, 64, 65, 105, 106, 107, 108, 122, 123, 124, 125, 1000];
const HUGE = 65_536;

/** Encoded characters by shape; each entry is one character (or one broken piece) as it goes in a URL. */
const SHAPES: Record<string, readonly string[]> = {
  ascii: [...'abcXYZ019-._~'],
  punctuation: [...' !"#$&\'()*+,/:;<=>?@[\\]^`{|}'].map(encodeURIComponent),
  twoBytes: [...'éßΩЖ'].map(encodeURIComponent),
  cjk: [...'中文字漢'].map(encodeURIComponent),
  astral: ['😀', '𝄞', '\u{10ffff}', '👩‍💻', '🏳️‍🌈'].map(encodeURIComponent),
  surrogates: ['%ED%A0%80', '%ED%BF%BF', '%ED%A0%BD%ED%B8%80', '%F0%9F'],
  nul: ['%00'],
  lineBreaks: ['%0D%0A', '%0A', '%0D', '%E2%80%A8', '%C2%85'],
  controls: ['%1B[31m', '%7F', '%08', '%E2%80%AE', '%EF%BB%BF'],
  brokenPercent: ['%E0%A4%A', '%', '%G0', '%%', '%E0%A4', '%F0%9F%98', '%FF', '%C0%AF'],
  // Unencoded: these split and end parameters (Node refuses raw bytes over 0x7f in a target: '/acpé' has one).
  raw: ['&', '=', '?', '#', '+', '%25', ';', '%2', '%%'],
};
const SHAPE_NAMES = Object.keys(SHAPES);

/** Paths: the bridge's two, near misses, and targets a URL parser refuses (`//[`, a port over 65535). */
const PATHS: readonly (readonly [number, string])[] = [
  [60, '/acp'],
  [8, '/'],
  [2, ''],
  [2, '/acp/'],
  [2, '/ACP'],
  [2, '/acp%00'],
  [3, '//['],
  [3, '//a:99999/acp'],
  [3, 'http://[::1'],
  [3, 'http://bridge:1/acp'],
  [2, '*'],
  [2, '/%2e%2e/acp'],
  [2, '\\acp'],
  [2, '/acpé'],
];

const ALLOWED_ORIGIN = 'http://localhost:3000';

/** `count` fuzz cases for a bridge whose token is `token`, from `seed`. */
export function fuzzCases(seed: number, count: number, token: string): FuzzCase[] {
  const random = new Random(seed);
  return Array.from({ length: count }, () => fuzzCase(random, token));
}

function fuzzCase(random: Random, token: string): FuzzCase {
  const path = random.chance(0.05) ? `/${value(random)}` : random.weighted(PATHS);
  const query = queryOf(random, token);
  const target = `${path}${query ? `?${query}` : ''}${random.chance(0.03) ? `#${value(random)}` : ''}`;
  const head = `GET ${target} HTTP/1.1\r\n${headersOf(random).join('')}\r\n`;
  const request = Buffer.concat([Buffer.from(head), random.chance(0.08) ? junkFrame(random) : Buffer.alloc(0)]);
  return {
    request,
    summary: summaryOf(head),
    rightToken: tokenOf(target) === token,
    oversized: Buffer.byteLength(head) > 16 * 1024,
    reset: random.chance(0.08),
  };
}

/** `head` line by line, each line cut to its start and length. */
function summaryOf(head: string): string {
  const lines = head.split('\r\n').filter(Boolean);
  return lines.map((l) => JSON.stringify(l.length > 200 ? `${l.slice(0, 200)}…(${l.length} chars)` : l)).join('\n  ');
}

/** A value of a fuzzed length and shape (rarely far too long), percent-encoded. */
function value(random: Random): string {
  const length = random.chance(0.01) ? HUGE : random.pick(LENGTHS);
  const shapes = random.chance(0.3) ? SHAPE_NAMES : [random.pick(SHAPE_NAMES)];
  let text = '';
  for (let i = 0; i < length; i++) text += random.pick(SHAPES[random.pick(shapes)]);
  return text;
}

/** The query: token, agent and unknown parameters, each maybe repeated, absent or oddly named, in any order. */
function queryOf(random: Random, token: string): string {
  const params: string[] = [];
  const tokenParam = random.chance(0.05) ? 'tok%65n' : 'token';
  const tokens = random.weighted<string[]>([
    [10, []],
    [45, [token]],
    [30, [value(random)]],
    [5, [token + value(random)]],
    [5, [value(random), token]],
    [5, [token, value(random)]],
  ]);
  for (const t of tokens) params.push(`${tokenParam}=${t}`);
  const agents = random.weighted<string[]>([
    [25, []],
    [10, ['custom']],
    [55, [value(random)]],
    [10, [value(random), 'custom']],
  ]);
  for (const a of agents) params.push(`agent=${a}`);
  for (let n = random.int(4); n > 0; n--) {
    params.push(random.chance(0.2) ? value(random) : `${value(random)}=${value(random)}`);
  }
  for (let i = params.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [params[i], params[j]] = [params[j], params[i]];
  }
  return params.join(random.pick(['&', '&', '&', '&&', ';']));
}

/** The token a URL parser finds in `target` (the bridge reads the first), or undefined if it finds no URL. */
function tokenOf(target: string): string | null | undefined {
  try {
    return new URL(target, 'http://bridge').searchParams.get('token');
  } catch {
    return undefined;
  }
}

/** The headers of a WebSocket upgrade, each mostly right, sometimes absent, repeated, long or odd. */
function headersOf(random: Random): string[] {
  const header = (name: string, right: string, odd: readonly string[], pAbsent = 0.02, pOdd = 0.06) => {
    if (random.chance(pAbsent)) return [];
    const values = random.chance(pOdd) ? [random.pick(odd)] : [right];
    if (random.chance(0.04)) values.push(random.pick([right, ...odd]));
    return values.map((v) => `${name}: ${v}\r\n`);
  };
  const long = (prefix: string, n: number) => prefix + 'x'.repeat(n);
  const key = Buffer.from(Array.from({ length: 16 }, () => random.int(256))).toString('base64');
  const headers = [
    ...header('Host', '127.0.0.1', ['', '[', long('h', 1000), 'bridge:99999', 'é中😀', 'a b']),
    ...header('Upgrade', 'websocket', ['WebSocket', 'h2c', 'websocket, h2c', ''], 0.01),
    ...header('Connection', 'Upgrade', ['keep-alive, Upgrade', 'close', 'upgrade'], 0.01),
    ...header('Sec-WebSocket-Key', key, ['', 'x', long('k', 1000), 'é中😀'], 0.02),
    ...header('Sec-WebSocket-Version', '13', ['8', '99', 'abc', '13, 13'], 0.02),
    ...header(
      'Origin',
      ALLOWED_ORIGIN,
      [
        'https://evil.example',
        'null',
        long(ALLOWED_ORIGIN, 1000),
        long(ALLOWED_ORIGIN, 20_000),
        'http://localhost:99999',
        'http://localhost:3000 ',
        'http://localhost:3000é',
        'http://LOCALHOST:3000',
        '',
      ],
      0.03,
      0.15,
    ),
  ];
  if (random.chance(0.3)) {
    headers.push(
      ...header('Sec-WebSocket-Protocol', 'acp', ['a, b', 'a b', ',,', '', long('p', 1000), 'é中😀', 'acp, acp'], 0),
    );
  }
  if (random.chance(0.1)) {
    headers.push(`${random.pick(['X-Fuzz', 'x'.repeat(1000), 'A:B', 'é'])}: ${value(random)}\r\n`);
  }
  if (random.chance(0.02)) headers.push(random.pick([' folded\r\n', 'Bare: lf\n', 'NoColon\r\n', 'Nul: a\u0000b\r\n']));
  for (let i = headers.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [headers[i], headers[j]] = [headers[j], headers[i]];
  }
  return headers;
}

/** Bytes sent after the head, taken as the first WebSocket frames: each breaks the protocol one way. */
function junkFrame(random: Random): Buffer {
  const mask = [1, 2, 3, 4];
  return Buffer.from(
    random.pick([
      [0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...mask], // a text frame of 2^63 - 1 bytes
      [0x81, 0xff, 0, 0, 0, 0, 0x10, 0, 0, 1, ...mask], // just over the largest message
      [0x81, 0x05, ...Buffer.from('hello')], // not masked
      [0x83, 0x80, ...mask], // a reserved opcode
      [0x88, 0xfe, 0x00, 0xc8, ...mask, ...Buffer.alloc(200)], // a close frame over 125 bytes
      [0x88, 0x84, ...mask, 0x03 ^ 1, 0xe8 ^ 2, 0xc3 ^ 3, 0x28 ^ 4], // a close reason that is not UTF-8
      Array.from({ length: 64 }, () => random.int(256)),
    ]),
  );
}
