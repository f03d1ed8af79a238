/**
 * ACP elicitation (`elicitation/create`), as the chat shows it: an agent's
 * form, its restricted JSON Schema read into a bounded list of fields the
 * view renders natively, and the answer checked against them; or a URL the
 * user may open. Everything here came from the agent: anything past these
 * bounds, or of a kind not listed, is refused as a whole (the agent hears
 * `decline`, the user why), never half-shown.
 *
 * Shared by the host (it reads the request and checks the answer) and the
 * view (it parses what the host sends it and checks as the user types).
 */
import { z } from 'zod/mini';

/** The most fields one form may have. */
export const MAX_FIELDS = 64;
/** The most options one select may offer. */
export const MAX_OPTIONS = 200;
/** The longest title (of the form or a field or an option). */
export const MAX_TITLE_CHARS = 200;
/** The longest message or description. */
export const MAX_TEXT_CHARS = 4_000;
/** The longest text a field takes (whatever the agent's maxLength says). */
export const MAX_VALUE_CHARS = 100_000;
/** The longest URL the chat shows and opens. */
export const MAX_URL_CHARS = 2_048;

const title = () => z.string().check(z.maxLength(MAX_TITLE_CHARS));
const text = () => z.string().check(z.maxLength(MAX_TEXT_CHARS));
const optionSchema = z.object({ value: z.string().check(z.maxLength(MAX_TITLE_CHARS)), title: title() });
const fieldBase = {
  /** The property's name: the key of its value in the answer. */
  name: z.string().check(z.maxLength(MAX_TITLE_CHARS)),
  title: title(),
  description: z.optional(text()),
  required: z.boolean(),
};

export const elicitationFieldSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    ...fieldBase,
    format: z.optional(z.enum(['email', 'uri', 'date', 'date-time'])),
    minLength: z.optional(z.int()),
    maxLength: z.optional(z.int()),
    default: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('number'),
    ...fieldBase,
    integer: z.boolean(),
    minimum: z.optional(z.number()),
    maximum: z.optional(z.number()),
    default: z.optional(z.number()),
  }),
  z.object({ kind: z.literal('boolean'), ...fieldBase, default: z.optional(z.boolean()) }),
  z.object({
    kind: z.literal('select'),
    ...fieldBase,
    options: z.array(optionSchema).check(z.maxLength(MAX_OPTIONS)),
    default: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('multi'),
    ...fieldBase,
    options: z.array(optionSchema).check(z.maxLength(MAX_OPTIONS)),
    minItems: z.optional(z.int()),
    maxItems: z.optional(z.int()),
    default: z.optional(z.array(z.string())),
  }),
]);
export type ElicitationField = z.infer<typeof elicitationFieldSchema>;
type Option = z.infer<typeof optionSchema>;

/** What the view shows of one pending elicitation. `id` is the host's; `toolTitle`: the tool call it is about. */
export const elicitationViewSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('form'),
    id: z.string(),
    message: text(),
    toolTitle: z.optional(title()),
    title: z.optional(title()),
    fields: z.array(elicitationFieldSchema).check(z.maxLength(MAX_FIELDS)),
  }),
  z.object({
    mode: z.literal('url'),
    id: z.string(),
    message: text(),
    toolTitle: z.optional(title()),
    url: z.string().check(z.maxLength(MAX_URL_CHARS)),
    /** The URL's host, as the browser will reach it (punycode). */
    host: z.string(),
    /** The user opened it; the agent has not said it is done. */
    opened: z.optional(z.boolean()),
  }),
]);
export type ElicitationView = z.infer<typeof elicitationViewSchema>;

/** An answer's value for one field. */
export type FieldValue = string | number | boolean | string[];
export type ElicitationContent = Record<string, FieldValue>;

export type Read<T> = { ok: true; value: T } | { ok: false; why: string };
export const refuse = (why: string): { ok: false; why: string } => ({ ok: false, why });

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A count the agent gives (a length, a number of items): a whole number >= 0, else none. */
const count = (v: unknown): number | undefined =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined;

/** Reads a `requestedSchema` into fields; refuses one that is too big, nested, or of a kind not in ACP's restricted set. */
export function readElicitationSchema(schema: unknown): Read<{ title?: string; fields: ElicitationField[] }> {
  if (!isRecord(schema)) return refuse('its form has no schema');
  if (schema.type !== undefined && schema.type !== 'object') return refuse('its form is not an object');
  const properties = schema.properties ?? {};
  if (!isRecord(properties)) return refuse('its form has no fields');
  const names = Object.keys(properties);
  if (names.length > MAX_FIELDS) return refuse(`its form has ${names.length} fields (at most ${MAX_FIELDS})`);
  const required = Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === 'string') : [];
  const fields: ElicitationField[] = [];
  for (const name of names) {
    if (name.length > MAX_TITLE_CHARS) return refuse('a field of its form has a name too long');
    const field = readField(name, properties[name], required.includes(name));
    if (!field.ok) return field;
    fields.push(field.value);
  }
  const formTitle = bounded(str(schema.title), MAX_TITLE_CHARS);
  return { ok: true, value: { ...(formTitle ? { title: formTitle } : {}), fields } };
}

function readField(name: string, raw: unknown, required: boolean): Read<ElicitationField> {
  if (!isRecord(raw)) return refuse(`the field "${cut(name)}" is not described`);
  const fieldTitle = bounded(str(raw.title), MAX_TITLE_CHARS) || name;
  const description = bounded(str(raw.description), MAX_TEXT_CHARS);
  const base = { name, title: fieldTitle, ...(description ? { description } : {}), required };
  switch (raw.type) {
    case 'string': {
      const options = readOptions(raw.oneOf, raw.enum);
      if (options === 'bad') return refuse(`the field "${cut(name)}" has too many choices or bad ones`);
      if (options) {
        return { ok: true, value: { kind: 'select', ...base, options, ...stringDefault(raw.default, options) } };
      }
      const format = raw.format;
      const known = format === 'email' || format === 'uri' || format === 'date' || format === 'date-time';
      if (format !== undefined && format !== null && !known) {
        return refuse(`the field "${cut(name)}" has an unknown format`);
      }
      const minLength = count(raw.minLength);
      const maxLength = count(raw.maxLength);
      const def = str(raw.default);
      return {
        ok: true,
        value: {
          kind: 'text',
          ...base,
          ...(known ? { format } : {}),
          ...(minLength !== undefined ? { minLength } : {}),
          ...(maxLength !== undefined ? { maxLength: Math.min(maxLength, MAX_VALUE_CHARS) } : {}),
          ...(def !== undefined && def.length <= MAX_VALUE_CHARS ? { default: def } : {}),
        },
      };
    }
    case 'number':
    case 'integer': {
      const minimum = num(raw.minimum);
      const maximum = num(raw.maximum);
      const def = num(raw.default);
      return {
        ok: true,
        value: {
          kind: 'number',
          ...base,
          integer: raw.type === 'integer',
          ...(minimum !== undefined ? { minimum } : {}),
          ...(maximum !== undefined ? { maximum } : {}),
          ...(def !== undefined ? { default: def } : {}),
        },
      };
    }
    case 'boolean':
      return {
        ok: true,
        value: { kind: 'boolean', ...base, ...(typeof raw.default === 'boolean' ? { default: raw.default } : {}) },
      };
    case 'array': {
      const items = isRecord(raw.items) ? raw.items : undefined;
      const options = items && readOptions(items.anyOf, items.type === 'string' ? items.enum : undefined);
      if (!options || options === 'bad') return refuse(`the field "${cut(name)}" is a list of a kind not supported`);
      const minItems = count(raw.minItems);
      const maxItems = count(raw.maxItems);
      const values = new Set(options.map((o) => o.value));
      const def = Array.isArray(raw.default)
        ? raw.default.filter((v): v is string => values.has(v as string))
        : undefined;
      return {
        ok: true,
        value: {
          kind: 'multi',
          ...base,
          options,
          ...(minItems !== undefined ? { minItems } : {}),
          ...(maxItems !== undefined ? { maxItems } : {}),
          ...(def ? { default: [...new Set(def)] } : {}),
        },
      };
    }
    default:
      return refuse(`the field "${cut(name)}" is of a kind not supported (${cut(String(raw.type))})`);
  }
}

/** Choices from `oneOf`/`anyOf` ({const, title}) or `enum` (strings); undefined: not a choice; 'bad': too many or malformed. */
function readOptions(titled: unknown, plain: unknown): Option[] | undefined | 'bad' {
  const list = Array.isArray(titled) ? titled : Array.isArray(plain) ? plain : undefined;
  if (!list) return undefined;
  if (list.length === 0 || list.length > MAX_OPTIONS) return 'bad';
  const options: Option[] = [];
  for (const item of list) {
    const value = isRecord(item) ? str(item.const) : str(item);
    if (value === undefined || value.length > MAX_TITLE_CHARS) return 'bad';
    const optionTitle = (isRecord(item) ? bounded(str(item.title), MAX_TITLE_CHARS) : undefined) || value;
    if (!options.some((o) => o.value === value)) options.push({ value, title: optionTitle });
  }
  return options;
}

function stringDefault(value: unknown, options: readonly Option[]): { default?: string } {
  return typeof value === 'string' && options.some((o) => o.value === value) ? { default: value } : {};
}

function bounded(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed.length > max ? `${trimmed.slice(0, max - 1)}…` : trimmed;
}

/** `text`, cut to 40 characters: an agent's words quoted in a sentence of ours. */
export function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Why `value` does not fit `field` (a sentence for the user), or undefined when it does; an empty optional field fits. */
export function fieldProblem(field: ElicitationField, value: FieldValue | undefined): string | undefined {
  const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
  if (empty) return field.required && field.kind !== 'boolean' ? 'Required.' : undefined;
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return 'Enter text.';
      if (value.length > MAX_VALUE_CHARS) return 'Too long.';
      if (field.minLength !== undefined && value.length < field.minLength) {
        return `At least ${field.minLength} characters.`;
      }
      if (field.maxLength !== undefined && value.length > field.maxLength) {
        return `At most ${field.maxLength} characters.`;
      }
      if (field.format === 'email' && !isEmail(value)) return 'Enter an email address.';
      if (field.format === 'uri' && !isUri(value)) return 'Enter a URL.';
      if (field.format === 'date' && !DATE.test(value)) return 'Enter a date (YYYY-MM-DD).';
      if (field.format === 'date-time' && !DATE_TIME.test(value)) return 'Enter a date and time.';
      return undefined;
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Enter a number.';
      if (field.integer && !Number.isInteger(value)) return 'Enter a whole number.';
      if (field.minimum !== undefined && value < field.minimum) return `At least ${field.minimum}.`;
      if (field.maximum !== undefined && value > field.maximum) return `At most ${field.maximum}.`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Check or uncheck it.';
    case 'select':
      return typeof value === 'string' && field.options.some((o) => o.value === value) ? undefined : 'Pick one.';
    case 'multi': {
      if (!Array.isArray(value) || !value.every((v) => field.options.some((o) => o.value === v))) {
        return 'Pick from the list.';
      }
      if (field.minItems !== undefined && value.length < field.minItems) return `Pick at least ${field.minItems}.`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `Pick at most ${field.maxItems}.`;
      return undefined;
    }
  }
}

/** A run of characters none of which is white space or `@`. */
const NO_SPACE_OR_AT = /^[^\s@]+$/;

/**
 * What `/^[^\s@]+@[^\s@]+\.[^\s@]+$/` accepts (`local@domain.tld`: no white space, one `@`, a dot inside the
 * domain), found by one scan. That pattern backtracks: each place its domain part could end is tried again with
 * each dot, 19 s for an agent's default of `a@` and 100,000 dots, in the extension host and again in the view.
 */
function isEmail(value: string): boolean {
  const at = value.indexOf('@');
  const domain = value.slice(at + 1);
  // The first dot after the domain's first character; the last character must follow it.
  const dot = domain.indexOf('.', 1);
  return (
    at > 0 &&
    dot > 0 &&
    dot < domain.length - 1 &&
    NO_SPACE_OR_AT.test(value.slice(0, at)) &&
    NO_SPACE_OR_AT.test(domain)
  );
}

/** A URI as RFC 3986 begins one (a scheme, then something), with no white space. */
function isUri(value: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value);
}

/** The answer to send: only the form's fields, each checked; else the problems by field name. */
export function checkAnswer(
  fields: readonly ElicitationField[],
  values: Readonly<Record<string, unknown>>,
): { ok: true; content: ElicitationContent } | { ok: false; problems: Record<string, string> } {
  const content: ElicitationContent = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const raw = Object.prototype.hasOwnProperty.call(values, field.name) ? values[field.name] : undefined;
    const value = isFieldValue(raw) ? raw : undefined;
    const problem =
      raw !== undefined && value === undefined ? 'Not a value this field takes.' : fieldProblem(field, value);
    if (problem) problems[field.name] = problem;
    else if (value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)) {
      content[field.name] = value;
    }
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, content };
}

function isFieldValue(value: unknown): value is FieldValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}
