import type { z } from 'zod';
import { COMMON_FIELD_LABELS, fieldLabels, type FieldLabel } from './schemas/field-labels.js';

/**
 * Validation messages for people: one written sentence per kind of problem, in zh and en, naming the field in words
 * ("密码至少 6 位" / "Password must be at least 6 characters"). The server answers -4001 with them and the web
 * app's parameter checks use them too, so zod's own English ("Too small: expected string...") never reaches anyone.
 */

/** A sentence in both locales. */
export interface Sentence {
  zh: string;
  en: string;
}

type Value = string | number | bigint | boolean | null | undefined | symbol;

/** What is wrong with a field: zod's issues and our refinements both become one of these. */
export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'empty' }
  | { kind: 'tooShort'; min: number; exact?: boolean }
  | { kind: 'tooLong'; max: number; exact?: boolean }
  | { kind: 'fewItems'; min: number }
  | { kind: 'manyItems'; max: number }
  | { kind: 'tooSmall'; min: number; inclusive: boolean }
  | { kind: 'tooBig'; max: number; inclusive: boolean }
  | { kind: 'notType'; expected: string }
  | { kind: 'badFormat'; format: string }
  | { kind: 'notOneOf'; values: Value[] }
  | { kind: 'unknownKeys'; keys: string[] }
  | { kind: 'multipleOf'; divisor: number }
  | { kind: 'controlChars' }
  | { kind: 'nameChars' }
  | { kind: 'idList' }
  | { kind: 'json' }
  | { kind: 'distinct' }
  | { kind: 'decimals'; digits: number }
  /** An amount of money under or over its limit (limits as "12.50"). */
  | { kind: 'amountBelow'; min: string }
  | { kind: 'amountAbove'; max: string }
  | { kind: 'stopWord'; word: string }
  | { kind: 'bannedWord'; word: string }
  /** A whole sentence that says it better than a field and a kind (e.g. "nothing to change"). */
  | { kind: 'sentence'; zh: string; en: string }
  | { kind: 'invalid' };

/**
 * The params of a refinement that raises one of our problems: `.refine(check, problem({ kind: 'controlChars' }))`.
 * The message is only zod's fallback (for a consumer that reads it); people get describeIssue's sentence.
 */
export function problem(p: FieldProblem): { message: string; params: { problem: FieldProblem } } {
  return { message: sentence({ zh: '值', en: 'The value' }, p).en, params: { problem: p } };
}

const NAMES = {
  body: { zh: '请求内容', en: 'The request body' },
  querystring: { zh: '查询参数', en: 'The query' },
  params: { zh: '地址参数', en: 'The address' },
  headers: { zh: '请求头', en: 'The request headers' },
} satisfies Record<string, FieldLabel>;

const show = (v: Value): string => (typeof v === 'symbol' ? v.toString() : String(v));

/** The sentence for a field with its label. */
function sentence(label: FieldLabel, p: FieldProblem): Sentence {
  const L = label.zh;
  const E = label.en;
  const chars = label.zhChars ?? '个字符';
  switch (p.kind) {
    case 'required':
      return { zh: `${L}不能为空`, en: `${E} is required` };
    case 'empty':
      return { zh: `${L}不能为空`, en: `${E} must not be empty` };
    case 'tooShort':
      return p.exact
        ? { zh: `${L}必须是 ${p.min} ${chars}`, en: `${E} must be exactly ${p.min} characters` }
        : { zh: `${L}至少 ${p.min} ${chars}`, en: `${E} must be at least ${p.min} characters` };
    case 'tooLong':
      return p.exact
        ? { zh: `${L}必须是 ${p.max} ${chars}`, en: `${E} must be exactly ${p.max} characters` }
        : { zh: `${L}最多 ${p.max} ${chars}`, en: `${E} must be at most ${p.max} characters` };
    case 'fewItems':
      return p.min === 1
        ? { zh: `${L}至少要有一项`, en: `${E} needs at least one item` }
        : { zh: `${L}至少要有 ${p.min} 项`, en: `${E} needs at least ${p.min} items` };
    case 'manyItems':
      return { zh: `${L}最多 ${p.max} 项`, en: `${E} may have at most ${p.max} items` };
    case 'tooSmall':
      return p.inclusive
        ? { zh: `${L}不能小于 ${p.min}`, en: `${E} must be at least ${p.min}` }
        : { zh: `${L}必须大于 ${p.min}`, en: `${E} must be greater than ${p.min}` };
    case 'tooBig':
      return p.inclusive
        ? { zh: `${L}不能大于 ${p.max}`, en: `${E} must be at most ${p.max}` }
        : { zh: `${L}必须小于 ${p.max}`, en: `${E} must be less than ${p.max}` };
    case 'notType':
      switch (p.expected) {
        case 'number':
        case 'bigint':
          return { zh: `${L}必须是数字`, en: `${E} must be a number` };
        case 'int':
          return { zh: `${L}必须是整数`, en: `${E} must be a whole number` };
        case 'string':
          return { zh: `${L}必须是文字`, en: `${E} must be text` };
        case 'boolean':
          return { zh: `${L}只能是 true 或 false`, en: `${E} must be true or false` };
        case 'array':
        case 'tuple':
          return { zh: `${L}必须是列表`, en: `${E} must be a list` };
        case 'object':
        case 'record':
          return { zh: `${L}格式不正确`, en: `${E} is not in the right form` };
        default:
          return { zh: `${L}的类型不正确`, en: `${E} has the wrong type` };
      }
    case 'badFormat':
      switch (p.format) {
        case 'email':
          return { zh: `${L}不是有效的邮箱地址`, en: `${E} is not a valid email address` };
        case 'url':
          return { zh: `${L}不是有效的网址`, en: `${E} is not a valid URL` };
        case 'money':
          return {
            zh: `${L}需要是最多两位小数的金额，例如 12.50`,
            en: `${E} must be an amount with at most two decimals, such as 12.50`,
          };
        default:
          return { zh: `${L}格式不正确`, en: `${E} is not in the right format` };
      }
    case 'notOneOf': {
      const values = p.values.map(show);
      if (values.length === 1) return { zh: `${L}只能是 ${values[0]}`, en: `${E} must be ${values[0]}` };
      return { zh: `${L}只能是以下之一：${values.join('、')}`, en: `${E} must be one of: ${values.join(', ')}` };
    }
    case 'unknownKeys':
      return {
        zh: `${L}包含未知的参数：${p.keys.join('、')}`,
        en: `${E} holds unknown parameters: ${p.keys.join(', ')}`,
      };
    case 'multipleOf':
      return { zh: `${L}必须是 ${p.divisor} 的倍数`, en: `${E} must be a multiple of ${p.divisor}` };
    case 'controlChars':
      return { zh: `${L}不能包含控制字符`, en: `${E} must not contain control characters` };
    case 'nameChars':
      return {
        zh: `${L}只能包含文字、数字、下划线和连字符`,
        en: `${E} may hold letters, digits, underscores and hyphens only`,
      };
    case 'idList':
      return { zh: `${L}应为用逗号分隔的数字，例如 3,4`, en: `${E} must be numbers separated by commas, e.g. 3,4` };
    case 'json':
      return { zh: `${L}必须是 JSON`, en: `${E} must be JSON` };
    case 'distinct':
      return { zh: `${L}不能重复`, en: `${E} must not repeat` };
    case 'decimals':
      return { zh: `${L}最多 ${p.digits} 位小数`, en: `${E} may have at most ${p.digits} decimals` };
    case 'stopWord':
      return { zh: `${L}不能包含「${p.word}」`, en: `${E} may not contain "${p.word}"` };
    case 'bannedWord':
      return { zh: `${L}包含违禁词「${p.word}」`, en: `${E} holds the banned word "${p.word}"` };
    case 'amountBelow':
      return { zh: `${L}不能少于 ${p.min} 元`, en: `${E} must be at least ${p.min}` };
    case 'amountAbove':
      return { zh: `${L}不能超过 ${p.max} 元`, en: `${E} must be at most ${p.max}` };
    case 'sentence':
      return { zh: p.zh, en: p.en };
    case 'invalid':
      return { zh: `${L}不正确`, en: `${E} is invalid` };
  }
}

// --- Finding a field's label ---------------------------------------------------------------------------------------

type Node = z.core.$ZodType;

/** The parts of a zod definition the walk reads (zod 4's `_zod.def`). */
interface LooseDef {
  type: string;
  innerType?: Node;
  in?: Node;
  out?: Node;
  options?: readonly Node[];
  discriminator?: string;
  left?: Node;
  right?: Node;
  shape?: Record<string, Node>;
  catchall?: Node;
  element?: Node;
  valueType?: Node;
  items?: readonly Node[];
  rest?: Node | null;
}

const defOf = (node: Node): LooseDef => node._zod.def as unknown as LooseDef;

/**
 * A schema with everything that stands in its place: wrapped, piped or united schemas. Reached under the key `key`
 * (a record's key such as content.indexes' "107"), a discriminated union stands for the options whose discriminator
 * is that key, when any is: a part's fields are labelled by its own schema, not the first part's.
 */
function layers(node: Node, out: Node[] = [], key?: PropertyKey): Node[] {
  if (out.includes(node) || out.length > 64) return out;
  out.push(node);
  const def = defOf(node);
  for (const next of [def.innerType, def.in, def.out, def.left, def.right, ...optionsFor(def, key)]) {
    if (next) layers(next, out, key);
  }
  return out;
}

function optionsFor(def: LooseDef, key: PropertyKey | undefined): readonly Node[] {
  const options = def.options ?? [];
  if (!def.discriminator || key === undefined) return options;
  const matching = options.filter((option) => {
    const field = defOf(option).shape?.[def.discriminator!];
    const values = field ? (defOf(field) as { values?: unknown[] }).values : undefined;
    return values?.map(String).includes(String(key)) === true;
  });
  return matching.length > 0 ? matching : options;
}

/** The schemas of `key` inside any layer of `nodes`. */
function children(nodes: readonly Node[], key: PropertyKey): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    const def = defOf(node);
    if (def.type === 'object' && typeof key === 'string') {
      const field = def.shape?.[key] ?? def.catchall;
      if (field) out.push(field);
    } else if (def.type === 'array' && typeof key === 'number' && def.element) {
      out.push(def.element);
    } else if (def.type === 'tuple' && typeof key === 'number') {
      const item = def.items?.[key] ?? def.rest;
      if (item) out.push(item);
    } else if (def.type === 'record' && def.valueType) {
      out.push(def.valueType);
    }
  }
  return out;
}

function labelIn(nodes: readonly Node[]): FieldLabel | undefined {
  for (const node of nodes) {
    const label = fieldLabels.get(node);
    if (label) return label;
  }
  return undefined;
}

/**
 * The label of the field at `path`: the schema's own label there; else the label of the field it is an item of
 * (`words.3` is a word of `words`), given to its schema or common to its name; else the nearest label of an
 * enclosing field; else the path itself ("参数 filter.sort"), for fields only programs send. An item of a list says
 * which (第 3 项 / item 3).
 */
export function labelOf(path: readonly PropertyKey[], schema?: Node, part = 'body'): FieldLabel {
  if (path.length === 0) return NAMES[part as keyof typeof NAMES] ?? NAMES.body;
  // The labels found at each depth of the path.
  const found: (FieldLabel | undefined)[] = [];
  if (schema) {
    let nodes = layers(schema);
    for (const key of path) {
      nodes = children(nodes, key).flatMap((node) => layers(node, [], key));
      found.push(labelIn(nodes));
    }
  }
  const nameAt = path.findLastIndex((key) => typeof key === 'string');
  const name = nameAt >= 0 ? (path[nameAt] as string) : undefined;
  const label =
    found[path.length - 1] ??
    (nameAt >= 0 ? found[nameAt] : undefined) ??
    (name !== undefined && Object.hasOwn(COMMON_FIELD_LABELS, name) ? COMMON_FIELD_LABELS[name] : undefined) ??
    found.slice(0, nameAt >= 0 ? nameAt : path.length).findLast((l) => l !== undefined);
  if (!label) {
    // Trailing space: the sentence may go on in Chinese ("参数 filter.sort 不能大于 4"); trimmed at the end.
    const raw = path.map(String).join('.');
    return { zh: `参数 ${raw} `, en: raw };
  }
  const index = path.findLast((key): key is number => typeof key === 'number');
  if (index === undefined) return label;
  return { ...label, zh: `${label.zh}（第 ${index + 1} 项）`, en: `${label.en} (item ${index + 1})` };
}

/** The sentence for a problem of the field at `path` (a dotted path or its parts). */
export function describeProblem(
  path: string | readonly PropertyKey[],
  p: FieldProblem,
  schema?: Node,
  part?: string,
): Sentence {
  const parts = typeof path === 'string' ? (path === '' ? [] : path.split('.').map(asKey)) : path;
  const text = sentence(labelOf(parts, schema, part), p);
  return { zh: text.zh.trim(), en: text.en.trim() };
}

const asKey = (segment: string): PropertyKey => (/^\d+$/.test(segment) ? Number(segment) : segment);

// --- From a zod issue to a problem ---------------------------------------------------------------------------------

const MISSING = Symbol('missing');

/** The value at `path` in the checked input; MISSING when the path leads through something that is not an object. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return MISSING;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

const asNumber = (n: number | bigint): number => Number(n);

function problemOfIssue(issue: z.core.$ZodIssue): FieldProblem {
  switch (issue.code) {
    case 'invalid_type':
      return { kind: 'notType', expected: issue.expected };
    case 'too_small': {
      const min = asNumber(issue.minimum);
      if (issue.origin === 'string') {
        return min <= 1 && !issue.exact ? { kind: 'empty' } : { kind: 'tooShort', min, exact: issue.exact === true };
      }
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'fewItems', min };
      return { kind: 'tooSmall', min, inclusive: issue.inclusive !== false };
    }
    case 'too_big': {
      const max = asNumber(issue.maximum);
      if (issue.origin === 'string') return { kind: 'tooLong', max, exact: issue.exact === true };
      if (issue.origin === 'array' || issue.origin === 'set') return { kind: 'manyItems', max };
      return { kind: 'tooBig', max, inclusive: issue.inclusive !== false };
    }
    case 'invalid_format':
      return { kind: 'badFormat', format: issue.format };
    case 'not_multiple_of':
      return { kind: 'multipleOf', divisor: issue.divisor };
    case 'unrecognized_keys':
      return { kind: 'unknownKeys', keys: issue.keys };
    case 'invalid_value':
      return issue.values.length > 0 ? { kind: 'notOneOf', values: issue.values } : { kind: 'invalid' };
    case 'invalid_union':
      return problemOfUnion(issue.errors);
    case 'custom': {
      const given = (issue.params as { problem?: FieldProblem } | undefined)?.problem;
      return given && typeof given.kind === 'string' ? given : { kind: 'invalid' };
    }
    default:
      return { kind: 'invalid' };
  }
}

/**
 * None of a union's options took the value. When each option is a plain value or a type (1 | -1, true | 0 | 1)
 * the sentence lists what is allowed; otherwise it only says the value is not right.
 */
function problemOfUnion(options: readonly (readonly z.core.$ZodIssue[])[]): FieldProblem {
  const values: Value[] = [];
  const types: string[] = [];
  for (const issues of options) {
    const first = issues[0];
    if (!first || first.path.length > 0) return { kind: 'invalid' };
    if (first.code === 'invalid_value') values.push(...first.values);
    else if (first.code === 'invalid_type' && first.expected === 'boolean') values.push(true, false);
    else if (first.code === 'invalid_type') types.push(first.expected);
    else return { kind: 'invalid' };
  }
  if (types.length === 0) return values.length > 0 ? { kind: 'notOneOf', values } : { kind: 'invalid' };
  if (values.length === 0 && new Set(types).size === 1) return { kind: 'notType', expected: types[0]! };
  return { kind: 'notType', expected: 'mixed' };
}

export interface IssueSource {
  /** The schema that was checked: its labels name the field. */
  schema?: Node | undefined;
  /** What was checked: a field absent from it is "required", whatever the schema made of the gap. */
  input?: unknown;
  /** The part of the request (body, querystring, params): names the whole when the issue is about the whole. */
  part?: string | undefined;
}

export interface DescribedIssue {
  /** The failing field's path (`data.0.name`), or the part of the request; for programs. */
  field: string;
  /** For people. */
  message: Sentence;
}

/** A zod issue as a sentence for people, in both locales. */
export function describeIssue(issue: z.core.$ZodIssue, source: IssueSource = {}): DescribedIssue {
  const { path } = issue;
  const absent =
    (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') &&
    'input' in source &&
    valueAt(source.input, path) === undefined;
  const p: FieldProblem = absent ? { kind: 'required' } : problemOfIssue(issue);
  return {
    field: path.length > 0 ? path.map(String).join('.') : (source.part ?? 'body'),
    message: describeProblem(path, p, source.schema, source.part),
  };
}
