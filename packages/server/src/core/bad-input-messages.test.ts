import { Code } from '@luntan/shared';
import qs from 'qs';
import { expect, it } from 'vitest';
import { useTestServer } from '../test/fixture.js';

/**
 * Every registered route's body and query schema, walked with bad input: each field in turn missing, of the wrong
 * type, too short, too long, too small, too big, not a whole number, not one of its values, in a list too short or
 * too long. Every -4001 must be a written sentence in both languages, never zod's own text. The schemas are read
 * from the OpenAPI document, which is generated from the same zod schemas the routes validate with.
 */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
}

/** zod's own phrases, in its English and Chinese locales. */
const RAW =
  /expected|too small|too big|invalid input|invalid option|invalid string|unrecognized key|received|无效输入|无效选项|无效字符串|数值过小|数值过大|期望|未知的键/i;
const CJK = /[\u4e00-\u9fff]/;
/** Bounds beyond these are "any number": no value past them is worth sending. */
const HUGE = 1e12;

const t = useTestServer();

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type[0] : s.type);
const options = (s: JsonSchema): JsonSchema[] | undefined => s.anyOf ?? s.oneOf;

/** A value the schema accepts (as far as JSON Schema tells). */
function sample(s: JsonSchema): unknown {
  const alternatives = options(s);
  if (alternatives) return sample(alternatives[0]!);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return 'a'.repeat(Math.max(1, Math.min(s.minLength ?? 1, s.maxLength ?? 1)));
    case 'integer':
    case 'number':
      return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items ?? {}));
    case 'object':
      return Object.fromEntries((s.required ?? []).map((key) => [key, sample(s.properties?.[key] ?? {})]));
    default:
      return 'a';
  }
}

/** Values the schema refuses, each for one reason. */
function badValues(s: JsonSchema, inQuery: boolean): unknown[] {
  const out: unknown[] = [];
  const alternatives = options(s);
  if (alternatives) {
    if (!inQuery) out.push({ unexpected: true });
    // Out of the range of one option, and so of every option of another type.
    for (const option of alternatives) {
      out.push(...badValues(option, inQuery).filter((v) => typeof v === typeof sample(option)));
    }
    return out;
  }
  if (s.enum) {
    out.push(typeof s.enum[0] === 'number' ? 987654 : 'not-a-choice');
    return out;
  }
  switch (typeOf(s)) {
    case 'string':
      if (!inQuery) out.push(12345);
      if ((s.minLength ?? 0) >= 1) out.push('');
      if ((s.minLength ?? 0) > 1) out.push('a'.repeat(s.minLength! - 1));
      if (s.maxLength !== undefined && s.maxLength < 200_000) out.push('x'.repeat(s.maxLength + 1));
      break;
    case 'integer':
    case 'number':
      out.push('abc');
      if (typeOf(s) === 'integer') out.push(inQuery ? '1.5' : 1.5);
      if (s.minimum !== undefined && s.minimum > -HUGE) out.push(s.minimum - 1);
      if (s.maximum !== undefined && s.maximum < HUGE) out.push(s.maximum + 1);
      break;
    case 'boolean':
      out.push('maybe');
      break;
    case 'array':
      if (!inQuery) out.push('x');
      if ((s.minItems ?? 0) >= 1) out.push([]);
      if (s.maxItems !== undefined && s.maxItems <= 2000)
        out.push(Array.from({ length: s.maxItems + 1 }, () => sample(s.items ?? {})));
      break;
    case 'object':
      out.push('x');
      break;
  }
  return out;
}

type Path = (string | number)[];

/** Every (path, bad value) of a schema, and every required field left out (value undefined, `omit`). */
function mutations(s: JsonSchema, inQuery: boolean, path: Path = []): { path: Path; value?: unknown; omit?: true }[] {
  const out: { path: Path; value?: unknown; omit?: true }[] = [];
  if (path.length > 0) for (const value of badValues(s, inQuery)) out.push({ path, value });
  const objectOption = options(s)?.find((o) => typeOf(o) === 'object');
  const target = objectOption ?? s;
  if (typeOf(target) === 'object') {
    for (const [key, child] of Object.entries(target.properties ?? {})) {
      if (target.required?.includes(key)) out.push({ path: [...path, key], omit: true });
      out.push(...mutations(child, inQuery, [...path, key]));
    }
  } else if (typeOf(target) === 'array' && target.items) {
    out.push(...mutations(target.items, inQuery, [...path, 0]));
  }
  return out;
}

function applied(base: unknown, m: { path: Path; value?: unknown; omit?: true }): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of m.path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = typeof key === 'number' ? [] : {};
    at = at[key] as Record<string | number, unknown>;
  }
  const last = m.path[m.path.length - 1]!;
  if (m.omit) delete at[last];
  else at[last] = m.value;
  return copy;
}

it('answers every bad input of every route with a written sentence in zh and en, never zod text', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation>>;
  }>();
  const seen = new Map<string, number>();
  const bad: string[] = [];
  let answers = 0;

  for (const [rawPath, methods] of Object.entries(doc.paths)) {
    if (!rawPath.startsWith('/api/') || rawPath.includes('{*}')) continue;
    const url = rawPath.replace(/\{[^}]+\}/g, 'AAAAAAAAAAAAAAAAAAAAAA.jpg');
    for (const [method, op] of Object.entries(methods)) {
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const query = (op.parameters ?? []).filter((p) => p.in === 'query' && p.schema);
      if (!bodySchema && query.length === 0) continue;
      const route = `${method.toUpperCase()} ${rawPath}`;
      seen.set(route, 0);

      const querySchema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(query.map((p) => [p.name, p.schema!])),
        required: query.filter((p) => p.required).map((p) => p.name),
      };
      const baseQuery = sample(querySchema);
      const baseBody = bodySchema ? sample(bodySchema) : undefined;
      const cases: { query: unknown; body: unknown }[] = [
        ...mutations(querySchema, true).map((m) => ({ query: applied(baseQuery, m), body: baseBody })),
        ...(bodySchema
          ? [
              { query: baseQuery, body: 'not an object' },
              ...mutations(bodySchema, false).map((m) => ({ query: baseQuery, body: applied(baseBody, m) })),
            ]
          : []),
      ];
      for (const c of cases) {
        const search = qs.stringify(c.query);
        for (const locale of ['zh', 'en'] as const) {
          const res = await t.call<{ field?: string }>(
            method.toUpperCase() as 'GET',
            search ? `${url}?${search}` : url,
            {
              token: t.admin,
              headers: {
                cookie: `locale=${locale}`,
                ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
              },
              ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
            },
          );
          expect(res.status, route).toBeLessThan(500);
          if (res.body.Code !== Code.INVALID_PARAMETER) continue;
          answers += 1;
          seen.set(route, (seen.get(route) ?? 0) + 1);
          const message = res.body.Message;
          const written = locale === 'zh' ? CJK.test(message) : !CJK.test(message);
          if (RAW.test(message) || !written || message.trim() === '') {
            bad.push(`${route} ?${search} ${JSON.stringify(c.body)?.slice(0, 120)} [${locale}] → ${message}`);
          }
        }
      }
    }
  }

  expect(bad).toEqual([]);
  // Every route with a schema was reached with input it refused, and the walk was not a small one.
  expect([...seen].filter(([, n]) => n === 0).map(([route]) => route)).toEqual([]);
  expect(seen.size).toBeGreaterThan(40);
  expect(answers).toBeGreaterThan(1000);
}, 300_000);
