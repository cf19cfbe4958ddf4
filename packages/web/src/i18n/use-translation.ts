import type { i18n as I18n, TFunction } from 'i18next';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { I18nContext } from 'react-i18next';

/** One bound `t` per instance and language: components share it, and it changes when the language does. */
const fixedTs = new WeakMap<I18n, Map<string, TFunction>>();

function fixedT(i18n: I18n, language: string): TFunction {
  let byLanguage = fixedTs.get(i18n);
  if (!byLanguage) fixedTs.set(i18n, (byLanguage = new Map()));
  let t = byLanguage.get(language);
  if (!t) byLanguage.set(language, (t = rememberingT(i18n, i18n.getFixedT(language))));
  return t;
}

/**
 * The instance's remembering `t` in its current language, outside React: the server's head of a page (its title,
 * description and feeds) asks for the same few texts on every render.
 */
export function rememberedT(i18n: I18n): TFunction {
  return fixedT(i18n, i18n.language);
}

/** How many texts a `t` remembers before starting again (counts and names make the texts of options unbounded). */
const REMEMBERED_MAX = 5000;

/** The memory key of a call: its key, and its options when they are plain values (a count, a name), else null. */
function callKey(args: unknown[]): string | null {
  const [key, options] = args;
  if (typeof key !== 'string' || args.length > 2) return null;
  if (args.length === 1) return key;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return null;
  for (const value of Object.values(options)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return null;
  }
  return `${key}\u0000${JSON.stringify(options)}`;
}

/**
 * `t` remembering the text of each call with plain values: a page asks for the same labels again and again (every
 * post's buttons, the header's links), and i18next resolves each call afresh, with its plural rules and interpolation
 * (about a tenth of a thread page's render on the server). A catalogue added later (the back office's) starts the
 * memory again. Other calls (objects in the options, several keys) go to i18next as they are.
 */
function rememberingT(i18n: I18n, t: TFunction): TFunction {
  let texts = new Map<string, string>();
  const forget = () => (texts = new Map());
  i18n.store.on('added', forget);
  i18n.store.on('removed', forget);
  // Untyped here: the keys are checked where `t` is called (i18next.d.ts).
  const call = t as unknown as (...args: unknown[]) => unknown;
  const remembering = (...args: unknown[]): unknown => {
    const key = callKey(args);
    if (key === null) return call(...args);
    let text = texts.get(key);
    if (text === undefined) {
      const value = call(...args);
      if (typeof value !== 'string') return value;
      if (texts.size >= REMEMBERED_MAX) forget();
      texts.set(key, (text = value));
    }
    return text;
  };
  // What getFixedT's function carries besides being callable (its language, namespace and key prefix).
  return Object.assign(remembering, t) as unknown as TFunction;
}

/**
 * The app's `useTranslation`: `{ t, i18n }` of the provider's instance, re-rendering when the language changes.
 * react-i18next's hook copies every property of the instance into a new wrapper object for each component on its
 * first render, which on the server is every component of every page (about a sixth of a page's render time).
 * The app needs none of its other options (namespaces, key prefixes, suspense), so this is all it does.
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const { i18n } = useContext(I18nContext);
  const subscribe = useCallback(
    (onChange: () => void) => {
      i18n.on('languageChanged', onChange);
      return () => i18n.off('languageChanged', onChange);
    },
    [i18n],
  );
  const language = useSyncExternalStore(
    subscribe,
    () => i18n.language,
    () => i18n.language,
  );
  return { t: fixedT(i18n, language), i18n };
}
