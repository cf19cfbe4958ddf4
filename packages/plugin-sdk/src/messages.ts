/*
 * A plugin's words, shaped as the forum's own catalogues are: per feature, per language, Chinese first and English
 * with exactly its keys (the forum's are packages/web/src/i18n/{zh,en}/<feature>.ts and
 * packages/server/src/i18n/{zh,en}/<feature>.ts). A plugin's catalogue travels in its own bundle, so it is its own
 * namespace: keys never meet the forum's or another plugin's. This file imports nothing, so both the client module
 * and the server module may bundle it.
 */

/** One language's words: feature → key → text; a text names its values as `{{name}}`. */
export type PluginCatalogue = Record<string, Record<string, string>>;

/** The English catalogue's shape: the Chinese one's features and keys, each a string. */
export type PluginCatalogueOf<Zh extends PluginCatalogue> = { [F in keyof Zh]: { [K in keyof Zh[F]]: string } };

/** `'<feature>.<key>'` of a catalogue. */
export type PluginMessageKey<Zh extends PluginCatalogue> = {
  [F in keyof Zh]: `${F & string}.${keyof Zh[F] & string}`;
}[keyof Zh];

export type PluginMessageVars = Record<string, string | number>;

export interface PluginMessages<Zh extends PluginCatalogue> {
  /** The text in the page's language (`siteData.locale`); any other value than 'en' gives Chinese, as the forum. */
  t(locale: string | undefined, key: PluginMessageKey<Zh>, vars?: PluginMessageVars): string;
  /** The text in both languages, `{ zh, en }`. */
  both(key: PluginMessageKey<Zh>, vars?: PluginMessageVars): { zh: string; en: string };
}

function fill(text: string, vars: PluginMessageVars = {}): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

function lookup(catalogue: PluginCatalogue, key: string): string {
  const dot = key.indexOf('.');
  const text = catalogue[key.slice(0, dot)]?.[key.slice(dot + 1)];
  if (text === undefined) throw new Error(`No plugin message ${key}`);
  return text;
}

/**
 * The plugin's messages: `const m = definePluginMessages({ poll: { vote: '投票' } }, { poll: { vote: 'Vote' } })`,
 * then `m.t(siteData.locale, 'poll.vote')`. TypeScript refuses an English catalogue that lacks a key of the Chinese
 * one or adds another; keep each feature in its own file (`texts/zh/poll.ts`, `texts/en/poll.ts`) once it grows.
 */
export function definePluginMessages<const Zh extends PluginCatalogue>(
  zh: Zh,
  en: PluginCatalogueOf<Zh>,
): PluginMessages<Zh> {
  const catalogues: Record<'zh' | 'en', PluginCatalogue> = { zh, en: en as PluginCatalogue };
  return {
    t: (locale, key, vars) => fill(lookup(catalogues[locale === 'en' ? 'en' : 'zh'], key), vars),
    both: (key, vars) => ({ zh: fill(lookup(catalogues.zh, key), vars), en: fill(lookup(catalogues.en, key), vars) }),
  };
}
