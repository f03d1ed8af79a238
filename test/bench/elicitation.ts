/**
 * Issue 30's form figure: a status that brings an elicitation form of 50
 * fields of every kind (read from its JSON schema as the host reads one), the
 * last field's title the marker the bench waits to see painted.
 */
import { emptyThread } from '../../src/shared/thread/thread';
import { readElicitationSchema } from '../../src/shared/elicitation';
import type { HostMessage } from '../../src/shared/page/protocol';
import { statusOf } from './hostMessages';

export const ELICITATION_MARKER = 'Field 50 is the last';

export function elicitationMessages(count = 50): { status: HostMessage; form: HostMessage } {
  const kinds = [
    { type: 'string', minLength: 1, description: 'A name, as you would write it.' },
    { type: 'string', format: 'email' },
    { type: 'integer', minimum: 0, maximum: 10, default: 3 },
    { type: 'boolean', default: true },
    { type: 'string', oneOf: ['a', 'b', 'c', 'd'].map((v) => ({ const: v, title: `Option ${v}` })) },
    { type: 'array', items: { type: 'string', enum: ['x', 'y', 'z'] } },
  ];
  const properties = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `f${i + 1}`,
      { ...kinds[i % kinds.length], title: i + 1 === count ? ELICITATION_MARKER : `Field ${i + 1}` },
    ]),
  );
  const read = readElicitationSchema({ type: 'object', properties, required: ['f1'] });
  if (!read.ok) throw new Error(read.why);
  const status = statusOf(emptyThread);
  const form = {
    ...status,
    elicitations: [{ mode: 'form' as const, id: 'elicit-1', message: 'Fifty questions.', fields: read.value.fields }],
  };
  return { status: { type: 'status', status }, form: { type: 'status', status: form } };
}
