import type { i18n as I18n, TFunction } from 'i18next';
import { useCallback, useContext, useSyncExternalStore } from 'react';
import { I18nContext } from 'react-i18next';

/** One bound `t` per instance and language: components share it, and it changes when the language does. */
const fixedTs = new WeakMap<I18n, Map<string, TFunction>>();

function fixedT(i18n: I18n, language: string): TFunction {
  let byLanguage = fixedTs.get(i18n);
  if (!byLanguage) fixedTs.set(i18n, (byLanguage = new Map()));
  let t = byLanguage.get(language);
  if (!t) byLanguage.set(language, (t = i18n.getFixedT(language)));
  return t;
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
