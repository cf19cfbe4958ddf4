import { resolveLocale } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { createI18n } from './index';
import { zh } from './zh';

function keys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, child]) =>
    typeof child === 'object' && child !== null ? keys(child as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

describe('i18n', () => {
  it('has every text in both languages', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
    for (const key of keys(en)) {
      const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en);
      expect(typeof text === 'string' && text.length > 0, key).toBe(true);
    }
  });

  it("splits the catalogues per feature: each en file has its zh file's keys, none passes 400 lines", () => {
    const sources = import.meta.glob<string>(['./zh/*.ts', './en/*.ts'], {
      query: '?raw',
      import: 'default',
      eager: true,
    });
    const names = (lang: string) =>
      Object.keys(sources)
        .filter((path) => path.startsWith(`./${lang}/`))
        .map((path) => path.slice(5))
        .sort();
    expect(names('zh').length).toBeGreaterThan(5);
    expect(names('en')).toEqual(names('zh'));
    for (const [path, text] of Object.entries(sources)) expect(text.split('\n').length, path).toBeLessThanOrEqual(400);
    const zhParts = import.meta.glob<Record<string, object>>('./zh/*.ts', { eager: true });
    const enParts = import.meta.glob<Record<string, object>>('./en/*.ts', { eager: true });
    for (const [path, module] of Object.entries(zhParts)) {
      const english = enParts[path.replace('./zh/', './en/')];
      for (const [name, messages] of Object.entries(module)) {
        expect(keys(english?.[name] ?? {}).sort(), `${path} ${name}`).toEqual(keys(messages).sort());
      }
    }
  });

  it("uses the spec's English words exactly", () => {
    const t = createI18n('en').t;
    expect(t('nav.home')).toBe('Home');
    expect(t('nav.message')).toBe('Message');
    expect(t('nav.discover')).toBe('Discover');
    expect(t('nav.personalCenter')).toBe('Personal Center');
    expect(t('nav.logout')).toBe('Log out');
    expect(t('nav.loginRegister')).toBe('Login/Register');
    expect(t('notFound.title')).toBe('resource not found');
    expect(t('notFound.back')).toBe('go back to the previous page');
    expect(t('auth.pleaseLogin')).toBe('please log in first!');
  });

  it("uses the spec's Chinese texts", () => {
    const t = createI18n('zh').t;
    expect(t('nav.home')).toBe('首页');
    expect(t('nav.message')).toBe('消息');
    expect(t('nav.discover')).toBe('发现');
    expect(t('nav.personalCenter')).toBe('个人中心');
    expect(t('nav.logout')).toBe('退出登录');
    expect(t('nav.loginRegister')).toBe('登录/注册');
    expect(t('site.siteInfoFailed')).toBe('获取站点接口信息失败');
    expect(t('errors.bug')).toBe('出bug了 页面暂时无法展示');
    expect(t('site.defaultTitle')).toBe('欢迎');
  });

  it('lets the locale cookie choose, then the site default, then zh', () => {
    expect(resolveLocale('en', 'zh')).toBe('en');
    expect(resolveLocale(undefined, 'en')).toBe('en');
    expect(resolveLocale('fr', 'de')).toBe('zh');
    expect(resolveLocale(undefined, undefined)).toBe('zh');
  });
});
