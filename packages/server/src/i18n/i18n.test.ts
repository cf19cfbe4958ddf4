import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enCatalogues, msg, zhCatalogues } from './index.js';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]);

describe("the server's message catalogues", () => {
  it('give every zh key an en text, and no other', () => {
    const zh = zhCatalogues as Record<string, Record<string, string>>;
    const en = enCatalogues as Record<string, Record<string, string>>;
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const [feature, texts] of Object.entries(zh)) {
      expect(Object.keys(en[feature] ?? {}).sort(), feature).toEqual(Object.keys(texts).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.length > 0 && (en[feature]?.[key] ?? '').length > 0, `${feature}.${key}`).toBe(true);
      }
    }
  });

  it('keep each file within 400 lines, one file per feature in each language', () => {
    const dir = (lang: string) => new URL(`./${lang}/`, import.meta.url);
    const files = readdirSync(dir('zh')).sort();
    expect(readdirSync(dir('en')).sort()).toEqual(files);
    for (const lang of ['zh', 'en']) {
      for (const file of files) {
        const lines = readFileSync(new URL(file, dir(lang)), 'utf8').split('\n').length;
        expect(lines, `${lang}/${file}`).toBeLessThanOrEqual(400);
      }
    }
  });

  it('fill the values a text names, in both languages', () => {
    expect(msg('core.tooManyAttemptsWait', { seconds: 30 })).toEqual({
      zh: '尝试次数过多，请 30 秒后再试',
      en: 'Too many attempts: please wait 30 seconds and try again',
    });
    const texts = Object.values(zhCatalogues).flatMap((feature) => Object.values(feature) as string[]);
    expect(texts.some((text) => placeholders(text).length > 0)).toBe(true);
  });
});
