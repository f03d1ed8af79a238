/** An agent's elicitation form read into bounded fields, and answers checked against them. */
import * as assert from 'node:assert/strict';
import {
  checkAnswer,
  fieldProblem,
  MAX_FIELDS,
  MAX_OPTIONS,
  readElicitationSchema,
  type ElicitationField,
} from '../../../../src/shared/elicitation';

const read = (properties: Record<string, unknown>, required: string[] = []) =>
  readElicitationSchema({ type: 'object', properties, required });
const fieldsOf = (properties: Record<string, unknown>, required: string[] = []) => {
  const r = read(properties, required);
  if (!r.ok) throw new Error(r.why);
  return r.value.fields;
};

describe('elicitation forms', () => {
  it("reads every kind of ACP's restricted schema, with titles, defaults, bounds and required", () => {
    const fields = fieldsOf(
      {
        name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 20, default: 'Ada' },
        email: { type: 'string', format: 'email', description: 'Where we write' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        ratio: { type: 'number', default: 0.5 },
        ok: { type: 'boolean', default: true },
        colour: { type: 'string', enum: ['red', 'green'], default: 'green' },
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, default: ['b', 'x'] },
        picks: { type: 'array', items: { anyOf: [{ const: 'p', title: 'Pea' }] } },
      },
      ['name', 'tags'],
    );
    assert.deepEqual(
      fields.map((f) => [f.name, f.kind, f.title, f.required]),
      [
        ['name', 'text', 'Your name', true],
        ['email', 'text', 'email', false],
        ['age', 'number', 'age', false],
        ['ratio', 'number', 'ratio', false],
        ['ok', 'boolean', 'ok', false],
        ['colour', 'select', 'colour', false],
        ['size', 'select', 'size', false],
        ['tags', 'multi', 'tags', true],
        ['picks', 'multi', 'picks', false],
      ],
    );
    assert.deepEqual(fields[0], {
      kind: 'text',
      name: 'name',
      title: 'Your name',
      required: true,
      minLength: 2,
      maxLength: 20,
      default: 'Ada',
    });
    assert.deepEqual(fields[2], {
      kind: 'number',
      name: 'age',
      title: 'age',
      required: false,
      integer: true,
      minimum: 0,
      maximum: 150,
    });
    assert.deepEqual((fields[6] as Extract<ElicitationField, { kind: 'select' }>).options, [
      { value: 's', title: 'Small' },
      { value: 'l', title: 'Large' },
    ]);
    assert.deepEqual(
      (fields[7] as Extract<ElicitationField, { kind: 'multi' }>).default,
      ['b'],
      'a default not offered is dropped',
    );
  });

  it('refuses the whole form for what it cannot show: nesting, unknown kinds and formats, too many fields or choices', () => {
    const why = (properties: Record<string, unknown>) => {
      const r = read(properties);
      return r.ok ? 'read' : r.why;
    };
    assert.match(why({ a: { type: 'object', properties: {} } }), /kind not supported \(object\)/);
    assert.match(why({ a: { type: 'string', format: 'color' } }), /unknown format/);
    assert.match(why({ a: { type: 'array', items: { type: 'object' } } }), /list of a kind not supported/);
    assert.match(why({ a: 'string' }), /is not described/);
    assert.match(
      why(Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: 'string' }]))),
      /fields \(at most/,
    );
    assert.match(
      why({ a: { type: 'string', enum: Array.from({ length: MAX_OPTIONS + 1 }, String) } }),
      /too many choices/,
    );
    assert.match(why({ a: { type: 'string', enum: [] } }), /too many choices or bad ones/);
    assert.equal(readElicitationSchema('a form').ok, false);
    assert.equal(readElicitationSchema({ type: 'array' }).ok, false);
  });

  it('cuts long titles and descriptions, and keeps markup as text', () => {
    const [field] = fieldsOf({
      a: { type: 'string', title: `<img src=x onerror=alert(1)>${'t'.repeat(500)}`, description: 'd'.repeat(10_000) },
    });
    assert.ok(field!.title.length <= 200 && field!.title.startsWith('<img'));
    assert.ok(field!.description!.length <= 4_000);
  });

  it('checks each value: required, lengths, formats, bounds, whole numbers, choices', () => {
    const [name, email, age, colour, tags, ok, when] = fieldsOf(
      {
        name: { type: 'string', minLength: 2, maxLength: 5 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        colour: { type: 'string', enum: ['red'] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 },
        ok: { type: 'boolean' },
        when: { type: 'string', format: 'date' },
      },
      ['name', 'ok'],
    );
    assert.equal(fieldProblem(name!, ''), 'Required.');
    assert.equal(fieldProblem(name!, 'a'), 'At least 2 characters.');
    assert.equal(fieldProblem(name!, 'abcdef'), 'At most 5 characters.');
    assert.equal(fieldProblem(name!, 'abc'), undefined);
    assert.equal(fieldProblem(email!, 'nope'), 'Enter an email address.');
    assert.equal(fieldProblem(email!, ''), undefined, 'optional and empty');
    assert.equal(fieldProblem(age!, 1.5), 'Enter a whole number.');
    assert.equal(fieldProblem(age!, -1), 'At least 0.');
    assert.equal(fieldProblem(colour!, 'blue'), 'Pick one.');
    assert.equal(fieldProblem(tags!, ['a', 'b']), 'Pick at most 1.');
    assert.equal(fieldProblem(tags!, ['z']), 'Pick from the list.');
    assert.equal(fieldProblem(ok!, undefined), undefined, 'a required checkbox may stay unchecked');
    assert.equal(fieldProblem(when!, '2026-12-04'), undefined);
    assert.equal(fieldProblem(when!, 'tomorrow'), 'Enter a date (YYYY-MM-DD).');
  });

  it('takes as an email address exactly what the pattern it replaced took (every short string of its characters)', () => {
    // The pattern backtracks quadratically (see agentTextTime.test.ts); on short text it is the meaning to keep.
    const pattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
    const field: ElicitationField = { kind: 'text', name: 'e', title: 'E', required: true, format: 'email' };
    const alphabet = ['a', '@', '.', ' ', '\u00a0'];
    let texts = [''];
    for (let length = 1; length <= 7; length++) {
      texts = texts.flatMap((t) => alphabet.map((c) => t + c));
      for (const text of texts) {
        assert.equal(fieldProblem(field, text) === undefined, pattern.test(text), JSON.stringify(text));
      }
    }
  });

  it("an answer carries only the form's fields, each checked; anything else is a problem", () => {
    const fields = fieldsOf({ a: { type: 'string' }, n: { type: 'number' }, b: { type: 'boolean' } }, ['a']);
    assert.deepEqual(checkAnswer(fields, { a: 'x', n: 3, b: false, extra: 'dropped' }), {
      ok: true,
      content: { a: 'x', n: 3, b: false },
    });
    assert.deepEqual(checkAnswer(fields, { n: 3 }), { ok: false, problems: { a: 'Required.' } });
    assert.deepEqual(checkAnswer(fields, { a: 'x', n: { $gt: 1 } }), {
      ok: false,
      problems: { n: 'Not a value this field takes.' },
    });
    assert.deepEqual(checkAnswer(fields, { a: 'x', n: Number.NaN }), {
      ok: false,
      problems: { n: 'Not a value this field takes.' },
    });
    assert.deepEqual(checkAnswer(fields, Object.create({ a: 'inherited' }) as Record<string, unknown>), {
      ok: false,
      problems: { a: 'Required.' },
    });
  });
});
