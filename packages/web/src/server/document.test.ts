import { describe, expect, it } from 'vitest';
import { scriptSafeJson } from '../boot-state';
import { renderDocument, type DocumentParts } from './document';

const parts: DocumentParts = {
  lang: 'zh-CN',
  platform: 'pc',
  title: 'T',
  keywords: '',
  description: '',
  favicon: '/f.svg',
  siteStat: '',
  nonce: 'abc123',
  appHtml: '<main></main>',
  bootStateJson: '{}',
  routerHydrationScript: '',
  stylesheets: [],
  modulePreloads: ['/assets/chunk.js'],
  entryScript: '/assets/entry.js',
};

describe('the document', () => {
  it('puts the plugin import map, with the nonce, before every module script and preload', () => {
    const map = { imports: { react: '/assets/plugin-runtime/react-1.js' } };
    const html = renderDocument({ ...parts, importMapJson: scriptSafeJson(map) });
    const importMap = html.indexOf('<script type="importmap" nonce="abc123">{"imports":{"react":');
    expect(importMap).toBeGreaterThan(0);
    expect(importMap).toBeLessThan(html.indexOf('rel="modulepreload"'));
    expect(importMap).toBeLessThan(html.indexOf('type="module"'));
  });

  it('has no import map when the build wrote none', () => {
    expect(renderDocument(parts)).not.toContain('importmap');
  });
});
