// Mutations of a valid message: the value at one random place becomes
// something the schema does not allow, or the line itself is broken.
import type { Random } from './random';

type Json = unknown;

/** Values of the wrong kind, or of absurd size, for any place in a message. */
function wrongValue(random: Random): Json {
  return random.weighted<() => Json>([
    [3, () => null],
    [2, () => random.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2])],
    [2, () => random.pick([true, false])],
    [3, () => random.pick(['', 'x', '\uD800', 'not-a-kind', '__proto__'])],
    [2, () => []],
    [2, () => ({})],
    // Own "__proto__" keys, as JSON.parse makes them (an object literal would set the prototype).
    [1, () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}')],
    // Deep nesting: recursion in the client must not overflow.
    [1, () => JSON.parse('['.repeat(1_500) + ']'.repeat(1_500))],
    [1, () => JSON.parse('{"a":'.repeat(1_000) + '1' + '}'.repeat(1_000))],
    // Wide: many items.
    [1, () => Array.from({ length: 20_000 }, (_, i) => i)],
    [1, () => Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]))],
  ])();
}

/** Every [parent, key] place in the value, for picking one to mutate. */
function places(value: Json, out: [Record<string, Json> | Json[], string | number][] = [], depth = 0): typeof out {
  if (depth > 12 || typeof value !== 'object' || value === null) return out;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([value, i]);
      places(item, out, depth + 1);
    });
  } else {
    for (const [key, item] of Object.entries(value)) {
      out.push([value as Record<string, Json>, key]);
      places(item, out, depth + 1);
    }
  }
  return out;
}

/** Changes `message` in place at one random place: a wrong value, a missing key, an extra key. */
export function mutateValue(message: Record<string, Json>, random: Random): void {
  const all = places(message).filter(([parent, key]) => !(parent === message && key === 'jsonrpc'));
  if (all.length === 0) return;
  const [parent, key] = random.pick(all);
  const action = random.weighted([
    [6, 'replace'],
    [2, 'delete'],
    [2, 'extra'],
  ] as const);
  if (action === 'replace') (parent as Record<string | number, Json>)[key] = wrongValue(random);
  else if (action === 'delete' && !Array.isArray(parent)) delete parent[key as string];
  else if (!Array.isArray(parent)) {
    const name = random.pick(['unexpected', '__proto__', 'constructor', '_meta', 'x'.repeat(1000)]);
    Object.defineProperty(parent, name, {
      value: wrongValue(random),
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
}

/** Breaks a serialized line: cut short, a stray byte, invalid UTF-8, or two messages on one line. */
export function mutateLine(line: string, random: Random): Buffer {
  const bytes = Buffer.from(line, 'utf8');
  const at = random.int(bytes.length + 1);
  switch (random.int(5)) {
    case 0:
      return bytes.subarray(0, at);
    case 1:
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([random.pick([0x00, 0x7b, 0x22, 0x5c, 0x0d])]),
        bytes.subarray(at),
      ]);
    case 2:
      return Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
        bytes.subarray(at),
      ]);
    case 3:
      return Buffer.concat([bytes, bytes]);
    default:
      return Buffer.from(
        random.pick(['', ' ', 'null', '[]', '[1,2]', '42', '"string"', '{}', '{"jsonrpc":"1.0"}', '\u0000\u0000']),
      );
  }
}
