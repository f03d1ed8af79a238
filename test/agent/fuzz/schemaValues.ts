// Random values that follow a JSON Schema (the subset ACP's schema uses:
// $ref, allOf, anyOf, oneOf, const, enum, type lists, properties/required,
// additionalProperties, items, minimum/maximum, min/maxItems, min/maxLength).
//
// Written here rather than taken from a library (json-schema-faker): the
// fuzzer needs to steer every string by the property it fills (session ids,
// paths, commands), and to mutate the value afterwards; a generator that
// only produces valid samples does neither, and this is ~150 lines.
import type { Random } from './random';

type Schema = { [key: string]: unknown };
export type Defs = Record<string, Schema>;

/** Fills a string property: the fuzzer decides what a `path` or a `sessionId` gets. */
export type StringFor = (key: string, random: Random) => string;

const MAX_DEPTH = 7;

export class SchemaValues {
  constructor(
    private readonly defs: Defs,
    private readonly random: Random,
    private readonly stringFor: StringFor,
  ) {}

  /** A value for the definition `name` (e.g. "SessionNotification"). */
  of(name: string): unknown {
    const schema = this.defs[name];
    if (!schema) throw new Error(`no definition ${name} in the schema`);
    return this.value(schema, name, 0);
  }

  private value(schema: Schema, key: string, depth: number): unknown {
    const r = this.random;
    if (typeof schema.$ref === 'string') return this.value(this.resolve(schema.$ref), key, depth);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum)) return r.pick(schema.enum);
    const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
    const parts = (schema.allOf as Schema[] | undefined) ?? [];
    if (choices) {
      const { oneOf: _o, anyOf: _a, ...base } = schema;
      // Past the depth limit, prefer the choice that ends the recursion (usually null).
      const choice = depth > MAX_DEPTH ? (choices.find((c) => c.type === 'null') ?? choices[0]) : r.pick(choices);
      return merge(
        Object.keys(base).some(isShapeKey) ? this.value(base, key, depth) : undefined,
        this.value(choice, key, depth),
      );
    }
    if (parts.length > 0) {
      const { allOf: _all, ...base } = schema;
      let result = Object.keys(base).some(isShapeKey) ? this.value(base, key, depth) : undefined;
      for (const part of parts) result = merge(result, this.value(part, key, depth));
      return result;
    }
    return this.typed(schema, this.pickType(schema, depth), key, depth);
  }

  private pickType(schema: Schema, depth: number): string {
    const types = Array.isArray(schema.type)
      ? (schema.type as string[])
      : [typeof schema.type === 'string' ? schema.type : inferType(schema)];
    const nonNull = types.filter((t) => t !== 'null');
    if (nonNull.length === 0) return 'null';
    if (types.includes('null') && (depth > MAX_DEPTH || this.random.chance(0.2))) return 'null';
    return this.random.pick(nonNull);
  }

  private typed(schema: Schema, type: string, key: string, depth: number): unknown {
    const r = this.random;
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return r.chance(0.5);
      case 'integer':
      case 'number': {
        const min = typeof schema.minimum === 'number' ? schema.minimum : type === 'integer' ? -1000 : -1e6;
        const max = typeof schema.maximum === 'number' ? schema.maximum : 100_000;
        const n = r.chance(0.1) ? r.pick([0, 1, max, min, 2 ** 31, 2 ** 53 - 1]) : min + r.float() * (max - min);
        return type === 'integer' ? Math.round(Math.min(max, Math.max(min, n))) : n;
      }
      case 'string': {
        let text = this.stringFor(key, r);
        if (typeof schema.maxLength === 'number') text = text.slice(0, schema.maxLength);
        if (typeof schema.minLength === 'number') text = text.padEnd(schema.minLength, 'x');
        return text;
      }
      case 'array': {
        const items = (schema.items as Schema | undefined) ?? {};
        const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
        const max = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, depth > MAX_DEPTH ? min : 4);
        const count = min + r.int(Math.max(0, max - min) + 1);
        return Array.from({ length: count }, () => this.value(items, key, depth + 1));
      }
      case 'object':
        return this.object(schema, depth);
      default:
        return {};
    }
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const r = this.random;
    const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const result: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name) || (depth <= MAX_DEPTH && r.chance(0.5))) {
        result[name] = this.value(property, name, depth + 1);
      }
    }
    if (schema.additionalProperties !== false && depth <= MAX_DEPTH && r.chance(0.1)) {
      result[this.stringFor('key', r)] = this.stringFor('value', r);
    }
    return result;
  }

  private resolve(ref: string): Schema {
    const name = ref.replace(/^#\/\$defs\//, '');
    const schema = this.defs[name];
    if (!schema) throw new Error(`unresolved $ref ${ref}`);
    return schema;
  }
}

function isShapeKey(key: string): boolean {
  return key === 'type' || key === 'properties' || key === 'const' || key === 'enum' || key === 'items';
}

function inferType(schema: Schema): string {
  if (schema.properties || schema.required) return 'object';
  if (schema.items) return 'array';
  return 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** allOf/oneOf parts of an object add up; otherwise the more specific (later) value wins. */
function merge(a: unknown, b: unknown): unknown {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return isObject(a) && isObject(b) ? { ...a, ...b } : b;
}
