import type { i18n as I18n, TFunction } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nContext } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from './index';
import { rememberedT, useTranslation } from './use-translation';

/** The `t` components get, read through the hook as a component would. */
function tOf(i18n: I18n): TFunction {
  let t: TFunction | undefined;
  function Probe() {
    t = useTranslation().t;
    return null;
  }
  renderToString(
    <I18nContext.Provider value={{ i18n }}>
      <Probe />
    </I18nContext.Provider>,
  );
  return t!;
}

describe('useTranslation', () => {
  it("remembers texts, each for its own key, count and values, in the instance's language", () => {
    const t = tOf(createI18n('en'));
    expect(t('nav.home')).toBe(t('nav.home'));
    expect(t('thread.repliesHeading', { count: 1 })).toBe('1 reply');
    expect(t('thread.repliesHeading', { count: 2 })).toBe('2 replies');
    expect(t('thread.repliesHeading', { count: 1 })).toBe('1 reply');
    expect(t('nav.unread', { count: 3 })).toBe('3 unread');
    expect(tOf(createI18n('zh'))('thread.repliesHeading', { count: 2 })).toBe('2 条回复');
  });

  it('reads again once a catalogue is added (a text asked before its catalogue came)', () => {
    const i18n = createI18n('en');
    const t = tOf(i18n) as unknown as (key: string) => string;
    expect(t('later.text')).toBe('later.text');
    i18n.addResourceBundle('en', 'translation', { later: { text: 'here now' } }, true);
    expect(t('later.text')).toBe('here now');
  });

  it("gives the server's head the components' remembering `t`, in the instance's language", () => {
    const en = createI18n('en');
    expect(rememberedT(en)).toBe(tOf(en));
    expect(rememberedT(en)('site.defaultTitle')).toBe('Welcome');
    const zh = createI18n('zh');
    expect(rememberedT(zh)).toBe(tOf(zh));
    expect(rememberedT(zh)('site.defaultTitle')).toBe('欢迎');
  });
});
