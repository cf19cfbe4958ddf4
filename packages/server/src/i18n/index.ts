import { en, zh } from './catalogues.js';

/**
 * The server's messages for people come from catalogues split per feature (zh/<feature>.ts beside en/<feature>.ts,
 * none over 400 lines), as the web's do. `msg('groups.slugTaken', { slug })` gives both languages' texts, which the
 * error helpers take (core/errors.ts `LocalizedText`); the error handler picks the request's language (core/i18n.ts).
 * A text names its values as `{{name}}`; the call must pass exactly the names its texts use.
 */
type Zh = typeof zh;
type En = typeof en;

export type MessageKey = { [F in keyof Zh]: `${F & string}.${keyof Zh[F] & string}` }[keyof Zh];

type TextOf<C, K> = K extends `${infer F}.${infer N}`
  ? F extends keyof C
    ? N extends keyof C[F]
      ? C[F][N]
      : never
    : never
  : never;
type Placeholders<S> = S extends `${string}{{${infer V}}}${infer Rest}` ? V | Placeholders<Rest> : never;
export type MessageVars<K extends MessageKey> = Placeholders<TextOf<Zh, K>> | Placeholders<TextOf<En, K>>;

export interface Message {
  zh: string;
  en: string;
}

type Catalogues = Record<string, Record<string, string>>;

function fill(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

function lookup(catalogues: Catalogues, key: string): string {
  const dot = key.indexOf('.');
  const text = catalogues[key.slice(0, dot)]?.[key.slice(dot + 1)];
  if (text === undefined) throw new Error(`No server message ${key}`);
  return text;
}

/** Both languages' texts of a catalogue message, its `{{name}}` values filled in. */
export function msg<K extends MessageKey>(
  key: K,
  ...vars: [MessageVars<K>] extends [never] ? [] : [Record<MessageVars<K>, string | number>]
): Message {
  const values: Record<string, string | number> = vars[0] ?? {};
  return {
    zh: fill(lookup(zh as unknown as Catalogues, key), values),
    en: fill(lookup(en as unknown as Catalogues, key), values),
  };
}

export { en as enCatalogues, zh as zhCatalogues };
