import fc from 'fast-check';

/** A JSON token written as is: numbers JSON.stringify cannot produce (1e400, -0, 30 digits). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A JSON object written from its entries, so `__proto__`, `constructor` and duplicate keys reach the server as sent. */
export class Entries {
  constructor(readonly entries: Array<[string, unknown]>) {}
}

export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof Entries) return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return toJson(new Entries(Object.entries(value)));
  return JSON.stringify(value) ?? 'null';
}

const NASTY_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '%00',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
  '😀'.repeat(60),
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  'a'.repeat(5_000),
  '\r\nX-Injected: 1',
  '../../../../etc/passwd',
  '${7*7}{{7*7}}',
  'NaN',
  'null',
  'true',
  '-1',
  '1e309',
  'http://',
  'javascript:alert(1)',
  'file:///etc/passwd',
  '{}',
  '[]',
];

const NASTY_NUMBERS = [0, -0, -1, 1, 1.5, 59, 60, 2 ** 31 - 1, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE];
const RAW_NUMBERS = ['1e400', '-1e400', '-0', '123456789012345678901234567890', '0.0000000000000000000000001', '1E2'];

/** Arrays nested `depth` deep: shallow ones reach validation, ones past the server's limit test the depth scan. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

/** Values from outside at their worst: bad text, edge numbers, nulls, wrong types, nesting, lists around the width limit. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text)) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom<unknown>([], {}, [null], [1, 2, 3], ['a'], { a: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 45 }).map(nested) },
  { weight: 1, arbitrary: fc.integer({ min: 990, max: 1_010 }).map((length) => Array.from({ length }, (_, index) => index)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('__proto__', 'constructor').map(
      (key) =>
        new Entries([
          [
            key,
            new Entries([
              ['role', 'admin'],
              ['isAdmin', true],
              ['prototype', { polluted: 1 }],
            ]),
          ],
        ]),
    ),
  },
);

export interface SchemaProperty {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: SchemaProperty;
  nullable?: boolean;
}

/** A plausible value for a field, from its OpenAPI schema and name, so fuzzed bodies also get past the first check. */
export function validValue(name: string, schema: SchemaProperty, examples: Record<string, unknown>): fc.Arbitrary<unknown> {
  if (name in examples) return examples[name] instanceof fc.Arbitrary ? examples[name] : fc.constant(examples[name]);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1_000, 2 ** 31 - 1) });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? validValue('', schema.items, {}) : fc.integer({ min: 1, max: 3 }), { maxLength: 3 });
    case 'object':
      return fc.constantFrom<unknown>({}, { 'X-Trace': 'fuzz' });
    default:
      return fc.stringMatching(/^[a-z][a-z0-9_.-]{2,20}$/);
  }
}

/**
 * An object body: wholly valid, valid but for one field, or a free mix of valid, nasty and missing fields; unknown
 * and polluting keys added at times. The valid ones reach the services, the rest every validation branch.
 */
export function objectBody(fields: Record<string, fc.Arbitrary<unknown>>, extraKeys: string[]): fc.Arbitrary<Entries> {
  const names = Object.keys(fields);
  type Pairs = Array<[string, unknown]>;
  const valid = fc.tuple(...names.map((name) => fields[name].map((value): Pairs => [[name, value]])));
  const mixed = fc.tuple(
    ...names.map((name) =>
      fc.oneof(
        { weight: 5, arbitrary: fields[name].map((value): Pairs => [[name, value]]) },
        { weight: 3, arbitrary: nastyValue.map((value): Pairs => [[name, value]]) },
        { weight: 1, arbitrary: fc.constant<Pairs>([]) },
      ),
    ),
  );
  const oneBad = fc
    .tuple(valid, fc.nat({ max: Math.max(0, names.length - 1) }), fc.option(nastyValue, { freq: 4 }))
    .map(([pairs, index, value]) => pairs.map((pair, at): Pairs => (at !== index ? pair : value === null ? [] : [[names[index], value]])));
  const extra = fc.array(fc.tuple(fc.constantFrom(...extraKeys, '__proto__', 'constructor', 'prototype', 'isAdmin', 'id'), nastyValue), {
    maxLength: 2,
  });
  const chosen = fc.oneof({ weight: 2, arbitrary: valid }, { weight: 4, arbitrary: oneBad }, { weight: 4, arbitrary: mixed });
  return fc.tuple(chosen, fc.option(extra, { freq: 3 })).map(([pairs, more]) => new Entries([...pairs.flat(), ...(more ?? [])]));
}

/** Any request body: mostly objects shaped like the route's, and every other shape a hostile caller might send. */
export function anyBody(shaped: fc.Arbitrary<Entries>): fc.Arbitrary<{ text: string; contentType: string }> {
  const json = (text: string) => ({ text, contentType: 'application/json' });
  return fc.oneof(
    { weight: 12, arbitrary: shaped.map((body) => json(toJson(body))) },
    { weight: 1, arbitrary: fc.array(shaped, { maxLength: 3 }).map((items) => json(toJson(items))) },
    { weight: 1, arbitrary: nastyValue.map((value) => json(toJson(value))) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 2_000 }).map((depth) => json(toJson(new Entries([['name', nested(depth)]])))) },
    { weight: 1, arbitrary: shaped.map((body) => json(toJson(body).slice(0, -1))) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":}', '\u0000', '{"a":"\\ud800"}', '{"a":1}}').map(json) },
    { weight: 1, arbitrary: shaped.map((body) => ({ text: toJson(body), contentType: 'text/plain' })) },
  );
}
